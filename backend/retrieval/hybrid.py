"""The in-memory hybrid index over live blocks: BM25 and dense channels fused by Reciprocal Rank Fusion.

All state sits in one immutable `_Snapshot` (block metadata, both channels). A writer (serialised by a
lock) builds the next snapshot from the current one, sharing everything it does not touch, and swaps a
single reference; a reader takes that reference once and searches it without a lock. So a search sees
each `replace_documents` call entirely or not at all, never half of it, and never blocks on a writer.

Blocks are indexed text-first; vectors may come with the blocks (a rebuild from the blocks table) or
later in batches (`set_embeddings`, as the ingestion embed step lands). The index is derived state: it
can always be rebuilt from the blocks table.

What a hit shows besides its ranking (text, filename, page, ...) is a `BlockDetails`. Given a
`CopiesSource` (the service reads them from Postgres for the hits of each search, with the other places of
their documents holding the same text: backend/retrieval/repeats.py), the index holds none of it: per block
it keeps only the channels' rows, its id and its document's and category's codes. Without one (tests,
scripts/eval_retrieval.py), it keeps every block's details in memory.
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TypedDict, TypeVar

import numpy as np

from backend.llm.embedders import l2_normalise
from backend.retrieval import pipeline
from backend.retrieval.bm25 import BM25Params, KeywordStatistics
from backend.retrieval.dense import DenseIndex
from backend.retrieval.fusion import RRF_K, Fused, reciprocal_rank_fusion
from backend.retrieval.names import NamedDocument, name_terms
from backend.retrieval.segments import CowMap, RowKey
from backend.retrieval.sparse import SparseIndex
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import (
    BlockDetails,
    CopiesSource,
    Copy,
    Hit,
    IndexedBlock,
    Ranking,
    Scope,
    SearchMode,
)

A = TypeVar("A")
B = TypeVar("B")
_PARALLEL_BUILD_ROWS = 20_000  # vectors in one change from which the dense channel is built in parallel
# Per-block cost of Python objects (block id, map entries, docs' id tuples) for the memory estimate,
# measured by scripts/bench_search.py --breakdown; details held in memory add their own size.
_BLOCK_OVERHEAD_BYTES = 300
_DETAILS_OVERHEAD_BYTES = 400  # a `BlockDetails` tuple, its strings' headers and its map entry


class IndexStats(TypedDict):
    blocks: int
    embedded_blocks: int
    dimension: int | None
    documents: int
    memory_bytes: int  # estimate: channel arrays exact, Python objects approximated
    sparse_segments: int
    dense_segments: int


@dataclass(frozen=True)
class _Snapshot:
    docs: CowMap[str, tuple[str, ...]]  # document id → its live block ids
    names: CowMap[str, tuple[frozenset[str], str | None]]  # document id → its name's terms, its category
    sparse: SparseIndex  # every live block has a row here: the index's list of live blocks
    dense: DenseIndex
    details: CowMap[str, BlockDetails]  # live blocks' details, only when the index has no `CopiesSource`
    detail_chars: int  # their texts' length, for the memory estimate


@dataclass(frozen=True)
class DenseFeedback:
    """Pseudo-relevance feedback for the dense channel (Rocchio on vectors), in hybrid mode — not shipped.

    It was the default until it scored below plain RRF on a collection it was not tuned on (nDCG@10
    0.424 against 0.441): it gains on Cranfield, where it was tuned, and the gain does not carry over.
    scripts/eval_retrieval.py keeps it as a comparison row. What it does and measured:

    After a first fusion, the vectors of the top `blocks` fused hits are averaged and added to the query
    vector with `weight`, and the candidates are ranked again by that vector before the final fusion.
    The first fusion already reflects BM25's agreement, so the feedback pulls the dense query toward
    passages both channels like. Measured on Cranfield (scripts/eval_retrieval.py): plain RRF nDCG@10
    0.4191, with feedback 0.4345; `blocks` = 3 and `weight` = 2 were chosen on the odd-numbered queries
    (0.4225 → 0.4494) and hold on the even ones, not used for tuning (0.4156 → 0.4195).

    `pool`: the fed-back vector ranks only the first dense scan's best `pool` blocks plus BM25's
    candidates (exact cosines of those rows) instead of every vector again — a second full dense scan
    was half of a query's time at 100,000 blocks. Cranfield nDCG@10 (all / odd / even queries): pool 40
    0.4320 / 0.4466 / 0.4172, 100 0.4338 / 0.4493 / 0.4182, 200 0.4339 / 0.4494 / 0.4183, 500 or more
    0.4345, the same as `None` (scan everything). 100 keeps all but 0.0007 of the gain; note that
    Cranfield has 1,400 documents, so its pool is a larger share of the collection than in a big vault.
    At 100,000 blocks (scripts/bench_search.py, load ~2) hybrid p50 was 15.2 ms with 200, 14.8 with 100,
    13.6 with 40: the first dense search must return `pool` ranked blocks.
    """

    blocks: int = 3
    weight: float = 2.0
    pool: int | None = 100

    def depth(self, depth: int) -> int:
        """How many dense results the first scan must return for the feedback's pool."""
        return depth if self.pool is None else max(depth, self.pool)

    def search(self, dense: DenseIndex, unit_query: np.ndarray, fused: list[Fused], depth: int,
               scope: Scope | None, pool: Sequence[str]) -> Ranking | None:
        """The dense channel's list for the fed-back vector; None if none of the top hits has a vector.

        `unit_query` is the query vector as `l2_normalise` returns it (the first dense scan's query).
        """
        top = dense.vectors(f.block_id for f in fused[: self.blocks])
        if not len(top):
            return None
        vector = unit_query + self.weight * (top.sum(axis=0) / len(top))  # `mean`, bit for bit, without its wrapper
        if self.pool is None:
            return dense.search_ranking(l2_normalise(vector)[0], depth, scope)
        return dense.rank(vector, pool, depth)


class HybridIndex:
    """Thread-safe hybrid index; writers are serialised, readers never wait."""

    def __init__(self, analyzer: Analyzer | None = None, bm25: BM25Params | None = None,
                 rrf_k: int = RRF_K, feedback: DenseFeedback | None = None,
                 details: CopiesSource | None = None, fuzzy: bool = True) -> None:
        self.analyzer = analyzer or Analyzer()
        self.rrf_k = rrf_k
        self.feedback = feedback
        self.fuzzy = fuzzy  # False: no typo is corrected (kept to measure the fuzzy channel against)
        self.details_source = details
        self._lock = threading.Lock()
        self._snapshot = _Snapshot(CowMap(), CowMap(), SparseIndex(self.analyzer, bm25), DenseIndex(), CowMap(), 0)

    # -- writers ---------------------------------------------------------------------------------

    def replace_documents(self, changes: Mapping[str, Sequence[IndexedBlock]]) -> None:
        """Make each document's live blocks exactly the given ones (empty = document removed), atomically.

        A block's vector is indexed if it comes with one (`embedding`); otherwise the block is searchable
        by BM25 only until `set_embeddings` supplies it. Vectors of another dimension than the dense
        channel's start a new, empty dense channel (a model change; older vectors are dropped).
        """
        with self._lock:
            snap = self._snapshot
            added = _validated(snap, changes)
            removed = [bid for doc in changes for bid in (snap.docs.get(doc) or ())]
            # The strings the index keeps, copied once and shared by both channels and `docs` (see `_own`).
            ids = [_own(b.id) for b in added]
            names = {name: _own(name) for b in added for name in (b.document_id, b.category) if name is not None}
            keys = [RowKey(bid, names[b.document_id], b.category and names[b.category])
                    for bid, b in zip(ids, added, strict=True)]
            with_vec = [(key, b.embedding) for key, b in zip(keys, added, strict=True)
                        if b.embedding is not None]
            dense, sparse = _both(
                functools.partial(_next_dense, snap.dense, removed, with_vec),
                functools.partial(snap.sparse.apply, removed, list(zip(keys, (b.text for b in added), strict=True)),
                                  terms=[b.terms for b in added]),
                parallel=len(with_vec) >= _PARALLEL_BUILD_ROWS,
            )
            details, chars = snap.details, snap.detail_chars
            if self.details_source is None:
                chars -= sum(len(d.text) for d in snap.details.get_many(removed) if d is not None)
                chars += sum(len(b.text) for b in added)
                details = details.evolve(put=((b.id, _details(b)) for b in added), delete=removed)
            gone = [d for d, bl in changes.items() if not bl]
            self._snapshot = _Snapshot(
                docs=snap.docs.evolve(put=_documents(changes, ids, names), delete=gone),
                names=snap.names.evolve(put=((names[doc], (name_terms(self.analyzer, bl[0].filename), bl[0].category))
                                             for doc, bl in changes.items() if bl), delete=gone),
                sparse=sparse,
                dense=dense,
                details=details,
                detail_chars=chars,
            )

    def set_embeddings(self, block_ids: Sequence[str], vectors: np.ndarray) -> int:
        """Attach vectors (row i for block_ids[i]) to live blocks; returns how many were attached.

        Ids that are no longer live (their document was replaced meanwhile) are skipped, so a late batch
        never resurrects an old version. A vector for a block that has one replaces it.
        """
        vectors = _stack(vectors)
        if len(block_ids) != len(vectors):
            raise ValueError("one vector per block id")
        with self._lock:
            snap = self._snapshot
            live = snap.sparse.keys(block_ids)
            keep = [i for i, key in enumerate(live) if key is not None]
            if not keep:
                return 0
            keys = [key for key in live if key is not None]
            dense = _fit(snap.dense, vectors.shape[1]).apply([], keys, vectors[keep])
            self._snapshot = replace(snap, dense=dense)
            return len(keep)

    def clear_embeddings(self) -> None:
        """Drop every vector (the embedding model changed); BM25 keeps serving until vectors return."""
        with self._lock:
            self._snapshot = replace(self._snapshot, dense=DenseIndex())

    # -- readers ---------------------------------------------------------------------------------

    def search(self, query: str, k: int, scope: Scope | None = None, mode: SearchMode = "hybrid",
               query_vector: np.ndarray | None = None) -> list[Hit]:
        """`pipeline.search` over the index as it is now (one snapshot for the whole search)."""
        return pipeline.search(self.view(), query, k, scope, mode, query_vector)

    def view(self) -> pipeline.SearchView:
        """The index as it is now, as `pipeline` reads it (for one search, or one query's `prepare`)."""
        return _View(self, self._snapshot)

    def keyword_statistics(self, terms: Sequence[str]) -> KeywordStatistics:
        """BM25's statistics of these terms in the index as it is now."""
        return self._snapshot.sparse.statistics(terms)

    def copies_in(self, snap: _Snapshot, block_ids: Sequence[str]) -> Mapping[str, Sequence[Copy]]:
        """The live ones of `block_ids`, each with its document's live blocks of the same text. From the
        source, a block that is no longer live there (deleted or replaced by another process, whose change
        this index has not applied yet) is missing, and so is its hit: its text is never shown."""
        if self.details_source is not None:
            return self.details_source(block_ids)
        out: dict[str, list[Copy]] = {}
        for bid, details in zip(block_ids, snap.details.get_many(block_ids), strict=True):
            if details is None:
                continue
            # The very same text, as the served index's source finds copies (migration 0020).
            siblings = snap.docs.get(details.document_id) or ()
            out[bid] = [Copy(sid, d) for sid, d in zip(siblings, snap.details.get_many(siblings), strict=True)
                        if d is not None and d.text == details.text]
        return out

    def __len__(self) -> int:
        """Live blocks."""
        return len(self._snapshot.sparse)

    def document_ids(self) -> frozenset[str]:
        return frozenset(doc for doc, _ in self._snapshot.docs.items())

    @property
    def dense_bytes(self) -> int:
        """Bytes of the dense channel's vectors and sketches (held by FAISS, outside Python objects)."""
        return self._snapshot.dense.nbytes

    def stats(self) -> IndexStats:
        snap = self._snapshot
        n = len(snap.sparse)
        memory = (snap.sparse.nbytes + snap.dense.nbytes + n * _BLOCK_OVERHEAD_BYTES
                  + snap.detail_chars + len(snap.details) * _DETAILS_OVERHEAD_BYTES)
        return IndexStats(blocks=n, embedded_blocks=len(snap.dense), dimension=snap.dense.dimension,
                          documents=len(snap.docs), memory_bytes=memory,
                          sparse_segments=snap.sparse.segment_count, dense_segments=snap.dense.segment_count)


def _validated(snap: _Snapshot, changes: Mapping[str, Sequence[IndexedBlock]]) -> list[IndexedBlock]:
    """The blocks to add, after checking they belong where they claim and collide with nothing."""
    added: list[IndexedBlock] = []
    seen: set[str] = set()
    for doc, blocks in changes.items():
        for b in blocks:
            if b.document_id != doc:
                raise ValueError(f"block {b.id} belongs to {b.document_id}, given under {doc}")
            if b.id in seen:
                raise ValueError(f"block id {b.id} given twice")
            seen.add(b.id)
            added.append(b)
    for b, owner in zip(added, snap.sparse.keys(b.id for b in added), strict=True):
        if owner is not None and owner.document_id not in changes:
            raise ValueError(f"block id {b.id} is already live in document {owner.document_id}")
    return added


def _both(first: Callable[[], A], second: Callable[[], B], parallel: bool) -> tuple[A, B]:
    """Both results; with `parallel`, `first` runs on another thread meanwhile (for a startup build: the
    dense channel is mostly FAISS and numpy, which release the GIL, so it uses the second core)."""
    if not parallel:
        return first(), second()
    with ThreadPoolExecutor(1) as background:
        job = background.submit(first)
        other = second()
        return job.result(), other


def _next_dense(dense: DenseIndex, removed: list[str], with_vec: list[tuple[RowKey, np.ndarray]]) -> DenseIndex:
    if not with_vec:
        return dense.apply(removed, [])
    dense = _fit(dense, len(with_vec[0][1]))
    return dense.apply(removed, [key for key, _ in with_vec], [v for _, v in with_vec])


def _own(text: str) -> str:
    """A fresh copy of `text`. The index keeps each block id for the block's life; the caller's string was
    allocated among the short-lived objects of a batch read from Postgres, and a few survivors per
    allocator arena keep whole arenas resident after the batch is gone (measured at 50,000 blocks:
    78 MiB of arenas kept for 14.5 MB of live objects). Copies made here sit together."""
    return text.encode().decode()


def _documents(changes: Mapping[str, Sequence[IndexedBlock]], ids: list[str],
               names: dict[str, str]) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(document id, its block ids) for `docs`, as copied by `_own` (`ids`: the added blocks' in order)."""
    owned = iter(ids)
    for doc, blocks in changes.items():
        if blocks:
            yield names[doc], tuple(itertools.islice(owned, len(blocks)))


def _details(block: IndexedBlock) -> BlockDetails:
    return BlockDetails(block.document_id, block.filename, block.page, block.section, block.kind, block.text,
                        block.page_label, block.document_kind, block.ordinal)


def _stack(vectors: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    out = np.asarray(vectors if isinstance(vectors, np.ndarray) else np.stack(vectors), dtype=np.float32)
    if out.ndim != 2:
        raise ValueError("vectors must form an (n, d) array")
    return out


def _fit(dense: DenseIndex, dimension: int) -> DenseIndex:
    """The dense channel to add `dimension`-d vectors to: a new empty one if the dimension changed."""
    return dense if dense.dimension in (None, dimension) else DenseIndex()


class _View:
    """One snapshot of a `HybridIndex` as `pipeline.search` reads it."""

    def __init__(self, index: HybridIndex, snap: _Snapshot) -> None:
        self.index, self.snap = index, snap

    @property
    def analyzer(self) -> Analyzer:
        return self.index.analyzer

    @property
    def params(self) -> BM25Params:
        return self.snap.sparse.params

    def statistics(self, terms: Sequence[str]) -> KeywordStatistics:
        return self.snap.sparse.statistics(terms)

    def similar_terms(self, terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        if not self.index.fuzzy:
            return {}
        return {term: self.snap.sparse.fuzzy.similar(term) for term in terms}

    def rankings(self, weights: dict[str, float], unit: np.ndarray | None, depth: int, scope: Scope | None,
                 mode: SearchMode) -> tuple[Ranking, Ranking]:
        """BM25's list and the dense one; in hybrid mode with feedback the dense list is as long as the
        feedback's pool."""
        sparse = self.snap.sparse.search_ranking(weights, depth, scope) if weights else pipeline.NO_RANKING
        if unit is None or unit.shape[0] != self.snap.dense.dimension:
            return sparse, pipeline.NO_RANKING
        feedback = self.index.feedback if mode == "hybrid" else None
        return sparse, self.snap.dense.search_ranking(unit, depth if feedback is None else feedback.depth(depth),
                                                      scope)

    def documents_named(self, terms: Sequence[str]) -> list[NamedDocument]:
        wanted = set(terms)
        return sorted(NamedDocument(doc, category, held & wanted) for doc, (held, category) in self.snap.names.items()
                      if not wanted.isdisjoint(held))

    def ranking_within(self, weights: dict[str, float], document_ids: Sequence[str], depth: int) -> Ranking:
        return self.snap.sparse.search_ranking(weights, depth, Scope(document_ids=frozenset(document_ids)))

    def leading_blocks(self, document_ids: Sequence[str], depth: int) -> Ranking:
        lists = [self.snap.docs.get(doc) or () for doc in sorted(document_ids)]  # each in reading order
        ids = [bid for turn in itertools.zip_longest(*lists) for bid in turn if bid is not None][:depth]
        return Ranking(ids, [0.0] * len(ids))

    def fuse(self, sparse: Ranking, dense: Ranking, fuzzy: Ranking, unit: np.ndarray | None, depth: int,
             scope: Scope | None) -> list[Fused]:
        """RRF over the three lists, every candidate ranked; with feedback, the dense list is first re-ranked
        by the vector fed back from the top of a first fusion (of which only those top blocks are built)."""
        ids = dense.block_ids[:depth]
        feedback = self.index.feedback
        if feedback is not None and ids and unit is not None:
            first = self._fuse([sparse.block_ids, ids, fuzzy.block_ids], feedback.blocks)
            fed_back = feedback.search(self.snap.dense, unit, first, depth, scope, dense.block_ids + sparse.block_ids)
            if fed_back is not None:
                ids = fed_back.block_ids or ids
        return self._fuse([sparse.block_ids, ids, fuzzy.block_ids], None)

    def _fuse(self, lists: list[list[str]], limit: int | None) -> list[Fused]:
        return reciprocal_rank_fusion(lists, k=self.index.rrf_k, limit=limit)

    def copies(self, block_ids: Sequence[str]) -> Mapping[str, Sequence[Copy]]:
        return self.index.copies_in(self.snap, block_ids)
