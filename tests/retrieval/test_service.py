"""SearchService with the in-memory backend over a real Postgres: the startup build reads cached terms and
binary vectors, re-analyses (and re-caches) stale terms, and a delete through the store is gone from the
next search."""

from __future__ import annotations

import asyncio
import os
import struct
import subprocess
import sys
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from backend.llm.errors import ModelUnavailable
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.memory import MemoryBackend
from backend.retrieval.service import SearchService
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import IndexedBlock, SearchMode
from backend.store import blocks as store
from backend.store.db import Database
from backend.store.documents import trash_document
from tests.support.postgres import ThrowawayPostgres

MODEL = "test:4d"
REPO_ROOT = Path(__file__).resolve().parents[2]


class NoEmbedder:
    model = MODEL

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise AssertionError("these tests pass query vectors")


@pytest.fixture
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database("quire_search", min_size=1, max_size=4) as database:
        yield database


def _add(db: Database, text: str, vector: list[float] | None, terms: tuple[str, bytes] | None,
         analyzer: str | None) -> str:
    doc, block = uuid.uuid4(), uuid.uuid4()
    with db.transaction() as conn:
        conn.execute("INSERT INTO documents (id, filename, status) VALUES (%s, %s, 'ready')", (doc, f"{doc}.md"))
        conn.execute(
            "INSERT INTO blocks (id, document_id, doc_sha256, ordinal, text, kind, embedding, embed_model, is_live,"
            " terms, term_counts, terms_analyzer) VALUES (%s, %s, 'sha', 0, %s, 'text', %s, %s, true, %s, %s, %s)",
            (block, doc, text, None if vector is None else str(vector), None if vector is None else MODEL,
             *(terms or (None, None)), analyzer),
        )
    return str(doc)


def test_build_reads_cached_terms_and_vectors_and_recaches_stale_terms(db: Database) -> None:
    analyzer = Analyzer()
    text = "Die Prüfungsordnung regelt § 3 Absatz 2 und nicht mehr."
    cached = _add(db, text, [1, 0, 0, 0], analyzer.term_counts(text), analyzer.fingerprint)
    stale = _add(db, "error 404B in the upload module", [0, 1, 0, 0], ("unrelated", struct.pack("<I", 1)),
                 "an older analyser")
    no_vector = _add(db, "boundary-layer transition on a flat plate", None, None, None)
    backend = MemoryBackend(db, MODEL, poll_s=3600)
    service = SearchService(backend, NoEmbedder())
    service.build()

    def ids(query: str, mode: SearchMode = "sparse", vector: list[float] | None = None) -> list[str]:
        q = None if vector is None else np.array(vector, dtype=np.float32)
        return [h.document_id for h in service.search(query, 5, mode=mode, query_vector=q).hits]

    assert ids("§3 Prüfung") == [cached]
    assert ids("404B") == [stale]
    assert ids("unrelated") == []  # a cache from another analyser is never trusted
    assert ids("boundary layer") == [no_vector]
    assert ids("anything", "dense", [0.1, 2, 0, 0])[:1] == [stale]
    assert service.stats()["embedded_blocks"] == 2
    with db.connection() as conn:
        rows = conn.execute("SELECT terms_analyzer FROM blocks").fetchall()
    assert {row["terms_analyzer"] for row in rows} == {analyzer.fingerprint}  # re-cached by the build


def test_a_deleted_document_is_gone_from_the_next_search(db: Database) -> None:
    keep = _add(db, "turbine blade stress", [1, 0, 0, 0], None, None)
    gone = _add(db, "turbine blade fatigue", [0.9, 0.1, 0, 0], None, None)
    backend = MemoryBackend(db, MODEL, poll_s=3600)
    service = SearchService(backend, NoEmbedder())
    service.build()
    vector = np.array([1, 0.05, 0, 0], dtype=np.float32)
    assert {h.document_id for h in service.search("turbine blade", 5, query_vector=vector).hits} == {keep, gone}
    trash_document(db, uuid.UUID(gone))
    service.notify([gone])
    assert [h.document_id for h in service.search("turbine blade", 5, query_vector=vector).hits] == [keep]


def test_hits_show_the_details_postgres_holds_ranked_as_an_index_holding_them_ranks(db: Database) -> None:
    """The service keeps no texts: each hit's text, filename and place are read from Postgres for the k
    hits. Ranks, scores, snippets and details must equal those of an index that holds every block itself."""
    texts = [
        ("turbine blade stress under cyclic load", [1, 0, 0, 0]),
        ("turbine housing paint and corrosion", [0, 0, 1, 0]),
        ("blade fatigue cracks grow from the root", [0.8, 0.2, 0, 0]),
        ("Die Prüfungsordnung regelt die Wiederholung der Prüfung", [0, 1, 0, 0]),
        ("stress concentration at a notch in a plate", [0.5, 0, 0.5, 0]),
    ]
    docs = [_add(db, text, vector, None, None) for text, vector in texts]
    backend = MemoryBackend(db, MODEL, poll_s=3600)
    service = SearchService(backend, NoEmbedder())
    service.build()
    holding = HybridIndex(analyzer=service.analyzer)
    for rows in store.iter_live_blocks(db, MODEL):
        holding.replace_documents({row["document_id"]: [IndexedBlock(
            row["id"], row["document_id"], row["filename"], row["category"], row["ordinal"], row["page"],
            row["section"], row["kind"], row["text"], store.decode_vectors([row["vector"]])[0],
            page_label=row["page_label"], document_kind=row["document_kind"])] for row in rows})
    vector = np.array([1, 0.1, 0.2, 0], dtype=np.float32)
    for query in ("turbine blade stress", "Prüfung", "plate notch", "corrosion"):
        for mode in ("hybrid", "sparse", "dense"):
            got = service.search(query, 4, mode=mode, query_vector=vector).hits
            assert got == holding.search(query, 4, mode=mode, query_vector=vector)
            assert got  # every query finds something in every mode
            for hit in got:
                assert hit.text == texts[docs.index(hit.document_id)][0]
                assert hit.filename == f"{hit.document_id}.md"


def test_a_document_deleted_or_replaced_elsewhere_is_never_shown(db: Database) -> None:
    """Another process trashed one document and re-ingested another; this index has not applied either
    change yet (its poller has not run), but no hit shows a block that is no longer live."""
    keep = _add(db, "turbine blade stress", [1, 0, 0, 0], None, None)
    trashed = _add(db, "turbine blade fatigue", [0.9, 0.1, 0, 0], None, None)
    replaced = _add(db, "turbine blade erosion, first version", [0.9, 0, 0.1, 0], None, None)
    backend = MemoryBackend(db, MODEL, poll_s=3600)
    service = SearchService(backend, NoEmbedder())
    service.build()
    vector = np.array([1, 0.05, 0, 0], dtype=np.float32)

    def hits() -> dict[str, str]:
        return {h.document_id: h.text for h in service.search("turbine blade", 5, query_vector=vector).hits}

    assert hits().keys() == {keep, trashed, replaced}
    with db.transaction() as conn:  # what the other process committed, its changes in the feed
        conn.execute("UPDATE documents SET status = 'trashed' WHERE id = %s", (trashed,))
        conn.execute("UPDATE blocks SET is_live = false WHERE document_id = ANY(%s::uuid[])", ([trashed, replaced],))
        conn.execute(
            "INSERT INTO blocks (id, document_id, doc_sha256, ordinal, text, kind, is_live)"
            " VALUES (%s, %s, 'sha2', 0, 'turbine blade erosion, second version', 'text', true)",
            (uuid.uuid4(), replaced),
        )
        conn.execute("INSERT INTO index_changes (document_id, reason, origin) VALUES (%s, 'deleted', 'other'),"
                     " (%s, 'replaced', 'other')", (trashed, replaced))
    assert len(backend.index) == 3  # the index still holds the old blocks
    assert hits() == {keep: "turbine blade stress"}
    backend.poll_once()  # the change feed applied: the new version is found
    assert hits() == {keep: "turbine blade stress", replaced: "turbine blade erosion, second version"}


class QueryEmbedder:
    """A blocking embedder (like the in-process model): the async search must run it in a worker thread."""

    model = MODEL

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([[1, 0.05, 0, 0]] * len(texts), dtype=np.float32)


class UnreachableEmbedder:
    """An embedder whose model server is down: its async path raises like the Ollama one."""

    model = MODEL

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise ModelUnavailable("Ollama is not reachable.", "Start it.")

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        raise ModelUnavailable("Ollama is not reachable.", "Start it.")


def test_the_async_search_finds_what_the_sync_one_finds(db: Database) -> None:
    near = _add(db, "turbine blade stress", [1, 0, 0, 0], None, None)
    _add(db, "turbine housing paint", [0, 0, 1, 0], None, None)
    service = SearchService(MemoryBackend(db, MODEL, poll_s=3600), QueryEmbedder())
    service.build()
    found = asyncio.run(service.asearch("turbine", 2))
    assert [h.document_id for h in found.hits] == [h.document_id for h in service.search("turbine", 2).hits]
    assert {h.document_id: h.dense_rank for h in found.hits}[near] == 1  # the query vector was used
    assert found.notice is None

    service.embedder = UnreachableEmbedder()
    degraded = asyncio.run(service.asearch("turbine", 2))
    assert (degraded.notice or "").startswith("Keyword search only")
    assert {h.document_id for h in degraded.hits} == {h.document_id for h in found.hits}
    assert all(h.dense_rank is None for h in degraded.hits)


_LARGE_BLOCKS_FREED = """
import contextlib, ctypes, psutil, sys
from backend.retrieval.memory import large_blocks_mapped
rss = lambda: psutil.Process().memory_info().rss
blocks = [ctypes.create_string_buffer(4 << 20) for _ in range(2)]
del blocks  # glibc has now seen a 4 MiB block freed
with large_blocks_mapped() if sys.argv[1] == "build" else contextlib.nullcontext():
    before = rss()
    blocks = [ctypes.create_string_buffer(4 << 20) for _ in range(24)]  # zero-filled: resident
    kept = ctypes.create_string_buffer(4 << 20)  # allocated last, it keeps the heap's top from being trimmed
    del blocks
    print((rss() - before) >> 20)
"""


def test_a_build_returns_the_large_blocks_it_frees_to_the_system() -> None:
    """By default glibc serves 4 MiB blocks from its heap once it has seen one freed, and ~96 MiB freed stay
    resident; during a build each has its own mapping, unmapped when freed."""
    def resident_mib(mode: str) -> int:
        env = {k: v for k, v in os.environ.items() if k not in ("MALLOC_MMAP_THRESHOLD_", "GLIBC_TUNABLES")}
        out = subprocess.run([sys.executable, "-c", _LARGE_BLOCKS_FREED, mode], cwd=REPO_ROOT, env=env,
                             capture_output=True, text=True, check=True, timeout=120)
        return int(out.stdout)

    assert resident_mib("default") >= 64  # what the setting exists for: glibc keeps them
    assert resident_mib("build") <= 16
