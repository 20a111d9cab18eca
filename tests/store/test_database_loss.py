"""Losing the database: the embedded postmaster is SIGKILLed in the middle of an ingestion. Requests must
keep answering (a 503 within a second, `/api/health` within two), Quire must start Postgres again by
itself, and the upload must then finish with every block exactly once — without restarting Quire.
With DATABASE_URL, Quire leaves the server alone, answers the same way meanwhile and reconnects when it
is back."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import httpx
import psycopg
import pytest
from pgserver.utils import PostmasterInfo

from backend.ingest.chunk import chunk_units
from backend.ingest.extract import extract_document
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

pytestmark = pytest.mark.slow

NOTES = {f"lecture-{i}.md": (f"# Lecture {i}\n\n" + f"Entropy and the second law, part {i}. " * 150).encode()
         for i in range(3)}


@dataclass
class HealthLog:
    """Every /api/health answer while the database is killed and restarted: (latency, postgres ok)."""

    answers: list[tuple[float, bool]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def poll(self, url: str) -> None:
        with httpx.Client(base_url=url, timeout=10.0) as client:
            while not self.stop.is_set():
                began = time.monotonic()
                try:
                    response = client.get("/api/health")
                    self.answers.append((time.monotonic() - began, response.json()["postgres"]["ok"]))
                except (httpx.HTTPError, ValueError, KeyError) as exc:
                    self.failures.append(repr(exc))
                time.sleep(0.05)


def _postmaster(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


def _block_counts(pgdata: Path) -> dict[str, tuple[int, int, int]]:
    info = PostmasterInfo.read_from_pgdata(pgdata)
    assert info is not None
    with psycopg.connect(info.get_uri(database="quire")) as conn:
        rows = conn.execute(
            "SELECT d.filename, count(b.id), count(DISTINCT b.ordinal), count(b.embedding)"
            " FROM documents d JOIN blocks b ON b.document_id = d.id AND b.is_live GROUP BY d.filename"
        ).fetchall()
    return {name: (blocks, ordinals, embedded) for name, blocks, ordinals, embedded in rows}


def _expected_blocks(tmp_path: Path) -> dict[str, int]:
    expected = {}
    for name, data in NOTES.items():
        path = tmp_path / name
        path.write_bytes(data)
        expected[name] = len(chunk_units(extract_document(path, "md").units, 1000, 100))
    return expected


def _wait(condition: str, check: Callable[[], object], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(condition)
        time.sleep(0.05)


@pytest.fixture
def vault() -> Iterator[Path]:
    """A data folder outside pytest's temp root: run as root, pgserver starts Postgres as its own user,
    which needs the folders above the data folder opened, and pytest resets its temp root to 0700 whenever
    another session starts."""
    folder = Path(tempfile.mkdtemp(prefix="qvault", dir="/tmp"))
    yield folder / "vault"
    shutil.rmtree(folder, ignore_errors=True)


def test_killing_the_embedded_postmaster_mid_ingestion_recovers_without_a_restart(
        vault: Path, tmp_path: Path, fake_ollama: FakeOllama) -> None:
    pgdata = vault / "postgres"
    server = QuireServer("", vault, fake_ollama.url, DATABASE_URL="")
    server.start(timeout_s=120)
    health = HealthLog()
    poller = threading.Thread(target=health.poll, args=(server.url,), daemon=True)
    try:
        with server.client(timeout=10.0) as api:
            fake_ollama.hold_embeddings()
            accepted = upload(api, NOTES)
            assert accepted.status_code == 202, accepted.text
            workflow_id = accepted.json()["workflow_id"]
            # This run's own state: the fake model server is shared by every server of the session.
            _wait("the run is embedding (held)", lambda: all(
                doc["status"] == "embedding" for doc in api.get(f"/api/ingest/{workflow_id}").json()["documents"]), 60)

            poller.start()
            old_postmaster = _postmaster(pgdata)
            os.kill(old_postmaster, signal.SIGKILL)
            killed_at = time.monotonic()

            # While it is down, an ordinary request is refused quickly and in the one error shape.
            _wait("health reports the database down",
                  lambda: any(not ok for _, ok in health.answers), 10)
            began = time.monotonic()
            refused = api.get("/api/documents")
            refused_in = time.monotonic() - began
            if refused.status_code == 503:  # unless Postgres was already back: the restart is quick
                assert refused.json()["error"]["code"] == "database_unavailable"
                assert refused_in < 1.0, refused_in

            _wait("Postgres is started again", lambda: pgdata.joinpath("postmaster.pid").exists()
                  and _postmaster(pgdata) != old_postmaster, 60)
            _wait("health reports the database up again",
                  lambda: health.answers and health.answers[-1][1], 60)
            recovered_in = time.monotonic() - killed_at
            assert api.get("/api/documents").status_code == 200

            fake_ollama.release_embeddings()
            try:
                # Generous: a workflow blocked in DBOS's own reconnecting (1 s doubling up to 60 s, with 50 %
                # jitter) may notice the database is back up to 90 s after it is. Loaded runs timed out here
                # with the run waiting for a document whose workflow had ended its thread unrecorded, its
                # last write refused by the restarting server (store/system_db.py), or with a document never
                # marked ready, its "stored" lost with the server (store/ingest.py, _PROGRESS_FIELDS).
                snapshot = wait_for_run(api, workflow_id, timeout_s=300)
            except TimeoutError as exc:  # what the server said is what tells why
                raise AssertionError(f"{exc}\n--- server log ---\n{server.log_tail(120)}") from exc
        health.stop.set()
        poller.join(timeout=15)

        assert snapshot["status"] == "SUCCESS", snapshot
        assert all(doc["status"] == "ready" for doc in snapshot["documents"]), snapshot
        counts, expected = _block_counts(pgdata), _expected_blocks(tmp_path)
        for name in NOTES:  # every block once (distinct ordinals), none missing, all embedded
            assert counts[name] == (expected[name],) * 3, (name, counts[name], expected[name])
        assert server.process is not None
        assert server.process.poll() is None  # the same Quire process, never restarted
        assert server.starts == 1
        assert not health.failures, health.failures
        assert any(not ok for _, ok in health.answers)
        worst = max(latency for latency, _ in health.answers)
        assert worst < 2.0, worst
        print(f"health answers: {len(health.answers)}, worst {worst * 1000:.0f} ms; "
              f"database back after {recovered_in:.1f} s; refused request in {refused_in * 1000:.0f} ms")
    finally:
        fake_ollama.release_embeddings()
        health.stop.set()
        server.stop()


def _last_seen(api: httpx.Client) -> datetime:
    """This process's last heartbeat, as /api/health lists it."""
    processes = api.get("/api/health").json()["processes"]
    return datetime.fromisoformat(next(p["last_seen"] for p in processes if p["this_process"]))


@pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")), reason="kills a Postgres of its own (embedded)")
def test_with_database_url_quire_answers_while_the_server_is_gone_and_reconnects(
        tmp_path: Path, fake_ollama: FakeOllama) -> None:
    own = ThrowawayPostgres()  # a server of this test's own: the suite's shared one must stay up
    server = QuireServer(own.fresh_database(), tmp_path / "vault", fake_ollama.url,
                         QUIRE_TAKEOVER_AFTER_S="6")  # a heartbeat every 0.5 s
    try:
        server.start()
        with server.client(timeout=10.0) as api:
            own.kill_postmaster()
            _wait("health reports the database down",
                  lambda: not api.get("/api/health", timeout=2.0).json()["postgres"]["ok"], 10)
            time.sleep(3)  # Quire does not start someone else's server: still down, still answering
            began = time.monotonic()
            health = api.get("/api/health")
            assert time.monotonic() - began < 2.0
            assert health.json()["status"] == "degraded"
            assert any("DATABASE_URL" in hint for hint in health.json()["hints"])
            began = time.monotonic()
            refused = api.get("/api/chat/sessions")
            assert time.monotonic() - began < 1.0
            assert refused.status_code == 503
            assert refused.json()["error"]["code"] == "database_unavailable"

            own.start_again()
            _wait("health reports the database up", lambda: api.get("/api/health").json()["postgres"]["ok"], 30)
            # The heartbeat outlived the outage (several of its beats failed meanwhile): a process that
            # stopped beating would look silent to the others and be taken over while alive.
            seen = _last_seen(api)
            _wait("this process beats again", lambda: _last_seen(api) > seen, 10)
            accepted = upload(api, {"after.md": NOTES["lecture-0.md"]})
            assert accepted.status_code == 202, accepted.text
            assert wait_for_run(api, accepted.json()["workflow_id"], timeout_s=120)["status"] == "SUCCESS"
        assert server.process is not None
        assert server.process.poll() is None
    finally:
        server.stop()
        own.close()


def test_killing_the_embedded_postmaster_during_extraction_costs_nothing(
        vault: Path, tmp_path: Path, fake_ollama: FakeOllama) -> None:
    """Extraction writes its progress to the database every quarter second: the write that meets the dead
    server fails the step, which runs again once the server is back — the file is not marked failed."""
    pgdata = vault / "postgres"
    texts = [f"Page {n}. " + "Thermodynamics relates heat, work and energy in closed systems. " * 12
             for n in range(1, 401)]
    pdf = make_pdf(tmp_path / "thermo.pdf", texts)
    expected = len(chunk_units(extract_document(pdf, "pdf").units, 1000, 100))
    server = QuireServer("", vault, fake_ollama.url, DATABASE_URL="")
    server.start(timeout_s=120)
    try:
        with server.client(timeout=10.0) as api:
            workflow_id = upload(api, {"thermo.pdf": pdf.read_bytes()}).json()["workflow_id"]

            def extracting() -> bool:
                snapshot = api.get(f"/api/ingest/{workflow_id}").json()
                return any(doc["status"] == "extracting" and doc["progress"]["done"] for doc in snapshot["documents"])

            _wait("extraction is under way", extracting, 60)
            os.kill(_postmaster(pgdata), signal.SIGKILL)
            _wait("the database is back", lambda: api.get("/api/health").json()["postgres"]["ok"]
                  and api.get("/api/documents").status_code == 200, 90)
            snapshot = wait_for_run(api, workflow_id, timeout_s=180)
        assert snapshot["status"] == "SUCCESS", snapshot
        assert [doc["status"] for doc in snapshot["documents"]] == ["ready"], snapshot
        assert _block_counts(pgdata)["thermo.pdf"] == (expected, expected, expected)
        assert "Ingestion stopped" not in server.log_tail(400)
    finally:
        server.stop()
