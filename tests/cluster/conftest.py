"""Several real Quire processes on one fresh database: the `cluster` fixture and what its tests read."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload
from tests.support.worker import QuireWorker

FAST = {"QUIRE_TAKEOVER_AFTER_S": "3"}  # a heartbeat every 0.25 s

Launch = Callable[..., QuireServer]
Cluster = tuple[str, Launch, Callable[..., QuireWorker]]


@pytest.fixture
def cluster(postgres: ThrowawayPostgres, fake_ollama: FakeOllama, tmp_path: Path) -> Iterator[Cluster]:
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


def health(server: QuireServer) -> dict[str, Any]:
    return httpx.get(f"{server.url}/api/health", timeout=10).json()


def pdf(tmp_path: Path, name: str, pages: int) -> bytes:
    texts = [f"{name} page {n}. " + "Entropy measures the dispersal of energy in a system. " * 12
             for n in range(1, pages + 1)]
    return make_pdf(tmp_path / f"{name}.pdf", texts).read_bytes()


def block_counts(url: str) -> dict[str, tuple[int, int]]:
    """filename -> (live blocks, distinct ordinals among them): equal when no block is duplicated."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT d.filename, count(b.id), count(DISTINCT b.ordinal) FROM documents d"
                            " JOIN blocks b ON b.document_id = d.id AND b.is_live GROUP BY d.filename").fetchall()
    return {name: (blocks, ordinals) for name, blocks, ordinals in rows}


def missing_embeddings(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM blocks WHERE is_live AND embedding IS NULL").fetchone()
    return int(row[0]) if row else -1


def assert_each_step_once(snapshot: dict[str, Any]) -> None:
    """A run taken over from a process that died or hung: every step started once, except at most the one
    embedding batch in flight when it stopped (begun there, never committed, run again by the taker)."""
    runs = snapshot["executions"]
    assert runs["scan"] == 1
    assert runs["finish"] == 1
    assert all(n == 1 for key, n in runs.items() if key.startswith(("extract:", "store:"))), runs
    assert sum(1 for n in runs.values() if n > 1) <= 1, runs


def start_embedding_held(server: QuireServer, files: dict[str, bytes], fake_ollama: FakeOllama) -> str:
    """Upload to `server` (the only process yet) and return once its run waits for the model server on its
    first embedding batch, held there by the fake; the run is then wholly this server's."""
    fake_ollama.hold_embeddings()
    with server.client() as api:
        workflow_id = upload(api, files).json()["workflow_id"]
        deadline = time.monotonic() + 300
        while not fake_ollama.embed_requests:
            assert time.monotonic() < deadline, "the run did not start embedding"
            time.sleep(0.05)
        assert api.get(f"/api/ingest/{workflow_id}").json()["status"] == "PENDING"
    return workflow_id
