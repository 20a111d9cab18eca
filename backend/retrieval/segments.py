"""Copy-on-write building blocks shared by both channels: immutable segments with tombstones.

A channel's state is a `SegmentStore`: a tuple of immutable `Segment`s (rows = blocks, each with a
channel-specific payload such as a term matrix or a FAISS index), a liveness mask per segment, and a
map from block id to its row. Every change returns a *new* store that shares all untouched segments
with the old one, so a reader holding the old store keeps a consistent view with no lock. Removing a
block only clears its live bit (a tombstone); adding blocks appends a segment; `compact` merges small
segments geometrically (like a binary counter, so a block is copied O(log n) times over its life) and
rewrites a segment once a third of it is dead. `shortlist` and `top_k` pick the best candidates of the
segments with the tie-break both channels share.
"""

from __future__ import annotations

import itertools
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, NamedTuple, TypeVar

import numpy as np

from backend.retrieval.types import Ranking, Scope

K = TypeVar("K")
V = TypeVar("V")
P = TypeVar("P")

_SHARDS = 1024
_ABSENT = object()
_DEAD_FRACTION_TO_REWRITE = 1 / 3
_ROW_BITS = 32
_ROW_MASK = (1 << _ROW_BITS) - 1


class CowMap(Generic[K, V]):
    """A persistent map: `evolve` returns a new map copying only the shards it touches.

    Copying a 100k-entry dict costs ~4 ms per update; with 1024 shards a one-document change copies
    a few dozen small dicts instead.
    """

    __slots__ = ("_shards", "_size")

    def __init__(self, shards: tuple[dict[K, V], ...] | None = None, size: int = 0) -> None:
        self._shards: tuple[dict[K, V], ...] = shards if shards is not None else ({},) * _SHARDS
        self._size = size

    def get(self, key: K, default: V | None = None) -> V | None:
        return self._shards[hash(key) % _SHARDS].get(key, default)

    def get_many(self, keys: Iterable[K]) -> list[V | None]:
        """`get` of each key (None where absent), without a method call per key."""
        shards = self._shards
        return [shards[hash(key) % _SHARDS].get(key) for key in keys]

    def __contains__(self, key: object) -> bool:
        return key in self._shards[hash(key) % _SHARDS]

    def __len__(self) -> int:
        return self._size

    def items(self) -> Iterator[tuple[K, V]]:
        for shard in self._shards:
            yield from shard.items()

    def evolve(self, put: Iterable[tuple[K, V]] = (), delete: Iterable[K] = ()) -> CowMap[K, V]:
        shards = list(self._shards)
        copied = [False] * _SHARDS
        size = self._size
        for key in delete:
            i = hash(key) % _SHARDS
            if not copied[i]:
                shards[i], copied[i] = dict(shards[i]), True
            if shards[i].pop(key, _ABSENT) is not _ABSENT:
                size -= 1
        for key, value in put:
            i = hash(key) % _SHARDS
            if not copied[i]:
                shards[i], copied[i] = dict(shards[i]), True
            shard = shards[i]
            size += key not in shard
            shard[key] = value
        return CowMap(tuple(shards), size)


class Interner:
    """Append-only string → small int codes, shared by all versions of a store (old codes stay valid)."""

    def __init__(self) -> None:
        # A missing key gets the next code from the counter, so `codes` interns at C speed.
        self._codes: defaultdict[str, int] = defaultdict(itertools.count().__next__)
        self._values: list[str] = []  # code → value, extended only when `value` is asked (see there)
        self._lock = threading.Lock()

    def codes(self, values: Iterable[str], count: int) -> np.ndarray:
        """Codes of `count` values (new ones interned), as int32."""
        with self._lock:
            return np.fromiter(map(self._codes.__getitem__, values), dtype=np.int32, count=count)

    def get(self, value: str) -> int | None:
        return self._codes.get(value)

    def own_values(self) -> None:
        """Replace the keys by fresh copies. The values `codes` interns are pieces of short-lived strings
        (a batch's split terms); kept as they are, the few new ones of each batch hold the allocator's
        arenas of the whole batch resident. Worth it after a large batch only: it copies every key."""
        with self._lock:
            self._codes = defaultdict(self._codes.default_factory,
                                      ((value.encode().decode(), code) for value, code in self._codes.items()))
            self._values = []

    def value(self, code: int) -> str:
        """The value of a code. The reverse table catches up here (codes follow the dict's insertion
        order), so stores that never ask — the term vocabulary — never pay for one."""
        values = self._values
        if code >= len(values):
            with self._lock:
                values.extend(itertools.islice(self._codes, len(values), None))
        return values[code]

    def since(self, code: int) -> list[str]:
        """The values interned from `code` on, in code order (codes follow the dict's insertion order)."""
        with self._lock:
            return list(itertools.islice(self._codes, code, None))

    def __len__(self) -> int:
        return len(self._codes)


class RowKey(NamedTuple):
    block_id: str
    document_id: str
    category: str | None


@dataclass(frozen=True, eq=False)
class Segment(Generic[P]):
    uid: int
    block_ids: tuple[str, ...]
    doc_codes: np.ndarray  # int32 per row
    cat_codes: np.ndarray  # int32 per row, -1 = no category
    live: np.ndarray  # bool per row; replaced (never mutated) when rows die
    n_live: int
    payload: P

    @property
    def n_rows(self) -> int:
        return len(self.block_ids)


@dataclass(frozen=True)
class ScopeFilter:
    """A scope resolved to codes once per query; `mask(segment)` is applied before any ranking."""

    doc_codes: np.ndarray
    cat_codes: np.ndarray

    @property
    def admits_nothing(self) -> bool:
        return not len(self.doc_codes) and not len(self.cat_codes)

    def mask(self, segment: Segment[P]) -> np.ndarray:
        out = np.isin(segment.doc_codes, self.doc_codes)
        if len(self.cat_codes):
            out |= np.isin(segment.cat_codes, self.cat_codes)
        return out


Removed = tuple[Segment[P], np.ndarray]  # a segment and the rows of it that were just tombstoned
MergeFn = Callable[[Sequence[tuple[P, np.ndarray]]], P]


def where(loc: int) -> tuple[int, int]:
    """(segment uid, row) of a `SegmentStore.loc` value."""
    return loc >> _ROW_BITS, loc & _ROW_MASK


@dataclass(frozen=True)
class SegmentStore(Generic[P]):
    segments: tuple[Segment[P], ...] = ()
    # block id → segment uid << 32 | row: one int object per block where a (uid, row) tuple took two
    # (32 bytes against 56 + 28). Uids start at 1, so every value is truthy.
    loc: CowMap[str, int] = field(default_factory=CowMap)
    docs: Interner = field(default_factory=Interner)
    cats: Interner = field(default_factory=Interner)
    uids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def n_live(self) -> int:
        return len(self.loc)

    def keys(self, block_ids: Iterable[str]) -> list[RowKey | None]:
        """The row key (block, document, category) of each live block id; None for an id not live here."""
        ids = list(block_ids)
        by_uid = {seg.uid: seg for seg in self.segments}
        out: list[RowKey | None] = []
        for block_id, loc in zip(ids, self.loc.get_many(ids), strict=True):
            if loc is None:
                out.append(None)
                continue
            uid, row = where(loc)
            seg = by_uid[uid]
            cat = int(seg.cat_codes[row])
            out.append(RowKey(block_id, self.docs.value(int(seg.doc_codes[row])),
                              None if cat < 0 else self.cats.value(cat)))
        return out

    def resolve(self, scope: Scope | None) -> ScopeFilter | None:
        """None = no scope (every live row); otherwise the codes the scope names that exist here."""
        if scope is None or scope.is_empty:
            return None
        docs = [c for c in map(self.docs.get, scope.document_ids) if c is not None]
        cats = [c for c in map(self.cats.get, scope.categories) if c is not None]
        return ScopeFilter(np.asarray(docs, dtype=np.int32), np.asarray(cats, dtype=np.int32))

    def admitted(self, segment: Segment[P], scope: ScopeFilter | None) -> np.ndarray | None:
        """Rows a search may return (live and in scope); None means all rows, the fast path."""
        if scope is None:
            return None if segment.n_live == segment.n_rows else segment.live
        rows: np.ndarray = scope.mask(segment) & segment.live
        return rows

    def without(self, block_ids: Iterable[str]) -> tuple[SegmentStore[P], list[Removed[P]]]:
        """Tombstone the given blocks (unknown ids are ignored); returns the rows that died, per segment."""
        dead: dict[int, list[int]] = {}
        gone: list[str] = []
        for block_id in dict.fromkeys(block_ids):  # an id named twice must die (and be counted) once
            loc = self.loc.get(block_id)
            if loc is not None:
                uid, row = where(loc)
                dead.setdefault(uid, []).append(row)
                gone.append(block_id)
        if not gone:
            return self, []
        removed: list[Removed[P]] = []
        segments: list[Segment[P]] = []
        for seg in self.segments:
            rows = dead.get(seg.uid)
            if rows is None:
                segments.append(seg)
                continue
            live = seg.live.copy()
            live[rows] = False
            removed.append((seg, np.asarray(rows, dtype=np.int64)))
            if live.any():
                segments.append(replace(seg, live=live, n_live=int(live.sum())))
        return replace(self, segments=tuple(segments), loc=self.loc.evolve(delete=gone)), removed

    def with_segment(self, keys: Sequence[RowKey], payload: P) -> SegmentStore[P]:
        if not keys:
            return self
        seg = self._segment([k.block_id for k in keys], [k.document_id for k in keys],
                            [k.category for k in keys], payload)
        loc = self.loc.evolve(put=((bid, seg.uid << _ROW_BITS | row) for row, bid in enumerate(seg.block_ids)))
        return replace(self, segments=(*self.segments, seg), loc=loc)

    def _segment(self, block_ids: Sequence[str], docs: Sequence[str], cats: Sequence[str | None],
                 payload: P) -> Segment[P]:
        n = len(block_ids)
        doc_codes = self.docs.codes(docs, n)
        has_cat = np.fromiter((c is not None for c in cats), dtype=bool, count=n)
        cat_codes = np.full(n, -1, dtype=np.int32)
        cat_codes[has_cat] = self.cats.codes((c for c in cats if c is not None), int(has_cat.sum()))
        return Segment(next(self.uids), tuple(block_ids), doc_codes, cat_codes,
                       np.ones(n, dtype=bool), n, payload)

    def compact(self, merge: MergeFn[P]) -> SegmentStore[P]:
        """Rewrite segments that are a third dead, then merge the newest two while of similar size."""
        store = self
        for seg in self.segments:
            if seg.n_live < seg.n_rows * (1 - _DEAD_FRACTION_TO_REWRITE):
                store = store._merged([seg], merge)
        while len(store.segments) >= 2 and 2 * store.segments[-1].n_live >= store.segments[-2].n_live:
            store = store._merged(list(store.segments[-2:]), merge)
        return store

    def _merged(self, group: list[Segment[P]], merge: MergeFn[P]) -> SegmentStore[P]:
        parts = [(seg, np.flatnonzero(seg.live)) for seg in group]
        payload = merge([(seg.payload, rows) for seg, rows in parts])
        merged = Segment(
            next(self.uids),
            tuple(bid for seg, rows in parts for bid in (seg.block_ids[r] for r in rows)),
            np.concatenate([seg.doc_codes[rows] for seg, rows in parts]),
            np.concatenate([seg.cat_codes[rows] for seg, rows in parts]),
            np.ones(sum(len(rows) for _, rows in parts), dtype=bool),
            sum(len(rows) for _, rows in parts),
            payload,
        )
        first = self.segments.index(group[0])
        ids = {seg.uid for seg in group}
        rest = [seg for seg in self.segments if seg.uid not in ids]
        segments = (*rest[:first], merged, *rest[first:])
        loc = self.loc.evolve(put=((bid, merged.uid << _ROW_BITS | row) for row, bid in enumerate(merged.block_ids)))
        return replace(self, segments=segments, loc=loc)


class Shortlist(NamedTuple):
    """One segment's candidates for a top k, still in numpy: candidate i is `block_ids[rows[i]]`."""

    block_ids: Sequence[str]
    rows: np.ndarray
    scores: np.ndarray


def shortlist(scores: np.ndarray, k: int, block_ids: Sequence[str], rows: np.ndarray | None = None,
              slack: float = 0.0) -> Shortlist:
    """The candidates of `scores` that can be among the k best: those scoring at least the k-th best (less
    `slack`), so every candidate tied with it stays for `top_k`'s tie-break. Candidate i is
    `block_ids[rows[i]]` (`block_ids[i]` without `rows`)."""
    if len(scores) > k > 0:
        cut = np.partition(scores, len(scores) - k)[len(scores) - k]
        keep = np.flatnonzero(scores >= cut - slack)
        return Shortlist(block_ids, keep if rows is None else rows[keep], scores[keep])
    return Shortlist(block_ids, np.arange(len(scores)) if rows is None else rows, scores)


def top_k(lists: Iterable[Shortlist], k: int) -> Ranking:
    """The k best candidates of all the lists; equal scores ordered by block id (stable results).

    Ordered by numpy; block ids are looked up only for the k returned and for runs of equal scores that
    reach into them, so a candidate that is thrown away never becomes a Python object. A search calls
    this three times with a few dozen candidates each, so the common cases skip numpy calls whose fixed
    cost dominates there: merging a single list, and looking for ties where the top k + 1 have none.
    """
    lists = [s for s in lists if len(s.rows)]
    if k <= 0 or not lists:
        return Ranking([], [])
    scores = lists[0].scores if len(lists) == 1 else np.concatenate([s.scores for s in lists])
    order = np.argsort(-scores, kind="stable")
    ranked = scores[order]
    ids = _id_lookup(lists, order)
    n = min(k, len(ranked))
    head = ranked[: n + 1].tolist()
    best = Ranking(ids(0, n), head[:n])
    if len(set(head)) == len(head):  # sorted, so equal scores would be neighbours: no run reaches the top n
        return best
    for start, end in _tie_runs(ranked, n):
        stop = min(end, n)
        run_ids, run_scores = ids(start, end), ranked[start:end].tolist()
        by_id = sorted(range(end - start), key=run_ids.__getitem__)[: stop - start]
        best.block_ids[start:stop] = [run_ids[i] for i in by_id]
        best.scores[start:stop] = [run_scores[i] for i in by_id]  # equal, yet 0.0 and -0.0 are two floats
    return best


def _id_lookup(lists: list[Shortlist], order: np.ndarray) -> Callable[[int, int], list[str]]:
    """`ids(start, end)`: the block ids of the candidates ranked start..end - 1, where `order` ranks the
    lists' candidates taken one list after another."""
    if len(lists) == 1:
        table, rows = lists[0].block_ids, lists[0].rows[order]
        return lambda start, end: list(map(table.__getitem__, rows[start:end].tolist()))
    source = np.repeat(np.arange(len(lists)), [len(s.rows) for s in lists])[order]
    rows = np.concatenate([s.rows for s in lists])[order]
    tables = [s.block_ids for s in lists]
    return lambda start, end: [tables[t][r] for t, r in zip(source[start:end].tolist(), rows[start:end].tolist(),
                                                            strict=True)]


def _tie_runs(ranked: np.ndarray, n: int) -> Iterator[tuple[int, int]]:
    """[start, end) of each run of two or more equal scores in `ranked` (best first) that starts before n."""
    breaks = np.flatnonzero(ranked[1:] != ranked[:-1]) + 1  # where a new score begins
    start = 0
    for end in [*breaks[: np.searchsorted(breaks, n) + 1].tolist(), len(ranked)]:  # through the run at n
        if start >= n:
            return
        if end - start > 1:
            yield start, end
        start = end
