"""Retrieval variants that were measured against the shipped hybrid and not shipped; scripts/eval_retrieval.py
prints their rows beside the shipped one, on both halves, so the decision can be checked on any collection.

- RM3 (Lavrenko & Croft's relevance model, interpolated with the query as in Anserini): the top
  `FEEDBACK_DOCS` BM25 results, weighted by their share of the BM25 score, give each term the weight
  sum(share(d) × tf(t, d) / |d|); the `FEEDBACK_TERMS` heaviest are mixed with the query's own term
  distribution at `ORIGINAL_WEIGHT`, and BM25 ranks again with each term's mixture weight × idf. The three
  numbers are Anserini's defaults, fixed before measuring (no tuning). Rows: BM25 + RM3 alone, and plain
  RRF of BM25 + RM3 with the shipped dense channel.
- BM25TP (Büttcher, Clarke & Lushman 2006), term proximity with no parameter beyond BM25's: BM25's
  candidates are ranked again by BM25 + sum over query terms t of min(1, idf(t)) × acc(t)(k1 + 1) /
  (acc(t) + K), where each two neighbouring occurrences of different query terms at distance d add
  idf(other) / d² to each other's acc, and K is BM25's length norm. Rows: alone, and in plain RRF with
  the shipped dense channel.
- MaxP (Dai & Callan 2019): a document's dense score is the best cosine of its windows (the local model's
  256 word pieces, half overlapping: `LocalEmbedder.embed_windows`) instead of the cosine of its first
  256 pieces; fused with BM25 by plain RRF as shipped.
- Z-score fusion (CombSUM of z-scores, Montague & Aslam 2001), score fusion instead of rank fusion: each
  channel's scores are standardised by the mean and deviation of its own top `Z_DEPTH` and summed, equal
  weights, over the union of both top lists (a document outside one channel's list brings that channel's
  score for it, 0 for BM25 without a query term). The depth is that of the "100 candidates per channel"
  variant, fixed before measuring.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping

import numpy as np

from backend.retrieval.bm25 import BM25Params
from backend.retrieval.fusion import RRF_K, reciprocal_rank_fusion
from backend.retrieval.pipeline import candidate_depth
from backend.retrieval.segments import RowKey
from backend.retrieval.sparse import SparseIndex
from backend.retrieval.tokenizer import Analyzer

FEEDBACK_DOCS, FEEDBACK_TERMS, ORIGINAL_WEIGHT = 10, 10, 0.5
Z_DEPTH = 100
Ranker = Callable[[str, str, int], list[str]]  # (query id, query text, k) → ranked doc ids


class RM3:
    """BM25 with RM3 feedback over a collection (the product's analyser and BM25, a standalone index)."""

    def __init__(self, docs: Mapping[str, str], analyzer: Analyzer, bm25: BM25Params) -> None:
        self.docs, self.analyzer = docs, analyzer
        self.sparse = SparseIndex(analyzer, bm25).apply([], [(RowKey(d, d, None), t) for d, t in docs.items()])
        self._terms: dict[str, Counter[str]] = {}  # analysed feedback documents, filled as queries need them

    def weights(self, query: str) -> dict[str, float]:
        """The expanded query's BM25 term weights."""
        first = self.sparse.search_ranking(self.sparse.term_weights(query), FEEDBACK_DOCS)
        known = self.sparse.term_weights(query)  # the query's terms some document contains
        own = Counter(t for t in self.analyzer.terms(query) if t in known)
        total = sum(first.scores)
        feedback: defaultdict[str, float] = defaultdict(float)
        for doc, score in zip(first.block_ids, first.scores, strict=True):
            terms = self._terms.setdefault(doc, Counter(self.analyzer.terms(self.docs[doc])))
            length = sum(terms.values())
            for term, tf in terms.items():
                feedback[term] += score / total * tf / length
        top = dict(sorted(feedback.items(), key=lambda item: -item[1])[:FEEDBACK_TERMS])
        mixture: defaultdict[str, float] = defaultdict(float)
        parts: tuple[tuple[Mapping[str, float], float], ...] = ((own, ORIGINAL_WEIGHT), (top, 1 - ORIGINAL_WEIGHT))
        for part, weight in parts:
            size = sum(part.values())
            for term, value in part.items():
                mixture[term] += weight * value / size
        return {term: value * self.sparse.idf(term) for term, value in mixture.items()}

    def ranker(self) -> Ranker:
        return lambda _qid, text, k: self.sparse.search_ranking(self.weights(text), k).block_ids

    def fused_ranker(self, dense: Ranker) -> Ranker:
        """Plain RRF of BM25 + RM3 and `dense`, each with the shipped candidate depth."""
        def rank(qid: str, text: str, k: int) -> list[str]:
            depth = candidate_depth(k)
            lists = [self.sparse.search_ranking(self.weights(text), depth).block_ids, dense(qid, text, depth)]
            return [f.block_id for f in reciprocal_rank_fusion(lists, k=RRF_K, limit=k)]

        return rank


class Proximity:
    """BM25TP over a collection (the product's analyser and BM25, a standalone index)."""

    def __init__(self, docs: Mapping[str, str], analyzer: Analyzer, bm25: BM25Params) -> None:
        self.docs, self.analyzer, self.bm25 = docs, analyzer, bm25
        self.sparse = SparseIndex(analyzer, bm25).apply([], [(RowKey(d, d, None), t) for d, t in docs.items()])
        self._positions: dict[str, tuple[list[tuple[str, ...]], int]] = {}  # filled as queries need them

    def _terms_at(self, doc: str) -> tuple[list[tuple[str, ...]], int]:
        """Each token's index terms, by token position, and the document's length in terms."""
        if doc not in self._positions:
            tokens = self.analyzer.tokens(self.docs[doc])
            language = self.analyzer.detect_language(tokens)
            terms = [self.analyzer.terms(token, language) for token in tokens]
            # Distinct terms in the analyser's order (a set's order would change with the hash seed).
            self._positions[doc] = [tuple(dict.fromkeys(t)) for t in terms], sum(map(len, terms))
        return self._positions[doc]

    def _bonus(self, doc: str, idf: Mapping[str, float]) -> float:
        at, length = self._terms_at(doc)
        hits = [(pos, term) for pos, terms in enumerate(at) for term in terms if term in idf]
        acc = dict.fromkeys(idf, 0.0)
        for (p1, t1), (p2, t2) in itertools.pairwise(hits):
            if t1 != t2 and p1 != p2:
                acc[t1] += idf[t2] / (p2 - p1) ** 2
                acc[t2] += idf[t1] / (p2 - p1) ** 2
        k1, b = self.bm25.k1, self.bm25.b
        norm = k1 * (1 - b + b * length / max(self.sparse.average_length, 1e-9))
        return sum(min(1.0, idf[t]) * a * (k1 + 1) / (a + norm) for t, a in acc.items() if a > 0)

    def ranking(self, query: str, depth: int) -> list[str]:
        """BM25's top `depth`, ranked again by BM25 + the proximity bonus."""
        weights = self.sparse.term_weights(query)
        first = self.sparse.search_ranking(weights, depth)
        idf = {term: self.sparse.idf(term) for term in weights}
        scored = [(score + self._bonus(doc, idf), i) for i, (doc, score) in
                  enumerate(zip(first.block_ids, first.scores, strict=True))]
        return [first.block_ids[i] for _, i in sorted(scored, key=lambda item: (-item[0], item[1]))]

    def ranker(self) -> Ranker:
        return lambda _qid, text, k: self.ranking(text, candidate_depth(k))[:k]

    def fused_ranker(self, dense: Ranker) -> Ranker:
        """Plain RRF of BM25TP and `dense`, each with the shipped candidate depth."""
        def rank(qid: str, text: str, k: int) -> list[str]:
            depth = candidate_depth(k)
            lists = [self.ranking(text, depth), dense(qid, text, depth)]
            return [f.block_id for f in reciprocal_rank_fusion(lists, k=RRF_K, limit=k)]

        return rank


def maxp_rankers(doc_ids: list[str], windows: np.ndarray, counts: list[int], qvecs: Mapping[str, np.ndarray],
                 sparse: Ranker) -> tuple[Ranker, Ranker]:
    """Dense MaxP over unit window vectors (document i owns the next `counts[i]` rows), and its plain RRF
    with `sparse`."""
    owner = np.repeat(np.arange(len(doc_ids)), counts)

    def dense(qid: str, _text: str, k: int) -> list[str]:
        best = np.full(len(doc_ids), -np.inf)
        np.maximum.at(best, owner, windows @ qvecs[qid])
        return [doc_ids[i] for i in np.argsort(-best, kind="stable")[:k]]

    def fused(qid: str, text: str, k: int) -> list[str]:
        depth = candidate_depth(k)
        lists = [sparse(qid, text, depth), dense(qid, text, depth)]
        return [f.block_id for f in reciprocal_rank_fusion(lists, k=RRF_K, limit=k)]

    return dense, fused


def z_score_ranker(docs: Mapping[str, str], analyzer: Analyzer, bm25: BM25Params, doc_vectors: np.ndarray,
                   qvecs: Mapping[str, np.ndarray]) -> Ranker:
    """Z-score fusion of the product's BM25 and the dense cosines (`doc_vectors` in `docs`' order)."""
    doc_ids = list(docs)
    sparse = SparseIndex(analyzer, bm25).apply([], [(RowKey(d, d, None), t) for d, t in docs.items()])
    row = {doc: i for i, doc in enumerate(doc_ids)}

    def standardised(scores: np.ndarray) -> np.ndarray:
        top = np.sort(scores)[::-1][:Z_DEPTH]
        return (scores - top.mean()) / (top.std() or 1.0)

    def rank(qid: str, text: str, k: int) -> list[str]:
        ranking = sparse.search_ranking(sparse.term_weights(text), len(doc_ids))
        bm25_scores = np.zeros(len(doc_ids))
        bm25_scores[[row[d] for d in ranking.block_ids]] = ranking.scores
        cosines = doc_vectors @ qvecs[qid]
        pool = np.union1d(np.argsort(-bm25_scores, kind="stable")[:Z_DEPTH],
                          np.argsort(-cosines, kind="stable")[:Z_DEPTH])
        fused = (standardised(bm25_scores) + standardised(cosines))[pool]
        return [doc_ids[i] for i in pool[np.argsort(-fused, kind="stable")[:k]]]

    return rank
