"""Originals live in Postgres, content-addressed: any Quire process on the database serves (and ingests)
any original through its own cache; identical uploads racing each other attach to one run and leave no
staged file; the trash's age limit removes documents and their originals for good."""

from __future__ import annotations

import hashlib
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import ingest, upload, wait_for_run

pytestmark = pytest.mark.slow


@pytest.fixture
def second_process(tmp_path: Path, fake_ollama: FakeOllama) -> Iterator[Callable[..., QuireServer]]:
    """Start another Quire process on the same database as a given one, with its own data folder."""
    started: list[QuireServer] = []

    def make(first: QuireServer, **env: str) -> QuireServer:
        server = QuireServer(first.database_url, tmp_path / f"process-{len(started) + 2}", fake_ollama.url,
                             QUIRE_EXECUTOR_ID=f"process-{len(started) + 2}", **env)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


def _cached(server: QuireServer) -> set[str]:
    return {path.name for path in (server.data_dir / "docs" / "objects").glob("??/*")}


def test_any_process_serves_and_searches_any_original(
    server_factory: Callable[..., QuireServer], second_process: Callable[..., QuireServer],
    fake_ollama: FakeOllama, tmp_path: Path,
) -> None:
    first = server_factory(QUIRE_EXECUTOR_ID="process-1")
    second = second_process(first)
    pdf = make_pdf(tmp_path / "a.pdf", ["Tidal locking keeps one face of the Moon towards Earth."]).read_bytes()
    notes = b"# Notes\n\nAurora borealis appears when solar wind excites oxygen atoms."
    with first.client() as api_1, second.client() as api_2:
        from_first = ingest(api_1, {"moon.pdf": pdf})["moon.pdf"]
        from_second = ingest(api_2, {"aurora.md": notes})["aurora.md"]
        for api in (api_1, api_2):
            assert api.get(f"/api/documents/{from_first['id']}/file").content == pdf
            assert api.get(f"/api/documents/{from_second['id']}/file").content == notes
        # each process has its own read-through cache, filled from Postgres on demand
        digests = {hashlib.sha256(pdf).hexdigest(), hashlib.sha256(notes).hexdigest()}
        assert digests <= _cached(first)
        assert digests <= _cached(second)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the other process's index follows the change feed
            hits = api_2.get("/api/search", params={"q": "tidal locking", "mode": "sparse"}).json()["hits"]
            if hits:
                break
            time.sleep(0.2)
        assert [hit["document_id"] for hit in hits][:1] == [from_first["id"]]

    # Losing the first machine's disk loses nothing: the second serves everything from Postgres.
    first.stop()
    shutil.rmtree(first.data_dir / "docs")
    shutil.rmtree(second.data_dir / "docs" / "objects")
    with second.client() as api_2:
        assert api_2.get(f"/api/documents/{from_first['id']}/file").content == pdf
        with psycopg.connect(second.database_url) as conn:
            stored = conn.execute("SELECT count(*) FROM original_chunks WHERE sha256 = %s",
                                  (hashlib.sha256(pdf).hexdigest(),)).fetchone()
        assert stored == (1,)  # one 1 MiB chunk for a small file


def test_an_original_deleted_for_good_leaves_every_process_cache(
    server_factory: Callable[..., QuireServer], second_process: Callable[..., QuireServer]
) -> None:
    first = server_factory(QUIRE_EXECUTOR_ID="process-1", QUIRE_CACHE_SWEEP_S="0.5")
    second = second_process(first, QUIRE_CACHE_SWEEP_S="0.5")
    secret = b"# Private\n\nThe appeal letter names the student and the grade dispute in full."
    kept = b"# Kept\n\nLecture notes on the Krebs cycle."
    gone_sha, kept_sha = hashlib.sha256(secret).hexdigest(), hashlib.sha256(kept).hexdigest()
    with first.client() as api_1, second.client() as api_2:
        docs = ingest(api_1, {"appeal.md": secret, "notes.md": kept})
        for doc in docs.values():  # the second process reads both: now it caches both
            assert api_2.get(f"/api/documents/{doc['id']}/file").status_code == 200
        assert {gone_sha, kept_sha} <= _cached(second)
        doc_id = docs["appeal.md"]["id"]
        assert api_1.delete(f"/api/documents/{doc_id}").status_code == 200
        time.sleep(1.5)
        assert gone_sha in _cached(second)  # in the trash the original is still needed (restorable)
        assert api_1.delete(f"/api/documents/{doc_id}", params={"permanent": "true"}).status_code == 204
        assert gone_sha not in _cached(first)  # the deleting process drops its copy at once
        deadline = time.monotonic() + 10
        while gone_sha in _cached(second):  # ...and the other one at its next sweep, while it runs
            assert time.monotonic() < deadline, "the second process kept a deleted original in its cache"
            time.sleep(0.2)
        assert kept_sha in _cached(second)
        assert api_2.get(f"/api/documents/{docs['notes.md']['id']}/file").content == kept
        assert api_2.get(f"/api/documents/{doc_id}/file").status_code == 404


def test_parallel_identical_uploads_attach_to_one_run(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    server = server_factory()
    fake_ollama.embed_delay_s = 1.0  # the run stays in flight while every request arrives
    files = {"same.md": b"# Same\n\nTwenty students drop the same syllabus at the same moment."}
    start = threading.Barrier(20)

    def send(_: int) -> httpx.Response:
        with server.client() as api:
            start.wait()
            return upload(api, files)

    with ThreadPoolExecutor(20) as pool:
        responses = list(pool.map(send, range(20)))
    assert [r.status_code for r in responses] == [202] * 20, [r.text for r in responses if r.status_code != 202]
    assert len({r.json()["workflow_id"] for r in responses}) == 1
    assert len({r.json()["documents"][0]["id"] for r in responses}) == 1
    with server.client() as api:
        assert wait_for_run(api, responses[0].json()["workflow_id"])["status"] == "SUCCESS"
        assert [d["filename"] for d in api.get("/api/documents").json()] == ["same.md"]
    pending = server.data_dir / "docs" / ".pending"
    assert list(pending.iterdir()) == []  # nothing staged is left behind
    assert _cached(server) == {hashlib.sha256(files["same.md"]).hexdigest()}


def test_trash_age_limit_deletes_for_good(server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> None:
    server = server_factory(QUIRE_TRASH_RETENTION_DAYS="0", QUIRE_TRASH_SWEEP_CRON="*/2 * * * * *")
    data = b"# Old\n\nNotes about the Carboniferous period and its coal swamps."
    sha = hashlib.sha256(data).hexdigest()
    with server.client() as api:
        doc = ingest(api, {"old.md": data})["old.md"]
        kept = ingest(api, {"kept.md": b"# Kept\n\nNotes about the Permian extinction."})["kept.md"]
        assert sha in _cached(server)
        api.delete(f"/api/documents/{doc['id']}")
        deadline = time.monotonic() + 30
        while api.get(f"/api/documents/{doc['id']}").status_code != 404:
            assert time.monotonic() < deadline, "the trash's age limit was not applied"
            time.sleep(0.5)
        assert api.get(f"/api/documents/{kept['id']}").json()["status"] == "ready"
    with psycopg.connect(server.database_url) as conn:
        assert conn.execute("SELECT count(*) FROM originals WHERE sha256 = %s", (sha,)).fetchone() == (0,)
    assert sha not in _cached(server)
