"""Equal vectors score equal wherever they sit: indexed upload by upload or in one build, through any scan
path, so ties are broken by block id and two processes order them alike."""

from __future__ import annotations

import numpy as np

from backend.retrieval.dense import DenseIndex
from backend.retrieval.segments import RowKey
from backend.retrieval.types import Scope


def _key(i: int) -> RowKey:
    return RowKey(f"b{i:04d}", f"d{i % 7}", None)


def test_the_same_vectors_rank_alike_however_they_were_added() -> None:
    rng = np.random.default_rng(3)
    distinct = rng.normal(size=(40, 48)).astype(np.float32)
    vectors = np.concatenate([distinct] * 3)  # every vector three times, as a file in three categories
    keys = [_key(i) for i in range(len(vectors))]
    whole = DenseIndex().apply([], keys, vectors)
    grown = DenseIndex()
    for start in range(0, len(vectors), 7):  # batches of odd sizes land at other memory alignments
        grown = grown.apply([], keys[start:start + 7], vectors[start:start + 7])
    assert whole.vectors(k.block_id for k in keys).tobytes() == grown.vectors(k.block_id for k in keys).tobytes()
    for q in rng.normal(size=(20, 48)).astype(np.float32):
        unit = q / np.linalg.norm(q)
        for scope in (None, Scope(document_ids=frozenset({"d1", "d2"}))):
            assert whole.search_ranking(unit, 12, scope) == grown.search_ranking(unit, 12, scope)
        ranked = whole.search_ranking(unit, 3, None)
        assert len(set(ranked.scores)) == 1  # the best vector's three copies tie, ordered by block id
        assert ranked.block_ids == sorted(ranked.block_ids)
