"""One search, whichever backend holds the index: the query's BM25 weights, each channel's ranked list,
their fusion, one result per text a document repeats, the relevance judgement and the hits' snippets.

A backend (the in-memory `HybridIndex`, the Postgres mode's `PostgresIndex`) offers a `SearchView`: one
consistent state of its index for the length of one search, which ranks its channels and reads its
hits' details. Everything else is here, once, so the two modes cannot drift apart: the ranking steps,
the single-channel modes, how deep the lists go (`candidate_depth`), the tie-breaks and the judgement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np

from backend.llm.embedders import l2_normalise
from backend.retrieval.bm25 import BM25Params, KeywordStatistics, term_weights
from backend.retrieval.fusion import Fused
from backend.retrieval.hits import make_hit
from backend.retrieval.relevance import Judge, judged_terms
from backend.retrieval.repeats import distinct_passages
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Copy, Hit, Ranking, Scope, SearchMode

SEARCH_MODES: tuple[SearchMode, ...] = ("hybrid", "dense", "sparse")
NO_RANKING = Ranking([], [])


class SearchView(Protocol):
    """One state of a backend's index, for the length of one search."""

    @property
    def analyzer(self) -> Analyzer: ...

    @property
    def params(self) -> BM25Params: ...

    def statistics(self, terms: Sequence[str]) -> KeywordStatistics:
        """The keyword index's statistics for these terms (document frequencies, blocks, mean length)."""
        ...

    def rankings(self, weights: dict[str, float], unit: np.ndarray | None, depth: int, scope: Scope | None,
                 mode: SearchMode) -> tuple[Ranking, Ranking]:
        """The keyword channel's best `depth` for `weights` (none if empty) and the dense channel's for the
        unit query vector (none if None or of a dimension the index does not hold; in hybrid mode it may be
        longer than `depth`, for `fuse`), both within `scope`."""
        ...

    def fuse(self, sparse: Ranking, dense: Ranking, unit: np.ndarray | None, depth: int,
             scope: Scope | None) -> list[Fused]:
        """Hybrid mode's fusion of the two lists, every candidate ranked."""
        ...

    def copies(self, block_ids: Sequence[str]) -> Mapping[str, Sequence[Copy]]:
        """The live ones of `block_ids`, each with its document's live blocks of the same text."""
        ...


def candidate_depth(k: int) -> int:
    """How many candidates each channel contributes to fusion for a final top k (DESIGN §4); a search asks
    deeper only when a document's repeated passages fill the lists (backend/retrieval/repeats.py). Deeper lists
    (100 per channel) were tried on the tuning half of Cranfield: +0.001 nDCG@10 there, -0.002 on the test
    half — no gain worth the slower search."""
    return max(4 * k, 20)


def search(view: SearchView, query: str, k: int, scope: Scope | None = None, mode: SearchMode = "hybrid",
           query_vector: np.ndarray | None = None) -> list[Hit]:
    """The k best live passages for `query` within `scope`, a text repeated within one document once
    (backend/retrieval/repeats.py).

    `score` is the RRF score in hybrid mode and the channel's own score (BM25, cosine) in the single
    channel modes. Dense needs `query_vector`: without one (or with one of another dimension than the
    indexed vectors), dense mode returns [] and hybrid mode ranks by BM25 alone.
    """
    if mode not in SEARCH_MODES:
        raise ValueError(f"unknown search mode {mode!r}")
    if k <= 0:
        return []
    terms = view.analyzer.terms(query) if query.strip() else []
    stats = view.statistics([*terms, *judged_terms(view.analyzer, query)])
    weights = term_weights(terms, stats)  # they serve BM25, then the snippets
    unit = None
    if mode != "sparse" and query_vector is not None:
        unit = l2_normalise(np.asarray(query_vector, dtype=np.float32).reshape(1, -1))[0]

    def rank(depth: int) -> tuple[list[Fused], bool]:
        """Every fused candidate of channel lists `depth` long, and whether both lists fell short."""
        sparse, dense = view.rankings(weights if mode != "dense" else {}, unit, depth, scope, mode)
        exhausted = len(sparse.block_ids) < depth and len(dense.block_ids[:depth]) < depth
        if mode == "hybrid":
            return view.fuse(sparse, dense, unit, depth, scope), exhausted
        ids, scores = sparse if mode == "sparse" else dense
        return [Fused(b, s, (i, None) if mode == "sparse" else (None, i))
                for i, (b, s) in enumerate(zip(ids[:depth], scores[:depth], strict=True), start=1)], exhausted

    passages = distinct_passages(rank, k, candidate_depth(k), view.copies)
    if not passages:
        return []
    judge = Judge(view.analyzer, stats, view.params, query)
    return [make_hit(p, weights, judge, view.analyzer) for p in passages]
