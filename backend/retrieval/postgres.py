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
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from backend.retrieval import pipeline
from backend.retrieval.bm25 import BM25Params, KeywordStatistics
from backend.retrieval.fusion import RRF_K, Fused, reciprocal_rank_fusion
from backend.retrieval.fuzzy import FuzzyVocabulary, correctable
from backend.retrieval.names import NamedDocument, name_terms
from backend.retrieval.repeats import live_copies
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Copy, Hit, Ranking, Scope, SearchMode
from backend.store import documents as documents_store
from backend.store import keyword_impacts as impact_lists
from backend.store import search_sql as store
from backend.store.db import Database

log = logging.getLogger(__name__)

_DF_CACHE_LIMIT = 50_000
# Keyword candidates one search scores at most (QUIRE_SEARCH_KEYWORD_CANDIDATES' default): ~4 µs each.
KEYWORD_CANDIDATES = 5_000
# A scope of at most this many blocks is ranked exactly by the dense channel (distances to all its rows).
_EXACT_SCOPE_BLOCKS = 5_000
# MaxScore's first pass scores the blocks of the query's rarest terms, up to about this many blocks.
_FIRST_PASS_BLOCKS = 2_000
_NAME_CACHE_LIMIT = 100_000  # document names whose terms are remembered


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
        # The vault's correctable terms (migration 0023), read as they are added: the fuzzy channel's lookup.
        self.vocabulary = FuzzyVocabulary()
        self._vocabulary_terms: set[str] = set()
        self._vocabulary_horizon = "0"
        self._vocabulary_lock = threading.Lock()
        self._name_terms: dict[str, frozenset[str]] = {}  # a document name → `name_terms` of it

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

    def statistics(self, terms: Iterable[str]) -> KeywordStatistics:
        """BM25's statistics for these terms, as `SparseIndex.statistics` gives them in memory."""
        stats, df = self._frequencies(terms)
        return KeywordStatistics(stats.blocks, stats.total_length / max(stats.blocks, 1),
                                 {t: n for t, n in df.items() if n > 0})

    def refresh_vocabulary(self) -> int:
        """Take the vocabulary's terms added since the last look (all of them the first time: the search mode
        prepares this in the background); returns how many were new."""
        with self._vocabulary_lock:
            found, self._vocabulary_horizon = store.vocabulary_since(self.db, self._vocabulary_horizon)
            fresh = [t for t in dict.fromkeys(found) if correctable(t) and t not in self._vocabulary_terms]
            self._vocabulary_terms.update(fresh)
            self.vocabulary.add(fresh)
            return len(fresh)

    def similar_terms(self, terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        """For each of `terms`, the vault's terms a typo away (live or not), after reading the new ones."""
        self.refresh_vocabulary()
        return {term: self.vocabulary.similar(term) for term in terms}

    def documents_named(self, terms: Sequence[str]) -> list[NamedDocument]:
        """Each document not in the trash whose name holds one of `terms`. The names are read each time (a
        vault has far fewer documents than blocks; only a question with a word no block holds asks), their
        terms are remembered by name."""
        wanted = set(terms)
        found: list[NamedDocument] = []
        for row in documents_store.document_names(self.db):
            held = self._name_terms.get(row["filename"])
            if held is None:
                if len(self._name_terms) >= _NAME_CACHE_LIMIT:
                    self._name_terms = {}
                held = self._name_terms[row["filename"]] = name_terms(self.analyzer, row["filename"])
            if not wanted.isdisjoint(held):
                found.append(NamedDocument(row["id"], row["category"], held & wanted))
        return found

    def search(self, query: str, k: int, scope: Scope | None = None, mode: SearchMode = "hybrid",
               query_vector: np.ndarray | None = None) -> list[Hit]:
        """`pipeline.search` over the database: the k best live passages within `scope`, a text repeated
        within one document once; scores as `HybridIndex.search` gives them."""
        return pipeline.search(_View(self, scope), query, k, scope, mode, query_vector)

    def rankings(self, weights: dict[str, float], stats: KeywordStatistics, unit: np.ndarray | None, depth: int,
                 ids: list[str], cats: list[str], scope_blocks: int) -> tuple[Ranking, Ranking]:
        """Both channels' lists: two statements on two connections, the dense one running meanwhile."""
        dense_ranking: Future[tuple[list[str], list[float]]] | None = None
        if unit is not None:
            dense_ranking = self._channels.submit(store.dense_ranking, self.db, self.embed_model, unit, depth,
                                                  ids, cats, scope_blocks > _EXACT_SCOPE_BLOCKS)
        sparse = self._sparse(weights, stats, depth, ids, cats, scope_blocks) if weights else ([], [])
        dense = dense_ranking.result() if dense_ranking is not None else ([], [])
        return Ranking(*sparse), Ranking(*dense)

    def _sparse(self, weights: dict[str, float], stats: KeywordStatistics, depth: int, ids: list[str],
                cats: list[str], scope_blocks: int) -> tuple[list[str], list[float]]:
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
        df, average = stats.df, stats.average_length
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
    def _tier(essential: list[str], df: Mapping[str, int], blocks: int, cap: int) -> list[str]:
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



class _View:
    """The database as `pipeline.search` reads it, for one search within `scope`."""

    def __init__(self, index: PostgresIndex, scope: Scope | None) -> None:
        self.index = index
        self.ids = sorted(scope.document_ids) if scope else []
        self.cats = sorted(scope.categories) if scope else []
        self._stats = KeywordStatistics(0, 0.0)
        self._scope_blocks: int | None = None

    @property
    def analyzer(self) -> Analyzer:
        return self.index.analyzer

    @property
    def params(self) -> BM25Params:
        return self.index.bm25

    def statistics(self, terms: Sequence[str]) -> KeywordStatistics:
        self._stats = self.index.statistics(terms)
        return self._stats

    def similar_terms(self, terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        return self.index.similar_terms(terms)

    def scope_blocks(self) -> int:
        """A scope's size, as far as it matters: a small one is ranked exactly by both channels."""
        if self._scope_blocks is None:
            limit = max(self.index.candidate_cap or 0, _EXACT_SCOPE_BLOCKS)
            self._scope_blocks = (store.scope_size(self.index.db, self.ids, self.cats, limit)
                                  if self.ids or self.cats else limit + 1)
        return self._scope_blocks

    def rankings(self, weights: dict[str, float], unit: np.ndarray | None, depth: int, scope: Scope | None,
                 mode: SearchMode) -> tuple[Ranking, Ranking]:
        return self.index.rankings(weights, self._stats, unit, depth, self.ids, self.cats, self.scope_blocks())

    def documents_named(self, terms: Sequence[str]) -> list[NamedDocument]:
        return self.index.documents_named(terms)

    def ranking_within(self, weights: dict[str, float], document_ids: Sequence[str], depth: int) -> Ranking:
        ids = sorted(document_ids)
        blocks = store.scope_size(self.index.db, ids, [], max(self.index.candidate_cap or 0, _EXACT_SCOPE_BLOCKS))
        return self.index.rankings(weights, self._stats, None, depth, ids, [], blocks)[0]

    def leading_blocks(self, document_ids: Sequence[str], depth: int) -> Ranking:
        ids = store.leading_blocks(self.index.db, sorted(document_ids), depth)
        return Ranking(ids, [0.0] * len(ids))

    def fuse(self, sparse: Ranking, dense: Ranking, fuzzy: Ranking, unit: np.ndarray | None, depth: int,
             scope: Scope | None) -> list[Fused]:
        return reciprocal_rank_fusion([sparse.block_ids, dense.block_ids, fuzzy.block_ids], k=self.index.rrf_k)

    def copies(self, block_ids: Sequence[str]) -> Mapping[str, Sequence[Copy]]:
        return live_copies(self.index.db, block_ids)
