"""A scanned page read while Quire's whole process tree gets a few per cent of one CPU: a real server in a
cpu cgroup (v1) with a small `cfs_quota_us`, ingesting a real corpus scan through the upload API. Every
page and probe must come out as on an idle machine: how busy the machine is never decides what a
document contains (the sandbox's limits are CPU time and memory, backend/sandbox.py).

Why this can fail: the page's OCR costs a few CPU seconds, so at this quota reading it takes minutes of
wall time (asserted below: longer than the sandbox's no-CPU window, and than any per-page wall-clock
limit shorter than that). A wall-clock limit on tesseract or the worker would cut the page off, and the
document would end failed or with a page warning instead of its text.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from backend.sandbox import STUCK_S
from tests.support.corpus import CORPUS, contains, manifest
from tests.support.documents import tesseract_available
from tests.support.hostile import tree
from tests.support.server import QuireServer
from tests.support.vault import TERMINAL, upload

CPU_CGROUPS = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000
QUOTA_US = 6_000  # 6 % of one CPU for the server, its workers and tesseract together
SCAN = "linn-brochure-skewed-scan.pdf"

pytestmark = [
    pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed"),
    pytest.mark.skipif(not (CPU_CGROUPS / "cgroup.procs").exists() or not os.access(CPU_CGROUPS, os.W_OK),
                       reason="no writable cgroup v1 cpu controller at /sys/fs/cgroup/cpu (needs root)"),
]


@pytest.fixture
def starved() -> Iterator[Callable[[QuireServer], None]]:
    """Put a server's process tree into a fresh cpu cgroup with a small quota (processes it starts later,
    workers and tesseract, are forked inside it); afterwards the processes go back and the cgroup is removed."""
    group = CPU_CGROUPS / f"quire-starved-{uuid.uuid4().hex[:8]}"
    group.mkdir()

    def starve(server: QuireServer) -> None:
        assert server.process is not None
        (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(QUOTA_US))
        for process in tree(server.process.pid):  # the forkserver may already run: move it too
            try:
                (group / "cgroup.procs").write_text(str(process.pid))
            except (ProcessLookupError, psutil.Error):
                continue

    try:
        yield starve
    finally:
        for pid in (group / "cgroup.procs").read_text().split():
            try:
                (CPU_CGROUPS / "cgroup.procs").write_text(pid)
            except ProcessLookupError:
                continue
        group.rmdir()


def _probes(name: str) -> list[dict]:
    return next(entry for entry in manifest() if entry["file"] == name)["probes"]


def test_a_scan_read_on_a_starved_cpu_loses_no_page(server_factory: Callable[..., QuireServer],
                                                    starved: Callable[[QuireServer], None]) -> None:
    server = server_factory()
    starved(server)
    with server.client(timeout=120.0) as api:
        response = upload(api, {SCAN: (CORPUS / SCAN).read_bytes()})
        assert response.status_code == 202, response.text
        run = _finished(api, response.json()["workflow_id"])
        assert run["status"] == "SUCCESS", run
        (document,) = response.json()["documents"]
        stored = next(doc for doc in api.get("/api/documents").json() if doc["id"] == document["id"])
        assert (stored["status"], stored["pages"]) == ("ready", 1), stored
        assert (stored["page_warnings"], stored["warnings"]) == ([], []), stored
        for probe in _probes(SCAN):
            hits = api.get("/api/search", params={"q": probe["text"], "k": 5, "mode": "sparse",
                                                  "documents": document["id"]}).json()["hits"]
            assert any(contains(hit["text"], probe["text"], ocr=True) and hit["page"] == probe["where"]["page"]
                       for hit in hits), (probe, hits)
    (read,) = [step for doc in run["documents"] for step in doc["steps"] if step["name"] == "read"]
    # The starvation was real: reading the page took longer than the sandbox's no-CPU window, so a
    # wall-clock limit of that size (or any shorter one) would have decided this page.
    assert (read["seconds"] or 0.0) > STUCK_S, read
    assert read["executions"] == 1, "the page was read once, not cut off and retried"



def _finished(api: httpx.Client, workflow_id: str) -> dict[str, Any]:
    """The run once it ended, asked every few seconds: polling faster would spend the server's small
    quota on answering and slow the reading it waits for."""
    deadline = time.monotonic() + 600
    while (run := api.get(f"/api/ingest/{workflow_id}").json())["status"] not in TERMINAL:
        assert time.monotonic() < deadline, run
        time.sleep(3)
    return run
