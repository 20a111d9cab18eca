"""Switching the vault's embedding model through the API, on real server processes sharing one Postgres.

The fake Ollama serves two embedding models whose vectors differ in size (64 and 48 dimensions) and space,
so which model embedded a query, and which vectors a search used, can be told apart. While a switch runs,
searches by meaning keep working on the old model's vectors (the query embedded with the old model);
once it completes every process uses the new model, in either search mode (in-memory FAISS, pgvector);
a kill mid-switch resumes it; cancelling keeps the old model; a model one cannot switch to gets a 422."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from backend.store.db import sibling_database_url
from backend.store.search_sql import hnsw_index_name
from tests.support.fake_ollama import FakeOllama
from tests.support.polling import eventually
from tests.support.server import QuireServer
from tests.support.vault import ingest

pytestmark = pytest.mark.slow

OLD, NEW, OTHER = "ollama:embeddinggemma", "ollama:nomic-embed-text", "ollama:other-embed"
DOCS = {
    "garage.md": b"# Garage\n\nThe automobile needs new tyres and an oil change before winter.",
    "baking.md": b"# Baking\n\nKnead the dough, let it rise for an hour, then bake the loaf.",
    "garden.md": b"# Garden\n\nWater the tomatoes daily and prune the roses in spring.",
}


def _models(fake: FakeOllama) -> None:
    fake.synonyms = {"car": "automobile"}  # "car" finds the garage by meaning only: the word is not there
    fake.add_embedding_model("nomic-embed-text:latest", 48)
    fake.add_embedding_model("other-embed:latest", 32)


def _state(api: httpx.Client) -> dict[str, Any]:
    response = api.get("/api/vault/embedding")
    assert response.status_code == 200, response.text
    return response.json()


def _wait_active(api: httpx.Client, model: str, timeout_s: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        state = _state(api)
        if state["active"]["model"] == model and state["switch"] is None:
            return state
        if time.monotonic() > deadline:
            raise TimeoutError(f"still not on {model}: {state}")
        time.sleep(0.2)


def _search_by_meaning(api: httpx.Client, fake: FakeOllama) -> tuple[str, str]:
    """(the top hit's file, the model that embedded the query) of a dense search for "car"."""
    before = len(fake.embed_requests)
    response = api.get("/api/search", params={"q": "car", "mode": "dense", "k": 3})
    assert response.status_code == 200, response.text
    hits = response.json()["hits"]
    assert hits, response.json()
    query_models = {r["model"] for r in fake.embed_requests[before:] if r.get("input") in (["car"], "car")}
    assert len(query_models) == 1, fake.embed_requests[before:]
    return hits[0]["filename"], query_models.pop().split(":")[0]


def _vectors(database_url: str) -> tuple[set[tuple[str, int]], int]:
    """({(model, dimension)} of the live blocks' vectors, staged vectors left)."""
    with psycopg.connect(database_url) as conn:
        kinds = conn.execute("SELECT DISTINCT embed_model, vector_dims(embedding) FROM blocks WHERE is_live").fetchall()
        staged = conn.execute("SELECT count(*) FROM switch_vectors").fetchone()
    return {(m, d) for m, d in kinds}, staged[0] if staged else 0


def _hnsw_indexes(database_url: str) -> set[str]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'blocks'"
                            " AND indexname LIKE 'blocks\\_hnsw\\_%'").fetchall()
    return {name for (name,) in rows}


@pytest.mark.parametrize("backend", ["memory", "postgres"])
def test_switch_serves_old_vectors_until_done_then_every_process_uses_the_new(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path, backend: str
) -> None:
    _models(fake_ollama)
    first = server_factory(QUIRE_SEARCH_BACKEND=backend)
    second = QuireServer(first.database_url, tmp_path / "second", fake_ollama.url,
                         QUIRE_SEARCH_BACKEND=backend).start()
    try:
        with first.client() as api, second.client() as other:
            ingest(api, DOCS)
            state = _state(api)
            assert state["active"] == {"model": OLD, "name": "embeddinggemma", "kind": "ollama",
                                       "passages_per_s": state["active"]["passages_per_s"]}
            offered = {c["model"] for c in state["choices"]}
            assert {OLD, NEW, OTHER} <= offered
            assert "ollama:gemma4:e4b" not in offered

            for bad in ("bogus", "ollama:no-such-embed", "ollama:gemma4:e4b", "local:nothing-int8"):
                refused = api.put("/api/vault/embedding", json={"model": bad})
                assert refused.status_code == 422, (bad, refused.text)
                assert refused.json()["error"]["code"] == "unknown_embedding_model"
            assert api.put("/api/vault/embedding", json={}).json()["error"]["code"] == "invalid_request"

            # A switch cancelled, and one ended by choosing the active model again: nothing changes.
            fake_ollama.hold_model("other-embed")
            for end in (lambda: api.delete("/api/vault/embedding/switch"),
                        lambda: api.put("/api/vault/embedding", json={"model": OLD})):
                started = api.put("/api/vault/embedding", json={"model": OTHER}).json()
                assert started["switch"]["target"] == OTHER
                assert started["active"]["model"] == OLD
                ended = end()
                assert ended.status_code == 200, ended.text
                assert ended.json()["switch"] is None
                assert ended.json()["active"]["model"] == OLD
            fake_ollama.release_model("other-embed")
            assert _vectors(first.database_url) == ({(OLD, 64)}, 0)

            if backend == "postgres":  # the active model's HNSW index, built as its first vectors landed
                eventually(lambda: _hnsw_indexes(first.database_url) == {hnsw_index_name(OLD, 64)}, timeout_s=60)

            fake_ollama.hold_model("nomic-embed-text")
            switching = api.put("/api/vault/embedding", json={"model": NEW}).json()
            assert switching["switch"]["target"] == NEW
            assert switching["switch"]["total"] == 3
            assert api.put("/api/vault/embedding", json={"model": NEW}).json()["switch"] == switching["switch"]
            assert _state(other)["switch"]["target"] == NEW  # the other process reads the same state
            # During the switch: found by meaning, with the old model's query, on either process.
            assert _search_by_meaning(api, fake_ollama) == ("garage.md", "embeddinggemma")
            assert _search_by_meaning(other, fake_ollama) == ("garage.md", "embeddinggemma")
            ingest(api, {"workshop.md": b"# Workshop\n\nThe automobile lift is serviced every March."})
            assert _state(api)["switch"]["total"] == 4

            fake_ollama.release_model("nomic-embed-text")
            done = _wait_active(api, NEW)
            assert done["active"]["name"] == "nomic-embed-text"
            assert _vectors(first.database_url) == ({(NEW, 48)}, 0)  # every live passage, the new one too
            assert _search_by_meaning(api, fake_ollama)[1] == "nomic-embed-text"
            _wait_active(other, NEW)  # reported once that process serves the new model's vectors
            assert _search_by_meaning(other, fake_ollama)[1] == "nomic-embed-text"
            assert _search_by_meaning(other, fake_ollama)[0] in ("garage.md", "workshop.md")
            health = other.get("/api/health").json()
            assert health["embedder"]["model"] == NEW
            assert health["ollama"]["embed_model"]["name"] == "nomic-embed-text"
            panel = other.get("/api/vault/stats").json()
            assert panel["models"]["embedding"]["name"] == "nomic-embed-text"
            assert panel["blocks"]["embedded"] == panel["blocks"]["total"] == 4
            if backend == "postgres":  # the new model's index replaces the old one's, which covers nothing now
                eventually(lambda: _hnsw_indexes(first.database_url) == {hnsw_index_name(NEW, 48)}, timeout_s=60)
    finally:
        second.stop()


def test_kill_mid_switch_resumes_without_redoing_batches(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    _models(fake_ollama)
    server = server_factory(QUIRE_EMBED_BATCH_SIZE="2")
    files = {f"note-{i}.md": f"# Note {i}\n\nTopic number {i} concerns item {i * 7}.".encode() for i in range(10)}
    with server.client() as api:
        ingest(api, files)
        fake_ollama.embed_delay_s = 0.4
        api.put("/api/vault/embedding", json={"model": NEW}).raise_for_status()
        deadline = time.monotonic() + 120
        while (switch := _state(api)["switch"]) is not None and switch["done"] < 4:
            assert time.monotonic() < deadline, switch
            time.sleep(0.05)
        assert switch is not None, "the switch ended before the kill"
        assert switch["done"] < 10
        server.kill()
    done_before = switch["done"]
    sent_before = len(fake_ollama.embed_requests)
    server.start()
    with server.client() as api:
        _wait_active(api, NEW)
    redone = sum(len(r["input"]) for r in fake_ollama.embed_requests[sent_before:] if r["model"].startswith("nomic"))
    # What was staged before the kill is not embedded again; the batch in flight at most is.
    assert redone <= 10 - done_before + 2, (redone, done_before)
    assert _vectors(server.database_url) == ({(NEW, 48)}, 0)
    with psycopg.connect(sibling_database_url(server.database_url, "_dbos")) as conn:
        runs = conn.execute("SELECT workflow_uuid, status FROM dbos.workflow_status"
                            " WHERE name = 'embedding_switch_workflow'").fetchall()
    assert runs == [("embedding-switch-1", "SUCCESS")]  # the same workflow, resumed


def test_a_process_that_has_not_polled_since_the_flip_searches_the_new_vectors_at_once(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """Postgres mode: the flip overwrites the old model's vectors in place, so a process still on the old
    model would find none by meaning until its next poll. Its first search after the flip follows instead."""
    _models(fake_ollama)
    first = server_factory(QUIRE_SEARCH_BACKEND="postgres")
    # This process never polls the vault's model while the test runs: only its searches can move it.
    second = QuireServer(first.database_url, tmp_path / "second", fake_ollama.url,
                         QUIRE_SEARCH_BACKEND="postgres", QUIRE_INDEX_POLL_S="3600").start()
    try:
        with first.client() as api, second.client() as other:
            ingest(api, DOCS)
            assert _search_by_meaning(other, fake_ollama) == ("garage.md", "embeddinggemma")
            api.put("/api/vault/embedding", json={"model": NEW}).raise_for_status()
            _wait_active(api, NEW)
            assert _vectors(first.database_url) == ({(NEW, 48)}, 0)
            assert _state(other)["active"]["model"] == OLD  # not followed yet

            hybrid = other.get("/api/search", params={"q": "car", "k": 3})
            assert hybrid.status_code == 200, hybrid.text
            assert hybrid.json()["hits"][0]["filename"] == "garage.md"  # by meaning: no passage says "car"
            assert "Keyword search only" not in (hybrid.json().get("notice") or "")
            assert _search_by_meaning(other, fake_ollama) == ("garage.md", "nomic-embed-text")
            assert _state(other)["active"]["model"] == NEW
    finally:
        second.stop()
