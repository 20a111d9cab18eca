"""Durability: the real server is SIGKILLed in the middle of an ingestion (once during extraction, once
during embedding), restarted, and must finish the same workflow with exactly the expected blocks —
no duplicates, none missing — without redoing steps that had finished (at most the one in flight)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import psycopg
import pytest

from backend.ingest.chunk import chunk_units
from backend.ingest.extract import extract_document
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

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


def _wait_until(api: httpx.Client, workflow_id: str, ready: Callable[[dict], bool], timeout_s: float = 60) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        snapshot = api.get(f"/api/ingest/{workflow_id}").json()
        if ready(snapshot):
            return snapshot
        time.sleep(0.02)
    raise TimeoutError(f"condition not reached: {snapshot}")


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
        _wait_until(api, workflow_id, lambda s: any(d["status"] == "extracting" for d in s["documents"]))
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
        before = _wait_until(api, workflow_id, lambda s: s["progress"]["phase"] == "embedding"
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


def test_stopping_mid_run_is_prompt_and_the_run_finishes_after_the_restart(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """SIGTERM (or Ctrl-C) while a run waits for its documents being read: the process ends within seconds,
    by itself. It used to hang at exit on DBOS's executor threads (the run's wait on its documents'
    workflows) until it was killed, 20 s later here."""
    server = server_factory()
    expected = _expected_blocks(MARKDOWN, tmp_path)
    with server.client() as api:
        workflow_id = upload(api, MARKDOWN).json()["workflow_id"]
        _wait_until(api, workflow_id, lambda s: any(d["status"] == "extracting" for d in s["documents"]))
    started = time.monotonic()
    server.stop()
    stopped_in = time.monotonic() - started
    assert server.process is not None
    assert server.process.returncode == 128 + 15, server.process.returncode  # its own exit, not a kill
    assert stopped_in < 10, f"stopping took {stopped_in:.1f} s"
    server.start()
    with server.client() as api:
        _assert_complete(server, wait_for_run(api, workflow_id, timeout_s=120), expected)
