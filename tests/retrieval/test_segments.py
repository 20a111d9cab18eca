"""Picking the k best candidates of several segments: by score, ties by block id, exactly as a full sort."""

from __future__ import annotations

import math

import numpy as np
import pytest

from backend.retrieval.segments import Shortlist, shortlist, top_k


def full_sort(lists: list[Shortlist], k: int) -> list[tuple[str, float]]:
    pairs = [(s.block_ids[r], float(v)) for s in lists for r, v in zip(s.rows.tolist(), s.scores, strict=True)]
    return sorted(pairs, key=lambda p: (-p[1], p[0]))[:k]


def test_ties_are_ordered_by_block_id_across_segments() -> None:
    a = shortlist(np.array([0.5, 0.9, 0.5, 0.1]), 3, ("d", "a", "b", "z"))
    b = shortlist(np.array([0.5, 0.5]), 3, ("e", "c"))
    ranking = top_k([a, b], 3)
    assert ranking.block_ids == ["a", "b", "c"]  # the run of 0.5s reaches past k: its smallest ids win
    assert ranking.scores == [0.9, 0.5, 0.5]


@pytest.mark.parametrize("segments", [1, 3])  # one list is ranked without merging
@pytest.mark.parametrize("values", [5, 10**9])  # many ties, or (nearly always) none: their search is skipped
def test_equals_a_full_sort_of_every_candidate(segments: int, values: int) -> None:
    rng = np.random.default_rng(0)
    for _ in range(300):
        k = int(rng.integers(1, 40))
        full, short = [], []
        for s in range(int(rng.integers(1, segments + 1))):
            n = int(rng.integers(0, 40))
            ids = tuple(f"b{i}" for i in rng.permutation(1000)[:n] + 1000 * s)  # id order unlike row order
            scores = rng.integers(0, values, n).astype(np.float64)
            rows = np.sort(rng.permutation(n)[: int(rng.integers(0, n + 1))])  # some rows of the segment
            full.append(Shortlist(ids, rows, scores[rows]))
            short.append(shortlist(scores[rows], k, ids, rows))
        ranking = top_k(short, k)
        assert list(zip(ranking.block_ids, ranking.scores, strict=True)) == full_sort(full, k)


@pytest.mark.parametrize("k", [1, 2])
def test_a_tie_counts_only_if_it_reaches_into_the_top_k(k: int) -> None:
    ranking = top_k([shortlist(np.array([0.9, 0.5, 0.5]), 3, ("x", "c", "b"))], k)
    assert ranking.block_ids == ["x", "b"][:k]  # k = 1: the tie starts at rank 2 and changes nothing


def test_each_candidate_keeps_its_own_zero() -> None:
    ranking = top_k([shortlist(np.array([0.0, -0.0, 0.0]), 2, ("c", "a", "b"))], 2)
    assert ranking.block_ids == ["a", "b"]
    assert [math.copysign(1.0, s) for s in ranking.scores] == [-1.0, 1.0]


def test_nothing_to_rank() -> None:
    assert top_k([], 5) == ([], [])
    assert top_k([shortlist(np.zeros(0), 5, ())], 5) == ([], [])
    assert top_k([shortlist(np.ones(3), 0, ("a", "b", "c"))], 0) == ([], [])
