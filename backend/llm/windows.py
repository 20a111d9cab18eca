"""Embedding a text longer than the model's window: overlapping windows, their vectors averaged.

A sentence-embedding model reads at most its `max_seq_length` word pieces (256 for all-MiniLM-L6-v2) and
silently drops the rest, so the vector of a long passage describes only its beginning. Instead the text
is cut into windows of at most that many word pieces, each overlapping the next by half (so every
sentence is read whole in at least one window, and no window is shorter than the model's limit), and the
passage's vector is the normalised mean of its windows' unit vectors: a point that is near every part of
the passage, so a query about its end finds it as well as one about its start. A text within the window
is embedded exactly as before.

The rule (half overlap, plain mean) was fixed before measuring and not tuned. Measured with
scripts/eval_retrieval.py and not shipped: see backend/llm/local_embedder.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from backend.llm.embedders import l2_normalise

Span = tuple[int, int]  # [start, end) character offsets into the text


def window_spans(offsets: Sequence[Span], limit: int) -> list[Span]:
    """The character spans of the windows covering a text whose word pieces sit at `offsets`.

    One span (the whole text) when it has at most `limit` pieces; otherwise windows of `limit` pieces
    starting every `limit // 2` pieces, the last one ending at the last piece.
    """
    if limit < 2:
        raise ValueError(f"a window must hold at least 2 word pieces, not {limit}")
    if len(offsets) <= limit:
        return [(offsets[0][0], offsets[-1][1])] if offsets else []
    stride = limit // 2
    starts = [*range(0, len(offsets) - limit, stride), len(offsets) - limit]
    return [(offsets[s][0], offsets[s + limit - 1][1]) for s in starts]


def pool_windows(vectors: np.ndarray, counts: Sequence[int]) -> np.ndarray:
    """One unit vector per text from its windows' vectors, which follow each other in `vectors`:
    text i owns the next `counts[i]` rows (at least one). The mean of unit vectors, normalised."""
    if sum(counts) != len(vectors) or min(counts, default=1) < 1:
        raise ValueError(f"{len(vectors)} window vectors do not split into texts of {list(counts)} windows")
    units = l2_normalise(vectors)
    bounds = np.cumsum([0, *counts])
    pooled = np.add.reduceat(units, bounds[:-1], axis=0) if len(counts) else units[:0]
    return l2_normalise(pooled)
