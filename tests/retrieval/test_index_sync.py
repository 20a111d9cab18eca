"""The index kept current across processes and across an embedding-model change, over real servers:
two app processes sharing one Postgres see each other's uploads, deletes and recategorisations; and
switching QUIRE_EMBED_MODEL re-embeds durably while searches go on using the old model's vectors, which the
new model's replace in one transaction once they cover every passage."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import httpx
import psycopg
import pytest

from backend.retrieval.tokenizer import Analyzer
from tests.support.fake_ollama import FakeOllama
from tests.support.polling import eventually
from tests.support.server import QuireServer
from tests.support.vault import ingest

pytestmark = pytest.mark.slow


def _sparse_ids(api: httpx.Client, query: str, **params: str) -> list[str]:
    hits = api.get("/api/search", params={"q": query, "mode": "sparse", **params}).json()["hits"]
    return [hit["document_id"] for hit in hits]


@pytest.fixture
def two_processes(server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> Iterator[tuple]:
    first = server_factory(QUIRE_EXECUTOR_ID="proc-a")
    second = QuireServer(first.database_url, first.data_dir, fake_ollama.url, QUIRE_EXECUTOR_ID="proc-b",
                         QUIRE_INDEX_POLL_S="0.2").start()
    try:
        yield first, second
    finally:
        second.stop()


def test_two_processes_sharing_one_database_stay_current(two_processes: tuple) -> None:
    first, second = two_processes
    with first.client() as a, second.client() as b:
        doc_id = ingest(a, {"volcano.md": b"# Volcanoes\n\nStratovolcanoes erupt viscous andesitic magma."})[
            "volcano.md"]["id"]
        eventually(lambda: _sparse_ids(b, "andesitic") == [doc_id])
        assert b.patch(f"/api/documents/{doc_id}", json={"category": "Geo"}).status_code == 200
        eventually(lambda: _sparse_ids(a, "andesitic", categories="Geo") == [doc_id])
        assert b.delete(f"/api/documents/{doc_id}").status_code == 200  # to the trash
        assert _sparse_ids(b, "andesitic") == []  # the deleting process: at once
        eventually(lambda: _sparse_ids(a, "andesitic") == [])
        assert b.post(f"/api/documents/{doc_id}/restore").status_code == 200
        assert _sparse_ids(b, "andesitic") == [doc_id]
        eventually(lambda: _sparse_ids(a, "andesitic") == [doc_id])


def _models_by_block(server: QuireServer) -> dict[str, str | None]:
    with psycopg.connect(server.database_url) as conn:
        rows = conn.execute("SELECT id::text, embed_model FROM blocks WHERE is_live").fetchall()
    return dict(rows)


def test_changing_the_embedding_model_reembeds_without_mixing_spaces(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    server = server_factory(QUIRE_EMBED_BATCH_SIZE="2")
    notes = {f"note-{i}.md": f"# Note {i}\n\nTopic {i}: glaciers carve fjords; moraine number {i}.".encode()
             for i in range(8)}
    with server.client() as api:
        ingest(api, notes)
    assert set(_models_by_block(server).values()) == {"ollama:embeddinggemma"}

    fake_ollama.models.append("other-embed:latest")
    fake_ollama.embed_delay_s = 0.3
    server.env["QUIRE_EMBED_MODEL"] = "other-embed"
    server.restart()
    with server.client() as api:
        checked_while_running = 0
        while True:
            hits = api.get("/api/search", params={"q": "glaciers fjords moraine", "mode": "dense", "k": 20}).json()
            models = _models_by_block(server)
            assert len(set(models.values())) == 1, models  # the stored vectors are one model's, never a mix
            if set(models.values()) == {"ollama:other-embed"}:
                break
            # No gap: until the new model's vectors cover every passage (then they replace the old ones in one
            # transaction), searches use the old model's, and every note is still found by meaning.
            assert len(hits["hits"]) == 8, hits
            checked_while_running += 1
            time.sleep(0.1)
        assert checked_while_running > 0  # the check really ran while the re-embed was under way
        fake_ollama.embed_delay_s = 0.0
        eventually(lambda: all(d["embedded_fraction"] == 1.0 for d in api.get("/api/documents").json()))
        hits = api.get("/api/search", params={"q": "glaciers fjords moraine 5", "mode": "dense"}).json()["hits"]
        assert len(hits) == 8


def test_ingestion_caches_terms_and_a_stale_cache_is_not_trusted(server_factory: Callable[..., QuireServer]) -> None:
    """The store step caches each block's BM25 terms under the analyser's fingerprint; after a restart the
    index is built from them (a stale fingerprint is re-analysed and rewritten, never trusted)."""
    server = server_factory()
    text = "# Norm\n\nDie Prüfungsordnung regelt in § 3 Absatz 2 den Fehler 404B und nicht mehr."
    with server.client() as api:
        doc_id = ingest(api, {"norm.md": text.encode()})["norm.md"]["id"]
    with psycopg.connect(server.database_url) as conn:
        rows = conn.execute("SELECT terms, terms_analyzer FROM blocks WHERE is_live").fetchall()
        assert rows
        assert all(terms and analyzer == Analyzer().fingerprint for terms, analyzer in rows)
        conn.execute("UPDATE blocks SET terms = 'unrelated', terms_analyzer = 'an older analyser'")
    server.restart()
    with server.client() as api:
        assert _sparse_ids(api, "§3 404B") == [doc_id]
        assert _sparse_ids(api, "Prüfung") == [doc_id]
        assert _sparse_ids(api, "unrelated") == []
    with psycopg.connect(server.database_url) as conn:
        analyzers = {row[0] for row in conn.execute("SELECT terms_analyzer FROM blocks WHERE is_live")}
    assert analyzers == {Analyzer().fingerprint}  # rewritten by the build
