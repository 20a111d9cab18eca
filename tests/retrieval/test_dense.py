"""Dense channel: exact cosine ranking on every scan path, scope inside the channel, incremental updates."""

from __future__ import annotations

import numpy as np
import pytest

from backend.retrieval.dense import SKETCH_MIN_ROWS, DenseIndex
from backend.retrieval.segments import RowKey
from backend.retrieval.types import Scope


def keys(ids: range | list[int], doc_of=lambda i: f"d{i % 50}", cat_of=lambda i: None) -> list[RowKey]:
    return [RowKey(f"b{i}", doc_of(i), cat_of(i)) for i in ids]


def unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def brute_force(vectors: dict[str, np.ndarray], query: np.ndarray, k: int) -> list[str]:
    q = query / np.linalg.norm(query)
    scored = sorted(((-float(v @ q), bid) for bid, v in vectors.items()))
    return [bid for _, bid in scored[:k]]


def test_nearest_by_cosine_with_hand_made_vectors() -> None:
    vecs = np.array([[1, 0, 0], [0.9, 0.1, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)
    idx = DenseIndex().apply([], keys(range(4)), vecs * 5)  # unnormalised input is normalised
    hits = idx.search(np.array([1, 0.05, 0]), 3)
    assert [h.block_id for h in hits] == ["b0", "b1", "b2"]
    assert hits[0].score == pytest.approx(1 / np.sqrt(1 + 0.05**2), rel=1e-5)
    assert idx.dimension == 3
    assert len(idx) == 4


@pytest.mark.parametrize("scope_docs", [1, 3, 30, 50])  # gather path, FAISS selector path, everything
def test_scoped_search_matches_brute_force_on_every_path(scope_docs: int) -> None:
    rng = np.random.default_rng(0)
    vecs = unit(rng.standard_normal((5000, 16)).astype(np.float32))
    idx = DenseIndex().apply([], keys(range(5000)), vecs)
    docs = frozenset(f"d{i}" for i in range(scope_docs))
    admitted = {f"b{i}": vecs[i] for i in range(5000) if f"d{i % 50}" in docs}
    query = rng.standard_normal(16)
    got = [h.block_id for h in idx.search(query, 25, Scope(document_ids=docs))]
    assert got == brute_force(admitted, query, 25)


def test_scope_admits_a_block_that_ranks_last_globally() -> None:
    rng = np.random.default_rng(1)
    vecs = unit(np.abs(rng.standard_normal((800, 8))).astype(np.float32) + 1.0)
    far = -np.ones((1, 8), dtype=np.float32)  # the opposite direction of everything else
    idx = DenseIndex().apply([], [*keys(range(800)), RowKey("far", "scoped", None)], np.vstack([vecs, far]))
    query = np.ones(8)
    assert [h.block_id for h in idx.search(query, 801)][-1] == "far"
    assert [h.block_id for h in idx.search(query, 3, Scope(document_ids=frozenset({"scoped"})))] == ["far"]


def test_category_scope() -> None:
    vecs = np.eye(4, dtype=np.float32)
    idx = DenseIndex().apply([], keys(range(4), cat_of=lambda i: "even" if i % 2 == 0 else "odd"), vecs)
    hits = idx.search(np.array([0.2, 1, 0.5, 0]), 4, Scope(categories=frozenset({"even"})))
    assert [h.block_id for h in hits] == ["b2", "b0"]


def test_incremental_adds_removes_and_replacements_match_brute_force() -> None:
    rng = np.random.default_rng(2)
    idx = DenseIndex()
    live: dict[str, np.ndarray] = {}
    for step in range(80):
        ids = rng.choice(2000, size=20, replace=False).tolist()
        vecs = unit(rng.standard_normal((20, 12)).astype(np.float32))
        gone = [f"b{i}" for i in rng.choice(2000, size=10, replace=False)]
        idx = idx.apply(gone, keys(ids), vecs)
        for bid in gone:
            live.pop(bid, None)
        live.update({f"b{i}": v for i, v in zip(ids, vecs, strict=True)})
        if step % 20 == 19:
            query = rng.standard_normal(12)
            assert [h.block_id for h in idx.search(query, 30)] == brute_force(live, query, 30)
    assert len(idx) == len(live)
    assert idx.segment_count <= 12


def test_tombstoned_rows_never_come_back_on_the_selector_path() -> None:
    vecs = unit(np.random.default_rng(3).standard_normal((3000, 8)).astype(np.float32))
    idx = DenseIndex().apply([], keys(range(3000)), vecs)
    removed = {f"b{i}" for i in range(0, 3000, 4)}  # a quarter dead: kept as tombstones, not rewritten
    idx2 = idx.apply(removed, [])
    assert idx2.segment_count == 1
    hits = idx2.search(vecs[0], 3000)
    assert not removed & {h.block_id for h in hits}
    assert len(hits) == 2250
    assert idx.search(vecs[0], 1)[0].block_id == "b0"  # the old version still has it


def test_dimension_rules() -> None:
    idx = DenseIndex().apply([], keys([1]), np.ones((1, 4)))
    with pytest.raises(ValueError, match="dimension"):
        idx.apply([], keys([2]), np.ones((1, 5)))
    with pytest.raises(ValueError, match="dimension"):
        idx.search(np.ones(5), 3)
    with pytest.raises(ValueError, match="one vector per added block"):
        idx.apply([], keys([2, 3]), np.ones((1, 4)))
    assert DenseIndex().search(np.ones(4), 3) == []


def _clustered(n: int, dim: int, seed: int) -> np.ndarray:
    """Vectors around a few topics, so many rows score close to the k-th best (the bound's hard case)."""
    rng = np.random.default_rng(seed)
    topics = rng.standard_normal((20, dim)).astype(np.float32)
    return unit(topics[rng.integers(0, 20, n)] + rng.standard_normal((n, dim)).astype(np.float32))


def _exact_top(vecs: np.ndarray, admitted: np.ndarray, query: np.ndarray, k: int) -> list[tuple[str, float]]:
    scores = vecs @ (query / np.linalg.norm(query)).astype(np.float32)
    order = sorted((-float(scores[i]), f"b{i}") for i in np.flatnonzero(admitted))
    return [(bid, -s) for s, bid in order[:k]]


@pytest.mark.parametrize("k", [1, 7, 28, 300])
def test_sketch_scan_returns_the_exact_top_k(k: int) -> None:
    """A segment large enough for the int8 sketch ranks exactly like a brute-force fp32 scan, with
    duplicated vectors (exact ties) among the rows."""
    n = SKETCH_MIN_ROWS + 1000
    vecs = _clustered(n, 48, seed=4)
    vecs[n - 50:] = vecs[:50]  # ties at every rank: broken by block id, as on every other path
    idx = DenseIndex().apply([], keys(range(n)), vecs)
    rng = np.random.default_rng(5)
    for query in (vecs[7] + 0.05 * rng.standard_normal(48), rng.standard_normal(48), vecs[n - 1]):
        got = [(h.block_id, h.score) for h in idx.search(query, k)]
        want = _exact_top(vecs, np.ones(n, dtype=bool), query, k)
        assert [b for b, _ in got] == [b for b, _ in want]
        assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-6)


def test_sketch_scan_with_scope_and_tombstones_returns_the_exact_top_k() -> None:
    n = SKETCH_MIN_ROWS + 1000
    vecs = _clustered(n, 48, seed=6)
    idx = DenseIndex().apply([], keys(range(n), cat_of=lambda i: f"c{i % 3}"), vecs)
    dead = set(range(0, n, 5))
    idx = idx.apply([f"b{i}" for i in dead], [])  # a fifth dead: tombstones, the segment is kept
    admitted = np.array([i not in dead and i % 3 == 1 for i in range(n)])
    query = vecs[10] + 0.1 * np.random.default_rng(7).standard_normal(48)
    got = [(h.block_id, h.score) for h in idx.search(query, 40, Scope(categories=frozenset({"c1"})))]
    want = _exact_top(vecs, admitted, query, 40)
    assert [b for b, _ in got] == [b for b, _ in want]


def test_rows_are_gathered_alike_from_one_segment_and_from_many() -> None:
    # `vectors` and `rank` (the hybrid feedback's exact re-ranking) gather rows by block id, with a
    # shortcut for a single segment; both ways must return the same vectors in the order asked for.
    vecs = unit(np.random.default_rng(4).standard_normal((60, 8)).astype(np.float32))
    whole = DenseIndex().apply([], keys(range(60)), vecs)
    pieces = DenseIndex()
    for start in range(0, 60, 7):
        pieces = pieces.apply([], keys(range(start, min(start + 7, 60))), vecs[start:start + 7])
    assert whole.segment_count == 1
    assert pieces.segment_count > 1
    asked = [f"b{i}" for i in (41, 3, 59, 17, 3)] + ["missing"]
    assert np.array_equal(whole.vectors(asked), pieces.vectors(asked))
    assert np.allclose(whole.vectors(asked), vecs[[41, 3, 59, 17, 3]], atol=1e-6)  # stored normalised again
    query = np.random.default_rng(5).standard_normal(8)
    assert whole.rank(query, asked, 3) == pieces.rank(query, asked, 3)
