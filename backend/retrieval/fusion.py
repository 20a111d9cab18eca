"""Reciprocal Rank Fusion: a pure function over ranked lists of block ids.

``score(block) = Σ_lists weight · 1 / (k + rank)`` with 1-based ranks and k = 60 (Cormack et al., 2009).
Only ranks matter, so BM25 scores and cosines need no calibration against each other. Ties are broken
by the best single rank the block reached, then by the order the lists were given in and the block's
position there, so the same inputs always give the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

RRF_K = 60


@dataclass(frozen=True)
class Fused:
    block_id: str
    score: float
    ranks: tuple[int | None, ...]  # 1-based rank in each input list, None where absent


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[str]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[Fused]:
    """Fuse ranked lists (best first) of block ids; a block repeated within one list counts once."""
    if weights is not None and len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    scores: dict[str, float] = {}
    ranks: dict[str, list[int | None]] = {}
    order: dict[str, tuple[int, int, int]] = {}  # best rank, then where the block was first seen
    for li, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[li]
        for position, block_id in enumerate(ranking, start=1):
            block_ranks = ranks.get(block_id)
            if block_ranks is None:
                block_ranks = ranks[block_id] = [None] * len(rankings)
                order[block_id] = (position, li, position)
                scores[block_id] = 0.0
            elif block_ranks[li] is not None:
                continue
            elif position < order[block_id][0]:
                order[block_id] = (position, *order[block_id][1:])
            block_ranks[li] = position
            scores[block_id] += weight / (k + position)
    ranked = sorted(scores, key=lambda b: (-scores[b], order[b]))
    return [Fused(b, scores[b], tuple(ranks[b])) for b in ranked]
