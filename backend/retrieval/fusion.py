"""Reciprocal Rank Fusion: a pure function over ranked lists of block ids.

``score(block) = Σ_lists weight · 1 / (k + rank)`` with 1-based ranks and k = 60 (Cormack et al., 2009).
Only ranks matter, so BM25 scores and cosines need no calibration against each other. Ties are broken
by the best single rank the block reached, then by the order the lists were given in and the block's
position there, so the same inputs always give the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

RRF_K = 60
_RANKS = 5  # where a fused entry's ranks begin (see reciprocal_rank_fusion)


class Fused(NamedTuple):
    """A tuple rather than a frozen dataclass: four times cheaper to create, and a search creates ten."""

    block_id: str
    score: float
    ranks: tuple[int | None, ...]  # 1-based rank in each input list, None where absent


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[str]], k: int = RRF_K, weights: Sequence[float] | None = None,
    limit: int | None = None,
) -> list[Fused]:
    """Fuse ranked lists (best first) of block ids; a block repeated within one list counts once.

    With `limit`, only the best `limit` fused blocks are returned (all are still ranked).
    """
    if weights is not None and len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    # Per block, a list that sorts as the block ranks: [-score, best rank, then the list and position
    # where it was first seen (unique, so a comparison never goes further), block id, rank in each list].
    # Comparing these lists in C is several times faster than a key function building tuples. The
    # negated score is accumulated by subtraction: exactly the negation of the sum, so the score is too.
    entries: dict[str, list[Any]] = {}
    absent = [None] * len(rankings)
    for li, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[li]
        slot = _RANKS + li
        for position, block_id in enumerate(ranking, start=1):
            entry = entries.get(block_id)
            if entry is None:
                entry = entries[block_id] = [0.0, position, li, position, block_id, *absent]
            elif entry[slot] is not None:
                continue
            elif position < entry[1]:
                entry[1] = position
            entry[slot] = position
            entry[0] -= weight / (k + position)
    return [Fused(e[4], 0.0 - e[0], tuple(e[_RANKS:])) for e in sorted(entries.values())[:limit]]
