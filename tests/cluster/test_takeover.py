"""A hung process cannot hold work: real servers on one database, one of them stopped with SIGSTOP while it
embeds (its database sessions stay open, as with a frozen VM). A live process fences it once it has been
silent for twice the takeover time, takes its work over exactly once, and the hung process, continued
with SIGCONT, writes nothing more and exits with one line. A process that is merely slow (stopped and
continued in quick turns, so its heartbeat still gets through) is never fenced."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import psycopg
import pytest

from tests.cluster.conftest import (
    Cluster,
    assert_each_step_once,
    block_counts,
    health,
    missing_embeddings,
    pdf,
    start_embedding_held,
)
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import wait_for_run

pytestmark = pytest.mark.slow

# Taken over after 4 s of silence, fenced after 8 s if its session is still open.
TIMING = {"QUIRE_TAKEOVER_AFTER_S": "4"}  # a heartbeat every 0.33 s
FENCED_EXIT_CODE = 75


def _record(server: QuireServer, executor_id: str) -> dict:
    return next(p for p in health(server)["processes"] if p["executor_id"] == executor_id)


def _database_now(url: str) -> object:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT now()").fetchone()
    assert row is not None
    return row[0]


def _written_since(url: str, since: object, origin: str) -> tuple[int, int]:
    """(index changes made by `origin`, step starts by anyone) after `since`, database time."""
    with psycopg.connect(url) as conn:
        changes = conn.execute("SELECT count(*) FROM index_changes WHERE origin = %s AND created_at > %s",
                               (origin, since)).fetchone()
        steps = conn.execute("SELECT count(*) FROM ingest_step_runs WHERE started_at > %s", (since,)).fetchone()
    assert changes is not None
    assert steps is not None
    return int(changes[0]), int(steps[0])


def test_a_hung_process_is_fenced_and_its_work_taken_over_once(cluster: Cluster, fake_ollama: FakeOllama,
                                                               tmp_path: Path) -> None:
    url, server, _ = cluster
    hung = server("a", QUIRE_EMBED_BATCH_SIZE="4", **TIMING)
    hung_id = health(hung)["dbos"]["executor_id"]
    files = {"thermo.pdf": pdf(tmp_path, "thermo", 300), "notes.md": b"# Notes\n\nBrief remarks on heat."}
    workflow_id = start_embedding_held(hung, files, fake_ollama)
    survivor, other = server("b", **TIMING), server("c", **TIMING)
    assert not any(hung_id in hint for hint in health(survivor)["hints"])
    assert hung.process is not None
    pid = hung.process.pid
    os.kill(pid, signal.SIGSTOP)
    fake_ollama.release_embeddings()  # the batch in flight is answered while its process is stopped
    try:
        # While it is silent and not yet fenced, health is degraded and names it.
        deadline = time.monotonic() + 60
        while _record(survivor, hung_id)["state"] != "silent":
            assert time.monotonic() < deadline, _record(survivor, hung_id)
            time.sleep(0.2)
        report = health(survivor)
        assert report["status"] == "degraded"
        assert any(hung_id in hint and "silent" in hint for hint in report["hints"]), report["hints"]
        with survivor.client() as api:
            snapshot = wait_for_run(api, workflow_id, timeout_s=240)
        assert snapshot["status"] == "SUCCESS", snapshot
        record = _record(other, hung_id)
        takers = {health(survivor)["dbos"]["executor_id"], health(other)["dbos"]["executor_id"]}
        assert record["state"] == "fenced", record
        assert record["sessions_ended"] >= 1
        assert record["taken_over_by"] in takers
        assert record["recovered_workflows"] >= 1
        takeovers = [t for t in health(other)["takeovers"] if t["executor_id"] == hung_id]
        assert len(takeovers) == 1, takeovers  # taken over exactly once
        assert not any(hung_id in hint for hint in health(other)["hints"])
        continued_at = _database_now(url)
    finally:
        os.kill(pid, signal.SIGCONT)
    # Woken, it learns it was fenced, writes nothing and exits with one line.
    assert hung.process.wait(timeout=120) == FENCED_EXIT_CODE
    assert "was fenced by" in hung.log_tail(20)
    assert "Traceback" not in hung.log_tail(200)
    assert _written_since(url, continued_at, hung_id) == (0, 0)
    assert_each_step_once(snapshot)
    counts = block_counts(url)
    assert all(counts[name][0] == counts[name][1] > 0 for name in files), counts  # every block once
    assert missing_embeddings(url) == 0
    # Started again, it rejoins under its id.
    hung.start()
    assert health(hung)["dbos"]["executor_id"] == hung_id
    assert _record(survivor, hung_id)["state"] == "alive"


def test_a_slow_process_whose_heartbeat_gets_through_is_not_fenced(cluster: Cluster, fake_ollama: FakeOllama,
                                                                   tmp_path: Path) -> None:
    url, server, _ = cluster
    slow = server("a", QUIRE_EMBED_BATCH_SIZE="4", **TIMING)
    slow_id = health(slow)["dbos"]["executor_id"]
    files = {"optics.pdf": pdf(tmp_path, "optics", 120)}
    workflow_id = start_embedding_held(slow, files, fake_ollama)
    watcher = server("b", **TIMING)
    fake_ollama.embed_delay_s = 0.1
    fake_ollama.release_embeddings()
    assert slow.process is not None
    pid = slow.process.pid
    # A starved process: running 0.2 s of every 0.5 s for three fence bounds (24 s).
    deadline = time.monotonic() + 24
    try:
        while time.monotonic() < deadline:
            os.kill(pid, signal.SIGSTOP)
            time.sleep(0.3)
            os.kill(pid, signal.SIGCONT)
            time.sleep(0.2)
    finally:
        os.kill(pid, signal.SIGCONT)
    record = _record(watcher, slow_id)
    assert record["state"] == "alive", record
    assert record["sessions_ended"] == 0
    assert not [t for t in health(watcher)["takeovers"] if t["executor_id"] == slow_id]
    with slow.client() as api:
        snapshot = wait_for_run(api, workflow_id, timeout_s=240)
    assert snapshot["status"] == "SUCCESS", snapshot
    assert all(n == 1 for n in snapshot["executions"].values()), snapshot["executions"]
    counts = block_counts(url)
    assert counts["optics.pdf"][0] == counts["optics.pdf"][1] > 0
