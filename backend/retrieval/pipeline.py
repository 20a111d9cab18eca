"""One search, whichever backend holds the index: the query's BM25 weights and the corrections of its
typos, each channel's ranked list, their fusion, one result per text a document repeats, the relevance
judgement and the hits' snippets.

A backend (the in-memory `HybridIndex`, the Postgres mode's `PostgresIndex`) offers a `SearchView`: one
consistent state of its index for the length of one search, which ranks its channels and reads its
hits' details. Everything else is here, once, so the two modes cannot drift apart: the ranking steps,
the single-channel modes, how deep the lists go (`candidate_depth`), the tie-breaks and the judgement.

The fuzzy channel (hybrid mode): a question word no block holds is looked up among the vault's words a
typo away (backend/retrieval/fuzzy.py); if some are found, BM25 ranks the blocks once more for the query
read with those corrections, and that list is fused by RRF as a third one. A query whose every word the
vault holds (or whose unknown words have no close word) has no such list, so it ranks exactly as before;
the judgement reads the corrections too (backend/retrieval/relevance.py, `Judge`).

A question word no block holds but a document's name does counts, in the keyword channel, as held once
by each block of that document (`with_names`, backend/retrieval/names.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from backend.llm.embedders import l2_normalise
from backend.retrieval.bm25 import BM25Params, KeywordStatistics, term_weights
from backend.retrieval.fusion import Fused
from backend.retrieval.fuzzy import corrections
from backend.retrieval.hits import make_hit
from backend.retrieval.names import Named, NamedDocument, named_groups
from backend.retrieval.relevance import Judge, judged_terms, read_question
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

    def similar_terms(self, terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        """For each of `terms`, the index's terms a typo away (`FuzzyVocabulary.similar`), live or not."""
        ...

    def rankings(self, weights: dict[str, float], unit: np.ndarray | None, depth: int, scope: Scope | None,
                 mode: SearchMode) -> tuple[Ranking, Ranking]:
        """The keyword channel's best `depth` for `weights` (none if empty) and the dense channel's for the
        unit query vector (none if None or of a dimension the index does not hold; in hybrid mode it may be
        longer than `depth`, for `fuse`), both within `scope`."""
        ...

    def documents_named(self, terms: Sequence[str]) -> list[NamedDocument]:
        """Each document whose name holds one of `terms` (`names.name_terms`), in the order of their ids."""
        ...

    def ranking_within(self, weights: dict[str, float], document_ids: Sequence[str], depth: int) -> Ranking:
        """The keyword channel's best `depth` for `weights` among these documents' live blocks."""
        ...

    def leading_blocks(self, document_ids: Sequence[str], depth: int) -> Ranking:
        """These documents' first `depth` live blocks in reading order, taking turns by document (each
        scored 0)."""
        ...

    def fuse(self, sparse: Ranking, dense: Ranking, fuzzy: Ranking, unit: np.ndarray | None, depth: int,
             scope: Scope | None) -> list[Fused]:
        """Hybrid mode's fusion of the three lists (keyword, dense, fuzzy), every candidate ranked."""
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


@dataclass(frozen=True)
class Prepared:
    """A query read against one state of the index: what its search and its judgement need."""

    weights: dict[str, float]  # BM25's: each term some live block holds, qtf × idf
    fuzzy: dict[str, float]  # the fuzzy channel's: `weights` and the corrections'; {} when nothing is corrected
    judge: Judge
    named: tuple[Named, ...] = ()  # documents named by a word no block holds


def prepare(view: SearchView, query: str) -> Prepared:
    """The query's BM25 weights, the corrections of the words no block holds, the documents they name, and
    its judge."""
    analyzer = view.analyzer
    terms = analyzer.terms(query) if query.strip() else []
    stats = view.statistics([*terms, *judged_terms(analyzer, query)])
    weights = term_weights(terms, stats)  # they serve BM25, then the snippets
    question = read_question(analyzer, stats, query)
    unknown = question.unknown_words()
    if not unknown:
        return Prepared(weights, {}, Judge(analyzer, stats, view.params, question))
    similar = view.similar_terms(list(dict.fromkeys(f for w in unknown for f in (w.surface, *w.terms))))
    close = {w.surface: [c for f in (w.surface, *w.terms) for c in similar.get(f, [])] for w in unknown}
    stats = view.statistics([*terms, *judged_terms(analyzer, query), *(t for c in close.values() for t, _ in c)])
    corrected = {surface: corrections(c, stats.df) for surface, c in close.items()}
    fuzzy = dict(weights)
    for term in dict.fromkeys(t for found in corrected.values() for t in found):
        fuzzy[term] = max(fuzzy.get(term, 0.0), stats.idf(term))
    judge = Judge(analyzer, stats, view.params, question, corrected)
    found = view.documents_named(list(dict.fromkeys(t for w in unknown for t in w.terms)))
    return Prepared(weights, fuzzy if len(fuzzy) > len(weights) else {}, judge, named_groups(found, unknown, stats))


def search(view: SearchView, query: str, k: int, scope: Scope | None = None, mode: SearchMode = "hybrid",
           query_vector: np.ndarray | None = None) -> list[Hit]:
    """The k best live passages for `query` within `scope`, a text repeated within one document once
    (backend/retrieval/repeats.py).

    `score` is the RRF score in hybrid mode and the channel's own score (BM25, cosine) in the single
    channel modes. Dense needs `query_vector`: without one (or with one of another dimension than the
    indexed vectors), dense mode returns [] and hybrid mode ranks by BM25 (and the fuzzy channel) alone.
    """
    if mode not in SEARCH_MODES:
        raise ValueError(f"unknown search mode {mode!r}")
    if k <= 0:
        return []
    prepared = prepare(view, query)
    named = [group for group in (Named(g.weight, tuple(d for d in g.documents if scope is None or scope.admits(*d)))
                                 for g in prepared.named) if group.documents]
    unit = None
    if mode != "sparse" and query_vector is not None:
        unit = l2_normalise(np.asarray(query_vector, dtype=np.float32).reshape(1, -1))[0]

    def rank(depth: int) -> tuple[list[Fused], bool]:
        """Every fused candidate of channel lists `depth` long, and whether all lists fell short."""
        sparse, dense = view.rankings(prepared.weights if mode != "dense" else {}, unit, depth, scope, mode)
        if mode != "dense" and named:
            sparse = with_names(view, prepared.weights, named, sparse, depth)
        fuzzy = NO_RANKING
        if mode == "hybrid" and prepared.fuzzy:
            fuzzy = view.rankings(prepared.fuzzy, None, depth, scope, "sparse")[0]
        exhausted = all(len(r.block_ids[:depth]) < depth for r in (sparse, dense, fuzzy))
        if mode == "hybrid":
            return view.fuse(sparse, dense, fuzzy, unit, depth, scope), exhausted
        ids, scores = sparse if mode == "sparse" else dense
        return [Fused(b, s, (i, None) if mode == "sparse" else (None, i))
                for i, (b, s) in enumerate(zip(ids[:depth], scores[:depth], strict=True), start=1)], exhausted

    passages = distinct_passages(rank, k, candidate_depth(k), view.copies)
    if not passages:
        return []
    shown = prepared.fuzzy or prepared.weights  # a snippet shows the corrected word too
    return relevant_first_in_ties([make_hit(p, shown, prepared.judge, view.analyzer) for p in passages])


def with_names(view: SearchView, weights: dict[str, float], named: Sequence[Named], sparse: Ranking,
               depth: int) -> Ranking:
    """The keyword list with the named documents' blocks scored as if each held its document's name once
    (backend/retrieval/names.py): their BM25 score for `weights` within those documents plus the name's
    weight; a block holding none of `weights` (or a question of nothing but the name) the name's weight
    alone, the documents' first blocks. Ties keep the order the blocks came in: the keyword list's (by block
    id, as both channels break ties), then the named documents' by score, then in reading order."""
    scores = dict(zip(sparse.block_ids, sparse.scores, strict=True))
    for group in named:
        ids = [doc for doc, _ in group.documents]
        within = view.ranking_within(weights, ids, depth) if weights else NO_RANKING
        leading = view.leading_blocks(ids, depth) if len(within.block_ids) < depth else NO_RANKING
        for block_id, score in itertools.chain(zip(within.block_ids, within.scores, strict=True),
                                               zip(leading.block_ids, leading.scores, strict=True)):
            scores[block_id] = max(scores.get(block_id, 0.0), score + group.weight)
    best = sorted(scores.items(), key=lambda item: -item[1])[:depth]  # stable
    return Ranking([block_id for block_id, _ in best], [score for _, score in best])


def relevant_first_in_ties(hits: list[Hit]) -> list[Hit]:
    """Hits of one score keep their order, except that a passage judged relevant comes before those that are
    not. Fusion breaks a tie by the order of its lists, so a passage first only in the dense list (found by a
    vector near the query's, words in common or not) went before one first only in the typo channel."""
    ranked: list[Hit] = []
    for _, tied in itertools.groupby(hits, key=lambda hit: hit.score):
        ranked += sorted(tied, key=lambda hit: not hit.relevant)  # stable: the fused order within each side
    return ranked
