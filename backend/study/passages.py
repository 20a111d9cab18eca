"""Passages a generator works from: drawn across the whole scope, diverse, and numbered for the prompt.

A quiz over five documents must not be five questions about the first page of one of them, and two
generations over the same scope should not see the same fixed 15 chunks of a single probe query. So:

- `scope_passages` stratifies: every scoped document gets a share of the budget (a scope with more
  documents than passages wanted samples documents); within a document, candidates are spread evenly
  over its length (in SQL, so a one-document scope reads one document) and then picked with Maximal
  Marginal Relevance — relevance is closeness to the document's centroid (representative content),
  redundancy is cosine similarity between block embeddings; where a document has no vectors (yet),
  term overlap stands in for both. A random phase in the spread and a little jitter on relevance make
  two generations over the same scope see different, equally representative passages.
- `query_passages` serves a workshop lesson: it searches for the lesson's own title within the scope and
  diversifies the hits the same way.

Each passage gets a short key (`P1`, `P2`, ...) that the prompt shows with it; models copy such keys far
more reliably than 36-character block ids.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from backend.retrieval.service import SearchService
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Scope
from backend.store import study_sources as store
from backend.store.db import Database
from backend.study.errors import GenerationFailed

MAX_SCOPE_DOCUMENTS = 200
CANDIDATES_PER_PICK = 3  # candidates read per passage wanted, so MMR has a real choice
MIN_CANDIDATES_PER_DOCUMENT = 6
MMR_LAMBDA = 0.6
RELEVANCE_JITTER = 0.1
PASSAGE_CHARS = 1200  # 16 passages ≈ 5k tokens, leaving room for the answer in NUM_CTX
_analyzer = Analyzer()


@dataclass(frozen=True)
class Passage:
    key: str
    block_id: str
    document_id: str
    filename: str
    page: int | None
    section: str | None
    text: str

    def source(self) -> dict[str, Any]:
        """The grounding the API returns: enough for "from: lecture-3.pdf, p. 12"."""
        return {"block_id": self.block_id, "document_id": self.document_id, "filename": self.filename,
                "page": self.page}


@dataclass(frozen=True)
class _Candidate:
    row: dict[str, Any]
    terms: frozenset[str]
    vector: np.ndarray | None


def _candidate(row: dict[str, Any]) -> _Candidate:
    vector = row.get("embedding")
    as_array = np.asarray(vector.to_numpy(), dtype=np.float32) if vector is not None else None
    return _Candidate(row, frozenset(_analyzer.terms(row["text"])), as_array)


def scope_passages(db: Database, embed_model: str, scope: Scope, count: int) -> list[Passage]:
    """About `count` diverse passages covering every document of the scope (fewer if it is small);
    `GenerationFailed` (empty_scope) when the scope holds no text at all."""
    documents = store.scope_documents(db, sorted(scope.document_ids), sorted(scope.categories),
                                      MAX_SCOPE_DOCUMENTS)
    if not documents:
        raise GenerationFailed("The chosen documents have no text any more (deleted or re-ingesting); "
                               "pick other documents.", code="empty_scope")
    if len(documents) > count:
        documents = random.sample(documents, count)
    per_document = max(MIN_CANDIDATES_PER_DOCUMENT, math.ceil(CANDIDATES_PER_PICK * count / len(documents)))
    rows = store.scope_blocks(db, [d["id"] for d in documents], embed_model, per_document,
                              phase=random.random())
    by_document: dict[str, list[_Candidate]] = {d["id"]: [] for d in documents}
    for row in rows:
        by_document[row["document_id"]].append(_candidate(row))
    quotas = allot(count, {doc: len(cands) for doc, cands in by_document.items()})
    chosen: list[_Candidate] = []
    for doc, candidates in by_document.items():
        relevance = [r + random.uniform(0, RELEVANCE_JITTER) for r in _centrality(candidates)]
        chosen += mmr(candidates, relevance, quotas.get(doc, 0))
    return number(c.row for c in chosen)


def query_passages(search: SearchService, query: str, scope: Scope, count: int) -> list[Passage]:
    """Passages for one topic (a lesson title): the scope's best hits, diversified."""
    hits = search.search(query, CANDIDATES_PER_PICK * count, scope=scope).hits
    rows = [{"id": h.block_id, "document_id": h.document_id, "filename": h.filename, "ordinal": 0,
             "page": h.page, "section": h.section, "text": h.text} for h in hits]
    candidates = [_candidate(row) for row in rows]
    relevance = [1.0 - i / max(1, len(candidates)) for i in range(len(candidates))]
    return number((c.row for c in mmr(candidates, relevance, count)), keep_order=True)


def block_passages(db: Database, embed_model: str, block_ids: Sequence[str], count: int) -> list[Passage]:
    """A diverse subset of known blocks (e.g. everything a workshop's lessons were grounded on)."""
    candidates = [_candidate(row) for row in store.blocks_by_ids(db, list(block_ids), embed_model)]
    return number(c.row for c in mmr(candidates, _centrality(candidates), count))


def allot(total: int, available: dict[str, int]) -> dict[str, int]:
    """Split `total` picks over documents as evenly as their candidates allow (round robin)."""
    quotas = dict.fromkeys(available, 0)
    remaining = total
    while remaining > 0:
        open_docs = [doc for doc, n in available.items() if quotas[doc] < n]
        if not open_docs:
            break
        for doc in open_docs[:remaining]:
            quotas[doc] += 1
        remaining -= min(remaining, len(open_docs))
    return quotas


def mmr(candidates: Sequence[_Candidate], relevance: Sequence[float], k: int) -> list[_Candidate]:
    """Maximal Marginal Relevance: repeatedly take the most relevant candidate least like those taken."""
    use_vectors = bool(candidates) and all(c.vector is not None for c in candidates)
    picked: list[int] = []
    best_sim = [0.0] * len(candidates)
    while len(picked) < min(k, len(candidates)):
        scores = [
            -math.inf if i in picked else MMR_LAMBDA * relevance[i] - (1 - MMR_LAMBDA) * best_sim[i]
            for i in range(len(candidates))
        ]
        choice = max(range(len(candidates)), key=scores.__getitem__)
        picked.append(choice)
        for i, other in enumerate(candidates):
            best_sim[i] = max(best_sim[i], _similarity(candidates[choice], other, use_vectors))
    return [candidates[i] for i in picked]


def _similarity(a: _Candidate, b: _Candidate, use_vectors: bool) -> float:
    if use_vectors and a.vector is not None and b.vector is not None:
        return float(np.dot(a.vector, b.vector))
    if not a.terms or not b.terms:
        return 0.0
    return len(a.terms & b.terms) / len(a.terms | b.terms)


def _centrality(candidates: Sequence[_Candidate]) -> list[float]:
    """How representative each block is of its document: cosine to the centroid, or shared terms."""
    if not candidates:
        return []
    if all(c.vector is not None for c in candidates):
        matrix = np.stack([c.vector for c in candidates if c.vector is not None])
        centroid = matrix.mean(axis=0)
        norm = float(np.linalg.norm(centroid)) or 1.0
        return [float(v) for v in matrix @ (centroid / norm)]
    frequency: dict[str, int] = {}
    for c in candidates:
        for term in c.terms:
            frequency[term] = frequency.get(term, 0) + 1
    scores = [sum(frequency[t] - 1 for t in c.terms) / (len(c.terms) + 10) for c in candidates]
    top = max(scores) or 1.0
    return [s / top for s in scores]


def number(rows: Any, keep_order: bool = False) -> list[Passage]:
    """Give passages their prompt keys, in reading order (document, then position) unless told otherwise."""
    ordered = list(rows) if keep_order else sorted(rows, key=lambda r: (r["filename"], r["document_id"], r["ordinal"]))
    return [
        Passage(key=f"P{i}", block_id=r["id"], document_id=r["document_id"], filename=r["filename"],
                page=r["page"], section=r["section"], text=r["text"][:PASSAGE_CHARS])
        for i, r in enumerate(ordered, start=1)
    ]


def render(passages: Sequence[Passage]) -> str:
    """Passages as quoted data for the prompt, each tagged with its key and where it comes from."""
    parts = []
    for p in passages:
        where = p.filename + (f", p. {p.page}" if p.page else "") + (f" — {p.section}" if p.section else "")
        body = p.text.replace("</passage>", "</ passage>")  # a document cannot close the fence early
        parts.append(f'<passage id="{p.key}" source="{_attr(where)}">\n{body}\n</passage>')
    return "\n\n".join(parts)


def _attr(value: str) -> str:
    return value.replace('"', "'").replace("\n", " ")


def fair_trim(passages: Sequence[Passage]) -> list[Passage]:
    """`passages` less one: the last of the document that has the most (so every document keeps a share
    as long as it can), for a prompt that must fit a smaller model context."""
    counts: dict[str, int] = {}
    for p in passages:
        counts[p.document_id] = counts.get(p.document_id, 0) + 1
    most = max(counts.values(), default=0)
    drop = max((i for i, p in enumerate(passages) if counts[p.document_id] == most), default=None)
    return [p for i, p in enumerate(passages) if i != drop]
