"""Long texts for the local embedder: windows that cover a text within the model's limit, and pooling.

Word pieces here are the words of a real corpus document (any tokenizer's offsets have the same shape);
the model itself is not loaded.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from backend.llm.local_embedder import LocalEmbedder
from backend.llm.windows import pool_windows, window_spans
from scripts.shared_data import CORPUS


def word_offsets(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", text)]


def pieces_in(span: tuple[int, int], offsets: list[tuple[int, int]]) -> list[int]:
    return [i for i, (start, end) in enumerate(offsets) if start >= span[0] and end <= span[1]]


def test_a_text_within_the_limit_is_one_window_of_itself() -> None:
    text = "Boundary layer transition on a swept wing."
    offsets = word_offsets(text)
    assert window_spans(offsets, len(offsets)) == [(0, len(text))]
    assert window_spans([], 10) == []


def test_a_long_text_is_covered_by_half_overlapping_windows_within_the_limit() -> None:
    text = (CORPUS / "hochschulrahmengesetz.md").read_text()
    offsets = word_offsets(text)
    limit = 254
    assert len(offsets) > 4 * limit  # the document is long enough to need several windows
    spans = window_spans(offsets, limit)
    windows = [pieces_in(span, offsets) for span in spans]
    assert all(len(w) == limit for w in windows)  # every window full, none past the model's limit
    assert windows[0][0] == 0
    assert windows[-1][-1] == len(offsets) - 1
    covered = {i for w in windows for i in w}
    assert covered == set(range(len(offsets)))  # nothing of the text is left out
    for before, after in itertools.pairwise(windows):
        assert after[0] - before[0] <= limit // 2  # consecutive windows share at least half a window
    assert spans == sorted(spans)


def test_windows_need_room_for_two_pieces() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        window_spans([(0, 1), (2, 3), (4, 5)], 1)


def test_each_text_gets_the_normalised_mean_of_its_windows() -> None:
    rng = np.random.default_rng(7)
    windows = rng.normal(size=(4, 8)).astype(np.float32)
    pooled = pool_windows(windows, [1, 3])
    units = windows / np.linalg.norm(windows, axis=1, keepdims=True)
    assert pooled.shape == (2, 8)
    np.testing.assert_allclose(pooled[0], units[0], rtol=1e-5)
    mean = units[1:].mean(axis=0)
    np.testing.assert_allclose(pooled[1], mean / np.linalg.norm(mean), rtol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(pooled, axis=1), 1.0, rtol=1e-5)


def test_pooling_refuses_counts_that_do_not_match_the_windows() -> None:
    with pytest.raises(ValueError, match="do not split"):
        pool_windows(np.ones((3, 4), dtype=np.float32), [1, 1])
    with pytest.raises(ValueError, match="do not split"):
        pool_windows(np.ones((2, 4), dtype=np.float32), [2, 0])


def test_windowed_and_cut_vectors_are_recorded_under_different_model_names() -> None:
    # Vectors of the two treatments must never be mixed in one vault, nor the 8-bit export's with the
    # fp32 runtime's that earlier releases recorded as "local:all-mpnet-base-v2".
    assert LocalEmbedder(windows=True).model != LocalEmbedder().model
    assert LocalEmbedder().model == "local:all-mpnet-base-v2-int8"
    assert LocalEmbedder("all-MiniLM-L6-v2").model == "local:all-MiniLM-L6-v2-int8"
