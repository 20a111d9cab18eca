"""The Postgres search backend (QUIRE_SEARCH_BACKEND=postgres): `PostgresIndex` (backend/retrieval/postgres.py)
searched in place, and its preparation in the background — the terms of blocks analysed by another
analyser version, the vocabulary's trigram lookup (migration 0023), the keyword impact lists (migration
0018) and the model's HNSW index (and, once the vault has switched models, dropping the old model's).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from backend.retrieval.postgres import KEYWORD_CANDIDATES, PostgresIndex
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Hit, IndexState, Scope, SearchMode
from backend.store import blocks as blocks_store
from backend.store import keyword_impacts as impact_lists
from backend.store import search_sql as store
from backend.store.db import Database

log = logging.getLogger(__name__)

# maintenance_work_mem for the HNSW build: pgvector builds much faster when the graph fits in it
# (100,000 768-d vectors: ~400 MB).
HNSW_BUILD_MEMORY_MB = 1024
# How often a process checks whether the keyword impact lists need a rebuild (seconds).
IMPACT_CHECK_S = 600.0


class PostgresBackend:
    """A `SearchBackend` (backend/retrieval/service.py) with the database as its index: no build, no
    poller, no per-process state to keep in step (the change notifications ingestion sends are no-ops)."""

    def __init__(self, db: Database, embed_model: str, keyword_candidates: int | None = KEYWORD_CANDIDATES
                 ) -> None:
        self.db = db
        self.embed_model = embed_model
        self.pg = PostgresIndex(db, embed_model, candidate_cap=keyword_candidates)
        self.state: IndexState = "empty"
        self.built_in_s: float | None = None
        self._hnsw_dimension: int | None = None
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None

    @property
    def analyzer(self) -> Analyzer:
        return self.pg.analyzer

    def build(self) -> None:
        """Startup: one row read (the stored vectors' dimension), whatever the vault's size."""
        started = time.perf_counter()
        self._hnsw_dimension = store.stored_dimension(self.db, self.embed_model)
        self.state = "ready"
        self.built_in_s = round(time.perf_counter() - started, 3)

    def start(self) -> None:
        """Prepare in the background: terms, impact lists and the HNSW index; then check the lists now and then."""
        self._stop.clear()
        self._worker = threading.Thread(target=self._work, name="search-prepare", daemon=True)
        self._worker.start()

    def stop(self) -> None:
        self._stop.set()
        if self._worker is not None:
            self._worker.join(timeout=5)

    def _work(self) -> None:
        self._prepare()
        while not self._stop.wait(IMPACT_CHECK_S):
            try:
                self.prepare_impact_lists()
            except Exception:
                log.exception("rebuilding the keyword impact lists failed; keyword search still works")

    def _prepare(self) -> None:
        """Cache terms missing for the running analyser, read the vocabulary for typo-tolerant search,
        (re)build the keyword impact lists if stale, and create the model's HNSW index if missing."""
        try:
            fingerprint = self.analyzer.fingerprint
            for rows in store.iter_stale_terms(self.db, fingerprint):
                if self._stop.is_set():
                    return
                blocks_store.save_terms(self.db, fingerprint,
                                        [(r["id"], *self.analyzer.term_counts(r["text"])) for r in rows])
            self.pg.refresh_vocabulary()
            self.prepare_impact_lists()
            if self._hnsw_dimension is not None:
                self._ensure_index(self._hnsw_dimension)
        except Exception:
            log.exception("preparing the Postgres search mode failed; searches still work, slower")

    @staticmethod
    def impact_list_length(cap: int) -> int:
        """Blocks listed per common term: a query of up to five common terms stays within the cap."""
        return max(cap // 5, 1)

    def prepare_impact_lists(self) -> impact_lists.ImpactBuild | None:
        """Rebuild the impact lists (migration 0018) if none exist, the BM25 parameters or the cap changed,
        the live blocks changed by more than a quarter since they were built, or a quarter of them were
        written or removed since (until then the lists keep the rows of blocks gone since and gain the
        blocks written since, and the floors use the build's average length); the build in place, or None
        without a cap (every keyword search exact)."""
        cap = self.pg.candidate_cap
        if cap is None:
            return None
        per_term = self.impact_list_length(cap)
        bm25 = self.pg.bm25
        built = impact_lists.current(self.db)
        blocks = store.collection_stats(self.db).blocks
        if (built is not None and (built.per_term, built.k1, built.b) == (per_term, bm25.k1, bm25.b)
                and abs(blocks - built.blocks) <= built.blocks / 4 and built.changes <= max(built.blocks, 1_000) / 4):
            return built
        started = time.perf_counter()
        fresh = impact_lists.build(self.db, per_term, bm25.k1, bm25.b)
        if fresh is not None:
            log.info("keyword impact lists of %d terms built in %.1fs", fresh.terms, time.perf_counter() - started)
        return fresh

    def _ensure_index(self, dimension: int) -> None:
        """This model's HNSW index, built if missing; then those of models no longer active are dropped."""
        started = time.perf_counter()
        if store.hnsw_index_state(self.db, self.embed_model, dimension) != "ready":
            log.info("building the HNSW index for %s (%d-d); a one-time cost", self.embed_model, dimension)
            store.ensure_hnsw_index(self.db, self.embed_model, dimension, HNSW_BUILD_MEMORY_MB)
            log.info("HNSW index ready in %.1fs", time.perf_counter() - started)
        for name in store.drop_other_hnsw_indexes(self.db, self.embed_model, dimension):
            log.info("dropped the HNSW index %s of a model no longer in use", name)

    def notify(self, document_ids: Iterable[str]) -> None:
        return

    def attach_vectors(self, block_ids: Sequence[str], vectors: np.ndarray, document_ids: Iterable[str]) -> None:
        if self._hnsw_dimension is None and len(vectors):
            self._hnsw_dimension = int(np.asarray(vectors).shape[1])
            threading.Thread(target=self._ensure_index, args=(self._hnsw_dimension,), name="hnsw-build",
                             daemon=True).start()

    def search(self, query: str, k: int, scope: Scope | None, mode: SearchMode,
               query_vector: np.ndarray | None) -> list[Hit]:
        return self.pg.search(query, k, scope=scope, mode=mode, query_vector=query_vector)

    def stats(self) -> dict[str, Any]:
        counts = store.index_stats(self.db, self.embed_model)
        dimension = self._hnsw_dimension
        hnsw = store.hnsw_index_state(self.db, self.embed_model, dimension) if dimension else "missing"
        return {"backend": "postgres", "dimension": dimension, "hnsw_index": hnsw, "memory_bytes": 0, **counts}
