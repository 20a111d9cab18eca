"""Hostile files through the upload API of a real server: each fails cleanly with "too large or complex to
read safely" (or is read within the limits) while the server and its children stay under RSS_BOUND, the
server's own memory stays flat afterwards, and cancelling a run stops its CPU use within two seconds.
The files are generated here (tests/support/hostile.py); see backend/ingest/sandbox.py for the limits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from backend.ingest.extract.common import TOO_LARGE
from backend.ingest.reconcile import CANCELLED_MESSAGE
from tests.support.fake_ollama import FakeOllama
from tests.support.hostile import (
    PeakMeter,
    cpu_between,
    giant_page_pdf,
    huge_xml_docx,
    nested_list_markdown,
    one_line_text,
    tree_cpu_seconds,
)
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer, serve
from tests.support.vault import upload, wait_for_run

pytestmark = pytest.mark.slow

RSS_BOUND = 1536 * 1024 * 1024  # the server and all its children, summed (issue #15's target)
SERVER_GROWTH_BOUND = 200 * 1024 * 1024  # what the server itself may keep after all the hostile files
RUN_TIMEOUT_S = 300.0


@pytest.fixture(scope="module")
def hostile_server(postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[QuireServer]:
    yield from serve(postgres, fake_ollama_server, tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def huge_docx(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return huge_xml_docx(tmp_path_factory.mktemp("docx") / "huge.docx").read_bytes()


@pytest.fixture(scope="module")
def slow_docx(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """60 MB of XML: within the memory cap, python-docx works on it for most of a minute (the 250 MB one
    now fails at the memory cap within seconds, too soon for a cancel to matter)."""
    return huge_xml_docx(tmp_path_factory.mktemp("docx") / "slow.docx", xml_megabytes=60).read_bytes()


def _document(api: httpx.Client, name: str) -> dict:
    return next(doc for doc in api.get("/api/documents").json() if doc["filename"] == name)


def _ingest(api: httpx.Client, name: str, data: bytes) -> dict:
    response = upload(api, {name: data})
    assert response.status_code == 202, response.text
    snapshot = wait_for_run(api, response.json()["workflow_id"], RUN_TIMEOUT_S)
    assert snapshot["status"] == "SUCCESS", snapshot
    return _document(api, name)


def _busy_worker(server_pid: int, timeout_s: float = 30.0) -> tuple[int, float]:
    """The extraction worker doing the reading and the CPU seconds it used in one second. Workers are the
    server's grandchildren (server → forkserver → worker); the forkserver's own start-up work is not it."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        start = tree_cpu_seconds(server_pid)
        time.sleep(1.0)
        sample = tree_cpu_seconds(server_pid)
        workers = [p for p in sample if p != server_pid and _parent(p) not in (server_pid, None)]
        if workers:
            reader = max(workers, key=lambda p: sample[p] - start.get(p, 0.0))
            busy = sample[reader] - start.get(reader, 0.0)
            if busy > 0.05:
                return reader, busy
    raise AssertionError("no extraction worker was seen reading the file")


def _parent(pid: int) -> int | None:
    try:
        return psutil.Process(pid).ppid()
    except psutil.NoSuchProcess:
        return None


def _status(pid: int) -> str:
    try:
        return psutil.Process(pid).status()
    except psutil.NoSuchProcess:
        return "gone"


def _server_rss(server: QuireServer) -> int:
    assert server.process is not None
    return psutil.Process(server.process.pid).memory_info().rss


def test_hostile_files_fail_cleanly_with_bounded_memory(hostile_server: QuireServer, huge_docx: bytes,
                                                        tmp_path: Path) -> None:
    cases: list[tuple[str, Callable[[], bytes], str]] = [
        ("giant-page.pdf", lambda: giant_page_pdf(tmp_path / "giant.pdf").read_bytes(), "failed"),
        ("nested-list.md", nested_list_markdown, "ready"),
        ("one-line.txt", one_line_text, "failed"),
        ("huge-xml.docx", lambda: huge_docx, "failed"),
    ]
    assert hostile_server.process is not None
    problems = []
    with hostile_server.client(timeout=120.0) as api:
        before = _server_rss(hostile_server)
        for name, make, expected in cases:
            data = make()
            with PeakMeter(hostile_server.process.pid) as meter:
                document = _ingest(api, name, data)
            print(f"{name}: {document['status']}, peak RSS with children {meter.peak / 2**20:.0f} MiB")
            if meter.peak >= RSS_BOUND:
                problems.append(f"{name}: peak RSS {meter.peak / 2**20:.0f} MiB")
            if document["status"] != expected:
                problems.append(f"{name}: {document['status']} ({document['error']}), expected {expected}")
            elif expected == "failed" and not (document["error"] or "").startswith(TOO_LARGE):
                problems.append(f"{name}: unclear reason {document['error']!r}")
            assert api.get("/api/health").status_code == 200
        grown = _server_rss(hostile_server) - before
        print(f"server RSS grew by {grown / 2**20:.0f} MiB")
        assert not problems, "\n".join(problems)
        assert grown < SERVER_GROWTH_BOUND, f"the server kept {grown / 2**20:.0f} MiB"
        # Read within the limits: the deepest item of the nested list is searchable.
        hits = api.get("/api/search", params={"q": "nested item 4999", "mode": "sparse"}).json()["hits"]
        assert any("nested item 4999" in hit["text"] for hit in hits)


def test_cancel_stops_cpu_use_within_two_seconds(hostile_server: QuireServer, slow_docx: bytes) -> None:
    assert hostile_server.process is not None
    pid = hostile_server.process.pid
    with hostile_server.client(timeout=120.0) as api:
        response = upload(api, {"cancelled-huge-xml.docx": slow_docx})
        assert response.status_code == 202, response.text
        workflow_id = response.json()["workflow_id"]
        deadline = time.monotonic() + 60
        while api.get(f"/api/ingest/{workflow_id}").json()["documents"][0]["status"] != "extracting":
            assert time.monotonic() < deadline, "extraction never started"
            time.sleep(0.05)
        reader, busy = _busy_worker(pid)

        assert api.post(f"/api/ingest/{workflow_id}/cancel").status_code == 200
        cancelled_at = time.monotonic()
        time.sleep(max(0.0, cancelled_at + 2.0 - time.monotonic()))
        after = tree_cpu_seconds(pid)
        time.sleep(1.0)
        later = tree_cpu_seconds(pid)
        idle = cpu_between(after, later)
        # Killed: gone, or a zombie its parent (the forkserver) has not reaped yet, which burns nothing.
        assert later.get(reader, 0.0) == after.get(reader, 0.0), "the reading process still works after the cancel"
        assert reader not in later or _status(reader) == psutil.STATUS_ZOMBIE, f"reader is {_status(reader)}"
        print(f"reader used {busy:.2f} CPU-s/s before the cancel; the tree {idle:.2f} CPU-s/s from 2 s after it")
        assert idle < 0.25, f"{idle:.2f} CPU-s used in the second after cancel + 2 s"
        document = _document(api, "cancelled-huge-xml.docx")
        assert (document["status"], document["error"]) == ("failed", CANCELLED_MESSAGE)
        assert api.get("/api/health").status_code == 200
