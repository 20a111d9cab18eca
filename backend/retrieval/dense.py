"""Dense channel: exact inner product over L2-normalised vectors (cosine), one FAISS IndexFlatIP per segment.

Only blocks that have a vector of the current model are here; the rest are found by BM25 alone. All
vectors share one dimension; a different dimension needs a new, empty `DenseIndex`.

Ranking is exact: the scores returned are fp32 inner products with the stored vectors, and the top k
are the true top k. How a segment is scanned, chosen by measurement on 2 cores at 100,000 × 768:
- a segment of 20,000 rows or more also keeps an int8 *sketch* of its vectors (see `Sketch`): one scan of
  the sketch (8-bit integer dot products, both cores, ~6–7 ms where the fp32 matrix-vector product takes
  ~14 ms) yields every row that can be among the k best by a proven error bound, and only those are
  re-scored exactly;
- smaller segments, or when the sketch cannot prove its pool large enough: one BLAS matrix-vector
  product over the FAISS-owned storage (FAISS's own single-query flat scan runs on one core);
- scope admits at most ~1% of the segment: gather those rows and multiply (0.02 ms at 10 rows, 0.7 ms at
  1,000), since a scan still visits every id to test the selector;
- otherwise the scope and tombstones are applied inside the scan by an `IDSelectorBitmap`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import faiss
import numpy as np

from backend.llm.embedders import l2_normalise
from backend.retrieval.segments import RowKey, Segment, SegmentStore, Shortlist, shortlist, top_k, where
from backend.retrieval.types import Ranking, Scope, ScoredBlock

_GATHER_FRACTION = 0.01
_GATHER_MIN_ROWS = 64
_BUILD_CHUNK = 8192  # rows normalised / quantised at a time, so a build never holds a second full copy
SKETCH_MIN_ROWS = 20_000
# The sketch's rows are split into lists that FAISS's threads take in turn (parallel_mode 1): with 16
# lists on 2 cores, a thread that loses its core to another process delays only its current list.
_SKETCH_LISTS = 16
# First-stage candidates fetched from the sketch: 4k + 256 covers the bound's margin (measured at
# 100,000 × 768: ~170 candidates for k = 28, ~390 for k = 300; more within a scope); if it does not, the
# pool grows 8-fold (another scan).
_SKETCH_MARGIN = 256
_INT8_MAX = 127
# A scan's candidates include every row within this of the k-th best score, and a filtered FAISS scan
# returns this many rows more than k, so that rows tied with the k-th (up to a BLAS rounding) are rescored.
_TIE_SLACK = 1e-5
_TIE_ROWS = 16
_NORM_ROWS = 1024


@dataclass(frozen=True, eq=False)
class Sketch:
    """An int8 copy of a segment's vectors that finds a proven superset of the exact top k.

    Row x is stored as integer codes c = round(x / g) with a per-dimension step g = max|x_t| / 127, and
    e = max over rows of ‖x − g·c‖ is recorded. A query q is likewise turned into integers
    p = round(g·q / h) (h = max|g·q| / 127), so FAISS's 8-bit kernel computes c·p exactly (integer sums
    stay below 2^24) and ŝ = h·(c·p) = (g·c)·q̂ with q̂ = h·p / g. Hence for every row

        |x·q − ŝ| ≤ |(x − g·c)·q| + |(g·c)·(q − q̂)| ≤ e·‖q‖ + (1 + e)·‖q − q̂‖ =: ε  (+ fp32 rounding slack).

    If s_k is the k-th largest ŝ, at least k rows score ≥ s_k − ε exactly, so every row of the exact
    top k (ties included) has ŝ ≥ s_k − 2ε. Those rows — taken from the sketch's best `pool` by ŝ,
    provided the pool's last ŝ is below that threshold, so no qualifying row was left out — are the
    candidates; re-scored in fp32 they give exactly the ranking of a full scan.
    """

    index: faiss.IndexIVFScalarQuantizer
    step: np.ndarray  # (d,) float32 g; 0 for a dimension that is 0 in every row
    error: float  # e

    @property
    def nbytes(self) -> int:
        return int(self.index.ntotal * (self.index.code_size + 8) + self.step.nbytes)

    def candidates(self, q: np.ndarray, k: int, allowed: np.ndarray | None, admitted: int) -> np.ndarray | None:
        """Rows (ascending ŝ order not promised) that may be among the k best; None if not provable."""
        scaled = q * self.step
        h = float(np.abs(scaled).max()) / _INT8_MAX
        if h == 0.0 or k <= 0:
            return None
        p = np.rint(scaled / h).astype(np.float32)
        q_hat = np.divide(h * p, self.step, out=q.astype(np.float32, copy=True), where=self.step > 0)
        q_norm = float(np.linalg.norm(q))
        slack = 4 * len(q) * 2.0**-24 * (1 + self.error) * max(q_norm, 1.0)
        eps = self.error * q_norm + (1 + self.error) * float(np.linalg.norm(q - q_hat)) + slack
        sel = None
        if allowed is not None:
            bits = np.packbits(allowed, bitorder="little")  # referenced by `sel` while this call searches
            sel = faiss.IDSelectorBitmap(len(allowed), faiss.swig_ptr(bits))
        # SWIG classes take their fields as keywords; faiss's stubs do not say so.
        params = faiss.SearchParametersIVF(nprobe=_SKETCH_LISTS, sel=sel)  # type: ignore[call-arg]
        pool = min(admitted, 4 * k + _SKETCH_MARGIN)
        while True:
            scores, ids = self.index.search(p[None, :], pool, params=params)
            found = ids[0] >= 0
            approx, rows = scores[0][found] * h, ids[0][found]
            if len(rows) <= k:
                return np.asarray(rows)
            threshold = approx[k - 1] - 2 * eps
            if approx[-1] < threshold or len(rows) >= admitted:
                return np.asarray(rows[approx >= threshold])
            if pool >= admitted:
                return None
            pool = min(admitted, pool * 8)


def _sketch(matrix: np.ndarray) -> Sketch:
    n, d = matrix.shape
    peak = np.zeros(d, dtype=np.float32)
    for start in range(0, n, _BUILD_CHUNK):
        np.maximum(peak, np.abs(matrix[start:start + _BUILD_CHUNK]).max(axis=0), out=peak)
    step = peak / _INT8_MAX
    divisor = np.where(step > 0, step, 1.0).astype(np.float32)
    quantizer = faiss.IndexFlatIP(d)
    quantizer.add(np.zeros((_SKETCH_LISTS, d), dtype=np.float32))  # lists are assigned by row number
    index = faiss.IndexIVFScalarQuantizer(quantizer, d, _SKETCH_LISTS, faiss.ScalarQuantizer.QT_8bit_direct_signed,
                                          faiss.METRIC_INNER_PRODUCT, False)
    index.train(np.zeros((1, d), dtype=np.float32))  # nothing to learn for direct codes
    index.parallel_mode = 1
    error = 0.0
    for start in range(0, n, _BUILD_CHUNK):
        chunk = matrix[start:start + _BUILD_CHUNK]
        codes = np.rint(chunk / divisor).astype(np.float32)
        error = max(error, float(np.linalg.norm(chunk - codes * step, axis=1).max()))
        rows = np.arange(start, start + len(chunk), dtype=np.int64)
        lists = rows * _SKETCH_LISTS // n
        index.add_core(len(chunk), faiss.swig_ptr(codes), faiss.swig_ptr(rows), faiss.swig_ptr(lists))
    return Sketch(index, step, error)  # faiss's wrapper keeps `quantizer` alive with `index`


@dataclass(frozen=True, eq=False)
class Vectors:
    """One segment's payload: a flat IP index, a zero-copy view of its storage, and (if large) a sketch."""

    index: faiss.IndexFlatIP
    matrix: np.ndarray  # (rows, d) float32, owned by `index`; valid because the index is never modified
    sketch: Sketch | None

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes + (self.sketch.nbytes if self.sketch is not None else 0))


def _vectors(vectors: Sequence[np.ndarray] | np.ndarray, dimension: int, normalised: bool = False) -> Vectors:
    """Normalised copies of `vectors` (rows, or one (n, d) array), added chunk by chunk; `normalised` rows
    (a merge of segments) are copied as they are: normalised again, a unit vector could move a last bit."""
    n = len(vectors)
    index = faiss.IndexFlatIP(dimension)
    for start in range(0, n, _BUILD_CHUNK):
        chunk = vectors[start:start + _BUILD_CHUNK]
        index.add(np.array(chunk, dtype=np.float32) if normalised else _normalised_copy(chunk))
    if not n:
        return Vectors(index, np.zeros((0, dimension), np.float32), None)
    view = faiss.rev_swig_ptr(index.get_xb(), n * dimension).reshape(n, dimension)
    return Vectors(index, view, _sketch(view) if n >= SKETCH_MIN_ROWS else None)


def _normalised_copy(rows: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """Unit-length copies of `rows`, the same bits for a vector wherever it sits: each norm is summed in
    float64, row by row (a float32 SIMD sum depends on the row's alignment in memory, so a vector normalised
    in another batch — ingestion's against a startup build's — came out a last bit apart, and so did its
    cosines). In slices of `_NORM_ROWS`, so the float64 squares stay small."""
    out = np.array(rows, dtype=np.float32)  # always a copy: the caller's rows are never modified
    for start in range(0, len(out), _NORM_ROWS):
        part = out[start:start + _NORM_ROWS]
        norms = np.sqrt(np.square(part, dtype=np.float64).sum(axis=1))
        norms[norms == 0] = 1.0
        part[...] = part / norms[:, None]
    return out


def _merge(parts: Sequence[tuple[Vectors, np.ndarray]]) -> Vectors:
    return _vectors(np.concatenate([p.matrix[rows] for p, rows in parts]), parts[0][0].matrix.shape[1],
                    normalised=True)


class DenseIndex:
    """Cosine search over live blocks' vectors. Immutable: `apply` returns the next version."""

    def __init__(self, dimension: int | None = None) -> None:
        self._dimension = dimension
        self._store: SegmentStore[Vectors] = SegmentStore()

    def _evolve(self, store: SegmentStore[Vectors], dimension: int | None) -> DenseIndex:
        nxt = object.__new__(DenseIndex)
        nxt._dimension, nxt._store = dimension, store
        return nxt

    @property
    def dimension(self) -> int | None:
        return self._dimension

    def __len__(self) -> int:
        return self._store.n_live

    def __contains__(self, block_id: object) -> bool:
        return block_id in self._store.loc

    @property
    def nbytes(self) -> int:
        return sum(s.payload.nbytes for s in self._store.segments)

    @property
    def segment_count(self) -> int:
        return len(self._store.segments)

    def vectors(self, block_ids: Iterable[str]) -> np.ndarray:
        """The stored (normalised) vectors of those of `block_ids` that have one, in order."""
        return self._rows(block_ids)[1]

    def rank(self, query: np.ndarray, block_ids: Iterable[str], k: int) -> Ranking:
        """The k best of `block_ids` (those with a vector; repeats count once) by exact cosine with `query`."""
        ids, matrix = self._rows(dict.fromkeys(block_ids))
        if k <= 0 or not ids:
            return Ranking([], [])
        unit = l2_normalise(query)[0]
        return top_k([shortlist(_exact(matrix, np.arange(len(ids)), unit), k, ids)], k)

    def _rows(self, block_ids: Iterable[str]) -> tuple[list[str], np.ndarray]:
        """(ids that have a vector, their vectors). Callers ask for a few hundred rows at most: copying them
        one by one costs less than masks and fancy indexes per segment once there are a few segments; from
        a single segment (a settled index) one fancy index is cheaper still."""
        ids = list(block_ids)
        locs = self._store.loc.get_many(ids)  # `SegmentStore.loc` values, which are truthy, or None
        found = list(itertools.compress(ids, locs))
        if not found:
            return [], np.zeros((0, self._dimension or 0), dtype=np.float32)
        segments = self._store.segments
        if len(segments) == 1:
            rows = np.fromiter((where(loc)[1] for loc in filter(None, locs)), dtype=np.intp, count=len(found))
            return found, segments[0].payload.matrix.take(rows, axis=0)  # `take`: a fancy index's copy, faster
        matrices = {seg.uid: seg.payload.matrix for seg in segments}
        vectors = [matrices[uid][row] for uid, row in map(where, filter(None, locs))]
        return found, np.concatenate(vectors).reshape(len(found), -1)

    def apply(self, remove: Iterable[str], add: Sequence[RowKey],
              vectors: np.ndarray | Sequence[np.ndarray] | None = None) -> DenseIndex:
        """Next version: `remove` gone, `add[i]` carrying `vectors[i]` (replacing any earlier vector).

        `vectors` is an (n, d) array or a sequence of n rows (rows are copied chunk by chunk, so a large
        build never holds a stacked copy next to the index's own).
        """
        add_ids = [key.block_id for key in add]
        store, _ = self._store.without([*remove, *add_ids])
        dimension = self._dimension
        if add:
            width = _width(vectors, len(add))
            if dimension is not None and width != dimension:
                raise ValueError(f"vectors have dimension {width}, this index {dimension}")
            dimension = width
            store = store.with_segment(add, _vectors(vectors, width))  # type: ignore[arg-type]
        return self._evolve(store.compact(_merge), dimension)

    def search(self, query: np.ndarray, k: int, scope: Scope | None = None) -> list[ScoredBlock]:
        if k <= 0 or not len(self) or self._dimension is None:
            return []
        return self.search_ranking(l2_normalise(query)[0], k, scope).scored()

    def search_ranking(self, unit_query: np.ndarray, k: int, scope: Scope | None = None) -> Ranking:
        """`search` for a query already normalised by `l2_normalise`, as a `Ranking`."""
        if k <= 0 or not len(self) or self._dimension is None:
            return Ranking([], [])
        if unit_query.shape[0] != self._dimension:
            raise ValueError(f"query has dimension {unit_query.shape[0]}, index {self._dimension}")
        scoped = self._store.resolve(scope)
        if scoped is not None and scoped.admits_nothing:
            return Ranking([], [])
        return top_k([self._search_segment(seg, unit_query, k, self._store.admitted(seg, scoped))
                      for seg in self._store.segments], k)

    @staticmethod
    def _search_segment(seg: Segment[Vectors], q: np.ndarray, k: int,
                        allowed: np.ndarray | None) -> Shortlist:
        """The segment's candidates for the k best, their scores computed by `_exact` (see there)."""
        found = DenseIndex._scan(seg, q, k, allowed)
        return shortlist(_exact(seg.payload.matrix, found.rows, q), k, seg.block_ids, found.rows)

    @staticmethod
    def _scan(seg: Segment[Vectors], q: np.ndarray, k: int, allowed: np.ndarray | None) -> Shortlist:
        """Every row that may be among the k best (those within `_TIE_SLACK` of the k-th score included)."""
        matrix, sketch = seg.payload.matrix, seg.payload.sketch
        admitted = seg.n_rows
        if allowed is not None:
            rows = np.flatnonzero(allowed)
            admitted = len(rows)
            if admitted <= _GATHER_FRACTION * seg.n_rows + _GATHER_MIN_ROWS:  # also when none is
                return shortlist(matrix[rows] @ q, k, seg.block_ids, rows, _TIE_SLACK)
        if sketch is not None:
            found = sketch.candidates(q, k, allowed, admitted)
            if found is not None:
                return shortlist(matrix[found] @ q, k, seg.block_ids, found, _TIE_SLACK)
        if allowed is None:
            return shortlist(matrix @ q, k, seg.block_ids, None, _TIE_SLACK)
        bits = np.packbits(allowed, bitorder="little")
        selector = faiss.IDSelectorBitmap(seg.n_rows, faiss.swig_ptr(bits))
        params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]  # SWIG fields as keywords
        scores, ids = seg.payload.index.search(q[None, :], min(k + _TIE_ROWS, admitted), params=params)
        found = ids[0] >= 0
        return shortlist(scores[0][found], k, seg.block_ids, ids[0][found].astype(np.int64), _TIE_SLACK)


def _exact(matrix: np.ndarray, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Cosines of `rows` computed the same way whatever a row's position, segment or process: a BLAS product
    sums a row in an order that depends on where the row sits in the matrix, so two blocks with the same
    vector (the same file in two categories) scored a last bit apart, and which came first differed between
    two processes whose segments differ. Summed here in float64 row by row (numpy's pairwise sum over a
    contiguous row) and rounded to float32, equal vectors score equal, and `top_k` orders them by block id."""
    exact: np.ndarray = (matrix[rows].astype(np.float64) * q.astype(np.float64)).sum(axis=1).astype(np.float32)
    return exact


def _width(vectors: np.ndarray | Sequence[np.ndarray] | None, n: int) -> int:
    """The dimension of `vectors` after checking there is one row of one width per added block."""
    if vectors is None or len(vectors) != n:
        raise ValueError("apply needs one vector per added block")
    if isinstance(vectors, np.ndarray):
        if vectors.ndim != 2:
            raise ValueError("apply needs one vector per added block")
        return int(vectors.shape[1])
    widths = {np.shape(v) for v in vectors}
    if len(widths) != 1 or len(next(iter(widths))) != 1:
        raise ValueError("apply needs vectors of one dimension")
    return int(next(iter(widths))[0])
