"""Durability: the real server is SIGKILLed in the middle of an ingestion (once during extraction, once
during embedding), restarted, and must finish the same workflow with exactly the expected blocks —
no duplicates, none missing — without redoing steps that had finished (at most the one in flight). And
the process reading a file when its server is killed dies with it."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import psycopg
import pymupdf
import pytest

from backend.ingest.chunk import chunk_units
from backend.ingest.extract import extract_document
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.hostile import tree
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import REPO_ROOT, QuireServer
from tests.support.vault import upload, wait_for_run, wait_until

pytestmark = pytest.mark.slow

MARKDOWN = {f"topic-{i}.md": (f"# Topic {i}\n\n" + f"Paragraph about subject {i}. " * 120).encode() for i in range(3)}


def _big_pdf(path: Path, pages: int) -> bytes:
    texts = [f"Page {n}. " + "Thermodynamics relates heat, work and energy in closed systems. " * 12
             for n in range(1, pages + 1)]
    return make_pdf(path, texts).read_bytes()


def _expected_blocks(files: dict[str, bytes], tmp_path: Path) -> dict[str, int]:
    expected = {}
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        result = extract_document(path, path.suffix.lstrip("."))
        expected[name] = len(chunk_units(result.units, 1000, 100))
    return expected


def _block_counts(server: QuireServer) -> dict[str, tuple[int, int, int]]:
    """filename -> (all block rows, live rows, rows with a vector), straight from Postgres."""
    with psycopg.connect(server.database_url) as conn:
        rows = conn.execute(
            "SELECT d.filename, count(b.id), count(b.id) FILTER (WHERE b.is_live),"
            " count(b.embedding) FROM documents d LEFT JOIN blocks b ON b.document_id = d.id GROUP BY d.filename"
        ).fetchall()
    return {name: (total, live, embedded) for name, total, live, embedded in rows}


def _assert_complete(server: QuireServer, snapshot: dict, expected: dict[str, int]) -> None:
    assert snapshot["status"] == "SUCCESS", snapshot
    counts = _block_counts(server)
    for name, blocks in expected.items():
        assert counts[name] == (blocks, blocks, blocks), (name, counts[name], blocks)
    assert all(doc["status"] == "ready" for doc in snapshot["documents"])


def test_kill_during_extraction_resumes(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    # One document at a time, so exactly one extraction is in flight at the kill (a run's documents are
    # child workflows that otherwise run side by side, up to QUIRE_INGEST_CONCURRENCY).
    server = server_factory(QUIRE_INGEST_CONCURRENCY="1")
    files = {"thermo.pdf": _big_pdf(tmp_path / "src.pdf", 600), **MARKDOWN}
    expected = _expected_blocks(files, tmp_path)
    with server.client() as api:
        workflow_id = upload(api, files).json()["workflow_id"]
        wait_until(api, workflow_id, lambda s: any(d["status"] == "extracting" for d in s["documents"]))
        server.kill()
    server.start()
    with server.client() as api:
        snapshot = wait_for_run(api, workflow_id, timeout_s=120)
    _assert_complete(server, snapshot, expected)
    runs = snapshot["executions"]
    assert runs["scan"] == 1
    assert max(n for key, n in runs.items() if key.startswith("extract:")) == 2  # only the one in flight
    assert sum(1 for key, n in runs.items() if n > 1) == 1
    assert server.starts == 2


def test_kill_during_embedding_resumes(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    server = server_factory(QUIRE_EMBED_BATCH_SIZE="4")
    files = {"thermo.pdf": _big_pdf(tmp_path / "src.pdf", 12), **MARKDOWN}
    expected = _expected_blocks(files, tmp_path)
    with server.client() as api:
        workflow_id = upload(api, files).json()["workflow_id"]
        fake_ollama.embed_delay_s = 0.4
        before = wait_until(api, workflow_id, lambda s: s["progress"]["phase"] == "embedding"
                             and s["progress"]["done"] >= 2)
        server.kill()
    fake_ollama.embed_delay_s = 0.0
    started_embeds = {key for key, n in before["executions"].items() if key.startswith("embed:")}
    server.start()
    with server.client() as api:
        snapshot = wait_for_run(api, workflow_id, timeout_s=120)
    _assert_complete(server, snapshot, expected)
    runs = snapshot["executions"]
    assert all(runs[key] == 1 for key in runs if key.startswith(("extract:", "store:"))), runs
    repeated = [key for key, n in runs.items() if n > 1]
    assert len(repeated) <= 1
    assert set(repeated) <= started_embeds
    assert runs["finish"] == 1


def _resumed_across_builds(before: Path, postgres: ThrowawayPostgres, fake_ollama: FakeOllama,
                           tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A run the build in `before` recorded, killed once it embeds (two batches done, the next ones
    slowed), then finished by this build and checked complete: its snapshot before the kill and its last."""
    url, data_dir, settings = postgres.fresh_database(), tmp_path / "data", {"QUIRE_EMBED_BATCH_SIZE": "4"}
    files = {"thermo.pdf": _big_pdf(tmp_path / "src.pdf", 12), **MARKDOWN}
    expected = _expected_blocks(files, tmp_path)
    old = QuireServer(url, data_dir, fake_ollama.url, checkout=before, **settings).start()
    try:
        with old.client() as api:
            workflow_id = upload(api, files).json()["workflow_id"]
            fake_ollama.embed_delay_s = 0.4
            before_kill = wait_until(api, workflow_id, lambda s: s["progress"]["phase"] == "embedding"
                                      and s["progress"]["done"] >= 2)
    finally:
        old.kill()
    fake_ollama.embed_delay_s = 0.0
    new = QuireServer(url, data_dir, fake_ollama.url, **settings).start()
    try:
        with new.client() as api:
            snapshot = wait_for_run(api, workflow_id, timeout_s=120)
        _assert_complete(new, snapshot, expected)
    finally:
        new.stop()
    return before_kill, snapshot


def test_a_run_the_build_before_recorded_is_finished_by_this_one(
    postgres: ThrowawayPostgres, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """An upgrade in the middle of a run. The build before EMBED_EACH_WHEN_STORED embedded a run's documents
    only after all of them were read; this one embeds each as it is stored (another step sequence). A run
    the earlier build recorded up to its embedding, killed there, is finished by this build along the path
    it recorded: without DBOS.patch the replay would meet steps it never recorded."""
    before = tmp_path / "build-before"
    for folder in ("backend", "prompts"):
        shutil.copytree(REPO_ROOT / folder, before / folder, ignore=shutil.ignore_patterns("__pycache__"))
    workflow = before / "backend" / "ingest" / "workflow.py"
    source = workflow.read_text(encoding="utf-8")
    assert "if DBOS.patch(EMBED_EACH_WHEN_STORED):" in source
    workflow.write_text(source.replace("if DBOS.patch(EMBED_EACH_WHEN_STORED):", "if False:"), encoding="utf-8")
    _, snapshot = _resumed_across_builds(before, postgres, fake_ollama, tmp_path)
    steps = [step["name"] for step in snapshot["steps"]]
    assert any(name.endswith("await_documents_step") for name in steps), steps  # the recorded path
    assert not any("patch" in name or name.endswith("document_ready_step") for name in steps), steps
    assert all(n == 1 for key, n in snapshot["executions"].items() if key.startswith(("extract:", "store:")))


# The last build whose workflows were module-level functions reading a process-wide context: the services
# they use have been handed to them explicitly since.
BUILD_BEFORE_EXPLICIT_SERVICES = "78d7a2c"


def _git_checkout(rev: str, target: Path) -> Path:
    if shutil.which("git") is None or subprocess.run(
            ["git", "-C", str(REPO_ROOT), "cat-file", "-e", f"{rev}^{{commit}}"], capture_output=True,
            check=False).returncode:
        pytest.skip(f"the build {rev} is not in this clone's history")
    target.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", rev, "backend", "prompts"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def test_a_run_recorded_before_the_services_were_explicit_is_finished_by_this_build(
    postgres: ThrowawayPostgres, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """An upgrade in the middle of a run, across the change that made the workflows' services explicit.
    DBOS recovers a workflow by the name it recorded (and, for a configured instance's method, by its class
    and instance names too): the run the earlier build recorded, killed during its embedding, must resume
    here at its first unfinished step, with nothing redone and nothing orphaned."""
    before = _git_checkout(BUILD_BEFORE_EXPLICIT_SERVICES, tmp_path / "build-before")
    before_kill, snapshot = _resumed_across_builds(before, postgres, fake_ollama, tmp_path)
    runs = snapshot["executions"]
    assert runs["scan"] == 1, runs
    assert runs["finish"] == 1, runs
    assert all(n == 1 for key, n in runs.items() if key.startswith(("extract:", "store:"))), runs
    started_embeds = {key for key in before_kill["executions"] if key.startswith("embed:")}
    assert {key for key, n in runs.items() if n > 1} <= started_embeds  # at most the batch in flight


def test_stopping_mid_run_is_prompt_and_the_run_finishes_after_the_restart(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """SIGTERM (or Ctrl-C) while a run waits for its documents being read and embedded: the process ends
    within seconds, by itself. It used to hang at exit on DBOS's executor threads (the run's wait on its
    documents' workflows) until it was killed, 20 s later here."""
    server = server_factory()
    expected = _expected_blocks(MARKDOWN, tmp_path)
    # The fake Ollama holds each embedding request, so the documents are still in flight when the stop
    # comes: three short notes are otherwise read and embedded before a poll sees them busy.
    fake_ollama.embed_delay_s = 0.5
    try:
        with server.client() as api:
            workflow_id = upload(api, MARKDOWN).json()["workflow_id"]
            wait_until(api, workflow_id,
                       lambda s: any(d["status"] in ("extracting", "embedding") for d in s["documents"]))
        started = time.monotonic()
        server.stop()
    finally:
        fake_ollama.embed_delay_s = 0.0
    stopped_in = time.monotonic() - started
    assert server.process is not None
    assert server.process.returncode == 128 + 15, server.process.returncode  # its own exit, not a kill
    assert stopped_in < 10, f"stopping took {stopped_in:.1f} s"
    server.start()
    with server.client() as api:
        _assert_complete(server, wait_for_run(api, workflow_id, timeout_s=120), expected)


def test_a_killed_server_takes_its_readers_with_it(
    server_factory: Callable[..., QuireServer], tmp_path: Path
) -> None:
    # A scanned poster: tesseract reads its one page for many seconds, long enough to see whether the
    # reader outlives its server. It used to read on to the end of the page, then the worker to the end of
    # its job, while the restarted server (which recovers the workflow) read the same file again.
    server = server_factory(QUIRE_INGEST_CONCURRENCY="1")
    assert server.process is not None
    with server.client() as api:
        upload(api, {"poster.pdf": _scanned_poster(tmp_path / "poster.pdf")})
        readers = _tesseracts(server.process.pid)
        assert readers, "tesseract never started"
        readers += [p for p in {r.parent() for r in readers} if p is not None]  # and their workers
        server.kill()
    _gone, alive = psutil.wait_procs(readers, timeout=3)
    assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE], "a reader outlived its server"


def _scanned_poster(path: Path) -> bytes:
    """A one-page PDF: an A3 sheet of small print as an image (no text layer)."""
    text = " ".join(f"Line {n}: moraines, drumlins and eskers mark where the glaciers stood." for n in range(220))
    with pymupdf.open() as printed:
        page = printed.new_page(width=842, height=1191)
        assert page.insert_textbox(pymupdf.Rect(30, 30, 812, 1161), text, fontsize=9) >= 0
        image = page.get_pixmap(dpi=144, colorspace=pymupdf.csGRAY).tobytes("png")
    with pymupdf.open() as scanned:
        scanned.new_page(width=842, height=1191).insert_image(pymupdf.Rect(0, 0, 842, 1191), stream=image)
        scanned.save(path, deflate=True)
    return path.read_bytes()


def _tesseracts(server_pid: int, timeout_s: float = 60) -> list[psutil.Process]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = [p for p in tree(server_pid) if _name(p) == "tesseract"]
        if found:
            return found
        time.sleep(0.05)
    return []


def _name(process: psutil.Process) -> str:
    try:
        return process.name()
    except psutil.Error:
        return ""
