"""The Postgres search mode (QUIRE_SEARCH_BACKEND=postgres): the database is the index.

No process holds an index: each search runs both channels in SQL (backend/store/search_sql.py: HNSW
over pgvector, BM25 over the cached terms) and fuses their two top lists here with the very
`reciprocal_rank_fusion` and RRF k the in-memory index uses, so both modes rank by one definition. The
fusion runs in Python over the two SQL lists (max(4k, 20) ids each; deeper only where a document's
repeated passages fill them, backend/retrieval/repeats.py) rather than in SQL: the ties
are broken exactly as the in-memory mode breaks them, and it costs microseconds, while the channels'
statements stay two simple, separately indexed queries.

Startup reads nothing but one row (the stored vectors' dimension), so it takes the same time at any
vault size; the model's HNSW index and the keyword impact lists (below) are prepared in the background.
Changes from any process are visible to the next search, as they are committed: nothing to poll or
refresh. BM25's collection statistics (live blocks, total length, document frequencies) are cached per
process and dropped whenever the index change feed has moved (one indexed `max(seq)` read per search);
once the impact lists are built they are read as the build's counts plus the changes recorded since
(migration 0018), not counted again. The dense statement runs on a second connection while the keyword
one runs.

The keyword channel's cost is bounded. Exact BM25 over a query whose every word is common scores every
block holding one of them, a share of the vault that grows with it (synthetic vault, load ~7: p95 1.0 s
at 100k, 11 s at 1M). So when the blocks to score would exceed `candidate_cap`
(QUIRE_SEARCH_KEYWORD_CANDIDATES, 5,000; a vault or scope that small is always exact), a search scores
the holders of its rarer terms plus, for each term held by more than cap / 5 blocks, the cap / 5 blocks
where it weighs most: the *impact lists* (migration 0018, backend/store/keyword_impacts.py — built by
one process when missing or stale, extended by a trigger as blocks are written). Every block scored is
scored exactly, over all the query's terms; a block left out holds none of the rarer terms and is below
each common term's list floor, so when the list's `depth`-th score reaches the sum of those floors ×
weights the ranking is provably the exact one (the floors use the build's average length, which drifts
a little until the next rebuild). We chose this over a conjunctive tier alone (blocks holding all the
rarest terms, the shortest first — kept as the fallback while a common term is not listed yet): on the
synthetic 100k vault the tier's overlap@10 with the exact ranking was 0.75, the lists' 1.00
(scripts/bench_keyword_cap.py), and the tier still visited every holder of a common term to pick the
shortest. Lists of every term (an impact-ordered index of the whole vault, ~40 rows per block) would be
exact always but too heavy to build and keep here; listing only the terms held by more than cap / 5
blocks takes 394 terms × 1,000 rows at 100k, 2,686 × 1,000 at 1M.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from backend.llm.embedders import Embedder, l2_normalise
from backend.metrics import timed_search
from backend.retrieval.fusion import RRF_K, Fused, reciprocal_rank_fusion
from backend.retrieval.hits import make_hit
from backend.retrieval.hybrid import candidate_depth
from backend.retrieval.relevance import Judge, query_terms
from backend.retrieval.repeats import distinct_passages
from backend.retrieval.service import SearchService, live_copies
from backend.retrieval.sparse import BM25Params, bm25_idf
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Hit, Scope, SearchMode
from backend.store import blocks as blocks_store
from backend.store import keyword_impacts as impact_lists
from backend.store import search_sql as store
from backend.store.db import Database

log = logging.getLogger(__name__)

# maintenance_work_mem for the HNSW build: pgvector builds much faster when the graph fits in it
# (100,000 768-d vectors: ~400 MB).
HNSW_BUILD_MEMORY_MB = 1024
_DF_CACHE_LIMIT = 50_000
# Keyword candidates one search scores at most (QUIRE_SEARCH_KEYWORD_CANDIDATES' default): ~4 µs each.
KEYWORD_CANDIDATES = 5_000
# A scope of at most this many blocks is ranked exactly by the dense channel (distances to all its rows).
_EXACT_SCOPE_BLOCKS = 5_000
# How often a process checks whether the keyword impact lists need a rebuild (seconds).
IMPACT_CHECK_S = 600.0
# MaxScore's first pass scores the blocks of the query's rarest terms, up to about this many blocks.
_FIRST_PASS_BLOCKS = 2_000


class PostgresIndex:
    """Hybrid search over live blocks in Postgres; the same `search` contract as `HybridIndex`."""

    def __init__(self, db: Database, embed_model: str, analyzer: Analyzer | None = None,
                 bm25: BM25Params | None = None, rrf_k: int = RRF_K,
                 candidate_cap: int | None = KEYWORD_CANDIDATES) -> None:
        self.db = db
        self.candidate_cap = candidate_cap  # None: always exact
        # Keyword rankings that took the capped path, and those of them the impact lists' floors prove
        # exact (for benchmarks).
        self.capped_searches = 0
        self.proven_exact = 0
        self.embed_model = embed_model
        self.analyzer = analyzer or Analyzer()
        self.bm25 = bm25 or BM25Params()
        self.rrf_k = rrf_k
        self._stats: store.CollectionStats | None = None
        self._df: dict[str, int] = {}
        self._lock = threading.Lock()
        self._channels = ThreadPoolExecutor(max_workers=4, thread_name_prefix="dense-channel")

    def _statistics(self) -> tuple[store.CollectionStats, dict[str, int]]:
        """BM25's collection statistics, recounted only after the index change feed moved."""
        seq = store.latest_change(self.db)
        with self._lock:
            if self._stats is not None and self._stats.seq == seq:
                return self._stats, self._df
        stats = store.collection_stats(self.db)
        with self._lock:
            self._stats, self._df = stats, {}
            return stats, self._df

    def _frequencies(self, terms: Iterable[str]) -> tuple[store.CollectionStats, dict[str, int]]:
        """The collection statistics and the document frequency of each of `terms` (0: no live block)."""
        stats, cache = self._statistics()
        wanted = list(dict.fromkeys(terms))
        missing = [t for t in wanted if t not in cache]
        if missing:
            found = store.document_frequencies(self.db, missing)
            with self._lock:
                if len(cache) > _DF_CACHE_LIMIT:
                    cache.clear()
                cache.update({t: found.get(t, 0) for t in missing})
        return stats, {t: cache.get(t, 0) for t in wanted}

    def term_weights(self, query: str) -> dict[str, float]:
        """The query's terms held by some live block, weighted qtf × idf as `SparseIndex.term_weights`."""
        counts: dict[str, int] = {}
        for term in self.analyzer.terms(query):
            counts[term] = counts.get(term, 0) + 1
        stats, df = self._frequencies(counts)
        n = stats.blocks
        return {t: q * float(np.log(1.0 + (n - df[t] + 0.5) / (df[t] + 0.5)))
                for t, q in counts.items() if df.get(t)}

    def judge(self, query: str) -> Judge:
        """The relevance judge (backend/retrieval/relevance.py) over the database's keyword statistics,
        exactly as the in-memory channel's (same idf, same average length)."""
        alternatives = [term for group in query_terms(self.analyzer, query) for term in group]
        stats, df = self._frequencies(alternatives)
        average = stats.total_length / max(stats.blocks, 1)
        return Judge(self.analyzer, lambda term: bm25_idf(stats.blocks, float(df.get(term, 0))), average,
                     self.bm25, query)

    @timed_search
    def search(self, query: str, k: int, scope: Scope | None = None, mode: SearchMode = "hybrid",
               query_vector: np.ndarray | None = None) -> list[Hit]:
        """The k best live passages within `scope`, a text repeated within one document once; scores as
        `HybridIndex.search` gives them."""
        if mode not in ("hybrid", "dense", "sparse"):
            raise ValueError(f"unknown search mode {mode!r}")
        if k <= 0:
            return []
        ids = sorted(scope.document_ids) if scope else []
        cats = sorted(scope.categories) if scope else []
        weights = self.term_weights(query) if query.strip() else {}
        # A scope's size, as far as it matters: a small one is ranked exactly by both channels.
        limit = max(self.candidate_cap or 0, _EXACT_SCOPE_BLOCKS)
        scope_blocks = store.scope_size(self.db, ids, cats, limit) if ids or cats else limit + 1
        unit = None
        if mode != "sparse" and query_vector is not None:
            unit = l2_normalise(np.asarray(query_vector, dtype=np.float32).reshape(1, -1))[0]

        def rank(depth: int) -> tuple[list[Fused], bool]:
            """Every fused candidate of channel lists `depth` long, and whether both lists fell short."""
            dense_ranking: Future[tuple[list[str], list[float]]] | None = None
            if unit is not None:
                # The two channels are two statements on two connections: the dense one runs meanwhile.
                dense_ranking = self._channels.submit(store.dense_ranking, self.db, self.embed_model, unit, depth,
                                                      ids, cats, scope_blocks > _EXACT_SCOPE_BLOCKS)
            sparse: tuple[list[str], list[float]] = ([], [])
            if mode != "dense" and weights:
                sparse = self._sparse(weights, depth, ids, cats, scope_blocks)
            dense = dense_ranking.result() if dense_ranking is not None else ([], [])
            exhausted = len(sparse[0]) < depth and len(dense[0]) < depth
            if mode == "hybrid":
                return reciprocal_rank_fusion([sparse[0], dense[0]], k=self.rrf_k), exhausted
            chosen = sparse if mode == "sparse" else dense
            return [Fused(b, s, (i, None) if mode == "sparse" else (None, i))
                    for i, (b, s) in enumerate(zip(*chosen, strict=True), start=1)], exhausted

        passages = distinct_passages(rank, k, candidate_depth(k), lambda block_ids: live_copies(self.db, block_ids))
        judge = self.judge(query)
        return [make_hit(p, weights, judge, self.analyzer) for p in passages]

    def _sparse(self, weights: dict[str, float], depth: int, ids: list[str], cats: list[str],
                scope_blocks: int) -> tuple[list[str], list[float]]:
        """BM25's top `depth`: exact (MaxScore in two statements) unless that means scoring more than
        `candidate_cap` blocks; then the impact lists' blocks and the rarer terms' holders (see the
        module's docstring), or a conjunctive tier (`_tier`) while a common term is not listed.

        A term adds at most weight × (k1 + 1) to a block's score. First the blocks holding the query's
        rarest terms are scored (a small set); the `depth`-th of their scores is a threshold θ that the
        final list's last score reaches at least. The commonest terms whose summed maxima stay below θ
        cannot lift a block holding none of the other terms into the list, so the second statement scores
        only blocks holding one of the other ("essential") terms. A scope of at most `candidate_cap`
        blocks is always ranked exactly.
        """
        stats, df = self._stats, self._df
        assert stats is not None  # set by term_weights
        average = stats.total_length / max(stats.blocks, 1)
        k1, b = self.bm25.k1, self.bm25.b
        cap = self.candidate_cap
        if cap is not None and min(scope_blocks, stats.blocks) <= cap:  # never more candidates than blocks
            cap = None

        def ranking(terms: list[str], holding_all: bool = False, shortest: int | None = None,
                    listed: list[str] | None = None) -> tuple[list[str], list[float]]:
            return store.sparse_ranking(self.db, weights, terms, average, k1, b, depth, ids, cats,
                                        holding_all=holding_all, shortest=shortest, listed=listed or [])

        # Under a cap, the first pass keeps to it too (and is skipped if even the rarest term is over it).
        budget = _FIRST_PASS_BLOCKS if cap is None else min(_FIRST_PASS_BLOCKS, cap)
        first: list[str] = []
        held = 0
        for term in sorted(weights, key=lambda t: (df.get(t, 0), t)):
            if held + df.get(term, 0) > budget and (first or cap is not None):
                break
            first.append(term)
            held += df.get(term, 0)
        if first and len(first) == len(weights):
            return ranking(first)
        found = ranking(first) if first else ([], [])
        theta = found[1][depth - 1] if len(found[0]) >= depth else 0.0
        essential, bound = list(weights), 0.0
        for term in sorted(weights, key=weights.__getitem__):  # cheapest maxima first
            bound += weights[term] * (k1 + 1)
            if bound >= theta:
                break
            essential.remove(term)
        if cap is None or sum(df.get(t, 0) for t in essential) <= cap:
            return ranking(essential)
        self.capped_searches += 1
        floors = impact_lists.floors(self.db, essential)
        unlisted = [t for t in essential if t not in floors]
        if floors and sum(df.get(t, 0) for t in unlisted) <= cap:
            capped = ranking(unlisted, listed=sorted(floors))
            # A block scored by neither statement holds no unlisted essential term and is in no list of
            # the listed ones it holds: its score is at most this.
            bound = sum(weights[t] * floor for t, floor in floors.items()) + sum(
                weights[t] * (k1 + 1) for t in weights if t not in essential)
        else:  # common terms not listed (yet): a conjunctive tier
            capped = ranking(self._tier(essential, df, stats.blocks, cap), holding_all=True, shortest=cap)
            bound = float("inf")
        scores = dict(zip(*found, strict=True)) | dict(zip(*capped, strict=True))
        best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:depth]
        if len(best) == depth and best[-1][1] >= bound:
            self.proven_exact += 1
        return [block for block, _ in best], [score for _, score in best]

    @staticmethod
    def _tier(essential: list[str], df: dict[str, int], blocks: int, cap: int) -> list[str]:
        """The terms a capped search's candidates must all hold: the rarest essential terms, as few as
        make the expected number of blocks holding them all (document frequencies taken as independent)
        fall to `cap` — or all essential terms, when even they do not (the shortest `cap` holders are
        then scored: with each term once, a shorter block scores higher)."""
        n = max(blocks, 1)
        tier: list[str] = []
        expected = float(n)
        for term in sorted(essential, key=lambda t: (df.get(t, 0), t)):
            tier.append(term)
            expected *= df.get(term, 0) / n
            if expected <= cap:
                break
        return tier



class PostgresSearchService(SearchService):
    """`SearchService` with the database as its index: no build, no poller, no per-process state to keep
    in step (the change notifications ingestion sends are no-ops here)."""

    def __init__(self, db: Database, embedder: Embedder, keyword_candidates: int | None = KEYWORD_CANDIDATES
                 ) -> None:
        super().__init__(db, embedder, poll_s=1.0)
        self.pg = PostgresIndex(db, embedder.model, candidate_cap=keyword_candidates)
        self.pg.analyzer = self.index.analyzer  # one analyser: ingestion caches terms with it
        self._hnsw_dimension: int | None = None

    def build(self) -> None:
        """Startup: one row read (the stored vectors' dimension), whatever the vault's size."""
        started = time.perf_counter()
        self._hnsw_dimension = store.stored_dimension(self.db, self.embedder.model)
        self.state = "ready"
        self.built_in_s = round(time.perf_counter() - started, 3)

    worker_name = "search-prepare"

    def _work(self) -> None:
        self._prepare()
        while not self._stop.wait(IMPACT_CHECK_S):
            try:
                self.prepare_impact_lists()
            except Exception:
                log.exception("rebuilding the keyword impact lists failed; keyword search still works")

    def _prepare(self) -> None:
        """Cache terms missing for the running analyser, (re)build the keyword impact lists if stale, and
        create the model's HNSW index if missing."""
        try:
            fingerprint = self.analyzer.fingerprint
            for rows in store.iter_stale_terms(self.db, fingerprint):
                if self._stop.is_set():
                    return
                blocks_store.save_terms(self.db, fingerprint,
                                        [(r["id"], *self.analyzer.term_counts(r["text"])) for r in rows])
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
        started = time.perf_counter()
        if store.hnsw_index_state(self.db, self.embedder.model, dimension) == "ready":
            return
        log.info("building the HNSW index for %s (%d-d); a one-time cost", self.embedder.model, dimension)
        store.ensure_hnsw_index(self.db, self.embedder.model, dimension, HNSW_BUILD_MEMORY_MB)
        log.info("HNSW index ready in %.1fs", time.perf_counter() - started)

    def refresh(self, document_ids: Any) -> None:
        return

    def notify(self, document_ids: Any) -> None:
        return

    def attach_vectors(self, block_ids: Any, vectors: np.ndarray, document_ids: Any) -> None:
        if self._hnsw_dimension is None and len(vectors):
            self._hnsw_dimension = int(np.asarray(vectors).shape[1])
            threading.Thread(target=self._ensure_index, args=(self._hnsw_dimension,), name="hnsw-build",
                             daemon=True).start()

    def poll_once(self) -> int:
        return 0

    def _hits(self, query: str, k: int, scope: Scope | None, mode: SearchMode,
              vector: np.ndarray | None) -> list[Hit]:
        return self.pg.search(query, k, scope=scope, mode=mode, query_vector=vector)

    def stats(self) -> dict[str, Any]:
        counts = store.index_stats(self.db, self.embedder.model)
        dimension = self._hnsw_dimension
        hnsw = store.hnsw_index_state(self.db, self.embedder.model, dimension) if dimension else "missing"
        return {"state": self.state, "built_in_s": self.built_in_s, "embed_model": self.embedder.model,
                "backend": "postgres", "dimension": dimension, "hnsw_index": hnsw, "memory_bytes": 0, **counts}
