"""Several Quire processes on one database, as real processes: unique identities, a duplicate id refused,
a batch shared by two servers and a worker, and a dead process's work taken over exactly once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from backend.store.db import sibling_database_url
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run
from tests.support.worker import QuireWorker

pytestmark = pytest.mark.slow

FAST = {"QUIRE_TAKEOVER_AFTER_S": "3"}  # a heartbeat every 0.25 s

Launch = Callable[..., QuireServer]


@pytest.fixture
def cluster(postgres: ThrowawayPostgres, fake_ollama: FakeOllama,
            tmp_path: Path) -> Iterator[tuple[str, Launch, Callable[..., QuireWorker]]]:
    """A fresh database and factories for servers and workers on it (each with its own data folder)."""
    url = postgres.fresh_database()
    started: list[QuireServer | QuireWorker] = []

    def server(name: str, **env: str) -> QuireServer:
        process = QuireServer(url, tmp_path / name, fake_ollama.url, **{**FAST, **env})
        started.append(process)
        return process.start()

    def worker(name: str, **env: str) -> QuireWorker:
        process = QuireWorker(url, tmp_path / name, fake_ollama.url, **{**FAST, **env})
        started.append(process)
        return process.start()

    yield url, server, worker
    for process in started:
        process.stop()


def _health(server: QuireServer) -> dict:
    return httpx.get(f"{server.url}/api/health", timeout=10).json()


def _pdf(tmp_path: Path, name: str, pages: int) -> bytes:
    texts = [f"{name} page {n}. " + "Entropy measures the dispersal of energy in a system. " * 12
             for n in range(1, pages + 1)]
    return make_pdf(tmp_path / f"{name}.pdf", texts).read_bytes()


def _child_executors(url: str, workflow_id: str) -> dict[str, str]:
    """document child workflow id -> the executor that ran it, from DBOS's own records."""
    with psycopg.connect(sibling_database_url(url, "_dbos")) as conn:
        rows = conn.execute("SELECT workflow_uuid, executor_id FROM dbos.workflow_status WHERE workflow_uuid LIKE %s",
                            (f"{workflow_id}-doc-%",)).fetchall()
    return dict(rows)


def _backfill_runs(url: str) -> int:
    """How many embedding backfill workflows any process has started, from DBOS's own records."""
    with psycopg.connect(sibling_database_url(url, "_dbos")) as conn:
        row = conn.execute("SELECT count(*) FROM dbos.workflow_status WHERE name LIKE %s",
                           ("%embed_backfill_workflow",)).fetchone()
    return int(row[0]) if row else 0


def _block_counts(url: str) -> dict[str, tuple[int, int]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT d.filename, count(b.id), count(DISTINCT b.ordinal) FROM documents d"
                            " JOIN blocks b ON b.document_id = d.id AND b.is_live GROUP BY d.filename").fetchall()
    return {name: (blocks, ordinals) for name, blocks, ordinals in rows}


def test_each_process_gets_its_own_id_and_sees_the_others(cluster: tuple[str, Launch, Callable[..., QuireWorker]],
                                                           fake_ollama: FakeOllama) -> None:
    _url, server, worker = cluster
    first, second = server("a"), server("b")
    worker("w")
    ids = {_health(first)["dbos"]["executor_id"], _health(second)["dbos"]["executor_id"]}
    assert len(ids) == 2
    assert "local" not in ids
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        listed = _health(second)["processes"]
        if len([p for p in listed if p["alive"]]) == 3:
            break
        time.sleep(0.2)
    assert sorted(p["mode"] for p in listed if p["alive"]) == ["server", "server", "worker"]
    assert [p["this_process"] for p in listed].count(True) == 1
    # The id is kept in the data folder: a restart comes back as the same process.
    before = _health(first)["dbos"]["executor_id"]
    first.restart()
    assert _health(first)["dbos"]["executor_id"] == before
    # Index changes made by one process reach the other (the change feed's origin is the executor id).
    with first.client() as api:
        wait_for_run(api, upload(api, {"feed.md": b"# Feed\n\nPolarimetry of quasars at dawn."}).json()["workflow_id"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        hits = httpx.get(f"{second.url}/api/search", params={"q": "polarimetry quasars", "mode": "sparse"}).json()
        if hits["hits"]:
            break
        time.sleep(0.2)
    assert hits["hits"]
    assert hits["hits"][0]["filename"] == "feed.md"


def test_a_second_live_process_with_the_same_id_refuses_to_start(
        cluster: tuple[str, Launch, Callable[..., QuireWorker]]) -> None:
    _, server, _ = cluster
    first = server("a", QUIRE_EXECUTOR_ID="desk-1")
    with pytest.raises(RuntimeError, match="already uses executor id 'desk-1'"):
        server("b", QUIRE_EXECUTOR_ID="desk-1")
    assert _health(first)["dbos"]["executor_id"] == "desk-1"
    assert [p["executor_id"] for p in _health(first)["processes"] if p["alive"]] == ["desk-1"]


def test_two_servers_and_a_worker_share_one_upload(cluster: tuple[str, Launch, Callable[..., QuireWorker]],
                                                   tmp_path: Path) -> None:
    url, server, worker = cluster
    one = {"QUIRE_INGEST_CONCURRENCY": "1"}
    first, second = server("a", **one), server("b", **one)
    worker("w", **one)
    files = {f"chapter-{n}.pdf": _pdf(tmp_path, f"chapter-{n}", 120) for n in range(9)}
    with first.client(timeout=60) as api:
        snapshot = wait_for_run(api, upload(api, files).json()["workflow_id"], timeout_s=240)
    assert snapshot["status"] == "SUCCESS", snapshot
    ran_by = _child_executors(url, snapshot["workflow_id"])
    assert len(ran_by) == 9
    executors = {p["executor_id"]: p["mode"] for p in _health(second)["processes"]}
    assert {executors[e] for e in ran_by.values()} == {"server", "worker"}
    assert len(set(ran_by.values())) == 3, ran_by  # each of the three processes read some documents
    counts = _block_counts(url)
    assert all(counts[name][0] == counts[name][1] > 0 for name in files), counts  # no duplicate, none missing


def test_a_dead_process_is_taken_over_once(cluster: tuple[str, Launch, Callable[..., QuireWorker]],
                                           fake_ollama: FakeOllama, tmp_path: Path) -> None:
    url, server, _ = cluster
    doomed = server("a", QUIRE_EMBED_BATCH_SIZE="4")
    dead_id = _health(doomed)["dbos"]["executor_id"]
    files = {"thermo.pdf": _pdf(tmp_path, "thermo", 300), "notes.md": b"# Notes\n\nBrief remarks on heat."}
    fake_ollama.embed_delay_s = 0.4  # the run is still embedding, on the doomed process, when it dies
    with doomed.client() as api:
        workflow_id = upload(api, files).json()["workflow_id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            progress = api.get(f"/api/ingest/{workflow_id}").json()["progress"]
            if progress["phase"] == "embedding" and progress["done"] >= 1:
                break
            time.sleep(0.02)
    # The others start only now, so the run is wholly the doomed process's own.
    survivor, other = server("b"), server("c")
    with doomed.client() as api:
        assert api.get(f"/api/ingest/{workflow_id}").json()["status"] == "PENDING"
    doomed.kill()
    fake_ollama.embed_delay_s = 0.0
    with survivor.client() as api:
        snapshot = wait_for_run(api, workflow_id, timeout_s=180)
    assert snapshot["status"] == "SUCCESS", snapshot
    assert all(d["status"] == "ready" for d in snapshot["documents"])
    record = next(p for p in _health(other)["processes"] if p["executor_id"] == dead_id)
    takers = {_health(survivor)["dbos"]["executor_id"], _health(other)["dbos"]["executor_id"]}
    assert record["taken_over_by"] in takers
    assert not record["alive"]
    assert record["recovered_workflows"] >= 1
    runs = snapshot["executions"]
    assert runs["scan"] == 1
    assert runs["finish"] == 1
    assert all(n == 1 for key, n in runs.items() if key.startswith(("extract:", "store:"))), runs
    assert sum(1 for n in runs.values() if n > 1) <= 1, runs  # at most the batch in flight at the kill
    counts = _block_counts(url)
    for name in files:
        assert counts[name][0] == counts[name][1] > 0, counts
    # The resumed run embeds every block itself, cutting its batches as the dead process began them (it
    # once used the survivor's own batch size, 32 here, and skipped the blocks between), and the
    # survivors' startup backfill leaves the blocks of a document in flight to its run.
    with psycopg.connect(url) as conn:
        missing = conn.execute("SELECT count(*) FROM blocks WHERE is_live AND embedding IS NULL").fetchone()[0]
    assert missing == 0
    assert _backfill_runs(url) == 0


def test_a_database_outage_longer_than_the_takeover_window_takes_no_living_process_over(
        fake_ollama: FakeOllama, tmp_path: Path) -> None:
    """Both processes miss their beats and lose their locks while the database is away; once it is back,
    neither may judge the other dead (it would resume workflows the other is still running)."""
    own = ThrowawayPostgres()  # a server of this test's own: the suite's shared one must stay up
    url = own.fresh_database()
    first = QuireServer(url, tmp_path / "a", fake_ollama.url, **FAST).start()
    second = QuireServer(url, tmp_path / "b", fake_ollama.url, **FAST).start()
    try:
        ids = {_health(first)["dbos"]["executor_id"], _health(second)["dbos"]["executor_id"]}
        own.kill_postmaster()
        time.sleep(float(FAST["QUIRE_TAKEOVER_AFTER_S"]) + 3)  # silent longer than the takeover window
        own.start_again()
        deadline = time.monotonic() + 60
        while not all(_health(s)["postgres"]["ok"] for s in (first, second)):
            assert time.monotonic() < deadline, "the database did not come back for both"
            time.sleep(0.5)
        time.sleep(float(FAST["QUIRE_TAKEOVER_AFTER_S"]) * 2)  # time to (wrongly) take over, and to beat again
        for server in (first, second):
            listed = {p["executor_id"]: p for p in _health(server)["processes"] if p["executor_id"] in ids}
            assert len(listed) == 2, listed
            for process in listed.values():
                assert process["alive"], process
                assert process["taken_over_by"] is None, process
            # A takeover's record is wiped when its victim registers again; the taker's log keeps it.
            assert "took over" not in server.log_tail(2000), server.log_tail(2000)
    finally:
        first.stop()
        second.stop()
        own.close()
