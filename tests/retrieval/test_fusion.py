"""Reciprocal Rank Fusion: the formula, agreement between channels, and a deterministic order."""

from __future__ import annotations

import pytest

from backend.retrieval.fusion import reciprocal_rank_fusion


def test_score_is_sum_of_reciprocal_ranks() -> None:
    fused = {f.block_id: f for f in reciprocal_rank_fusion([["a", "b", "c"], ["c", "x"]])}
    assert fused["c"].score == pytest.approx(1 / 63 + 1 / 61)
    assert fused["a"].score == pytest.approx(1 / 61)
    assert fused["c"].ranks == (3, 1)
    assert fused["x"].ranks == (None, 2)


def test_agreement_beats_a_single_first_place() -> None:
    sparse = ["only_sparse", "s2", "both", "s4"]
    dense = ["only_dense", "d2", "both", "d4"]
    order = [f.block_id for f in reciprocal_rank_fusion([sparse, dense])]
    assert order[0] == "both"
    assert set(order[1:3]) == {"only_sparse", "only_dense"}


def test_ties_are_broken_by_best_rank_then_list_order() -> None:
    # a and b both score 1/61 + 1/62 and both reach rank 1: the order of the lists decides.
    first = reciprocal_rank_fusion([["a", "b"], ["b", "a"]])
    assert [f.block_id for f in first] == ["a", "b"]
    assert first[0].score == first[1].score
    swapped = reciprocal_rank_fusion([["b", "a"], ["a", "b"]])
    assert [f.block_id for f in swapped] == ["b", "a"]  # the first list's leader wins the tie
    tie = reciprocal_rank_fusion([["x"], ["y"]])
    assert [f.block_id for f in tie] == ["x", "y"]


def test_same_input_same_output() -> None:
    lists = [[f"b{i}" for i in range(50)], [f"b{i}" for i in range(49, -1, -1)]]
    assert reciprocal_rank_fusion(lists) == reciprocal_rank_fusion([list(x) for x in lists])


def test_duplicate_in_one_list_counts_once() -> None:
    fused = reciprocal_rank_fusion([["a", "a", "b"]])
    assert [f.block_id for f in fused] == ["a", "b"]
    assert fused[0].score == pytest.approx(1 / 61)
    assert fused[1].ranks == (3,)


def test_weights_and_k() -> None:
    fused = {f.block_id: f.score for f in reciprocal_rank_fusion([["a"], ["b"]], k=10, weights=[1.0, 2.0])}
    assert fused == {"a": pytest.approx(1 / 11), "b": pytest.approx(2 / 11)}
    with pytest.raises(ValueError, match="one weight per ranking"):
        reciprocal_rank_fusion([["a"]], weights=[1.0, 2.0])


def test_empty_inputs() -> None:
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []
    assert [f.block_id for f in reciprocal_rank_fusion([[], ["z"]])] == ["z"]


def test_limit_returns_the_head_of_the_full_fusion() -> None:
    lists = [[f"b{i}" for i in range(30)], [f"b{i}" for i in range(40, 10, -1)]]
    full = reciprocal_rank_fusion(lists)
    for limit in (0, 1, 3, 100):
        assert reciprocal_rank_fusion(lists, limit=limit) == full[:limit]
