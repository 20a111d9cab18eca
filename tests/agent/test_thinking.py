"""The phase-1 heuristic: greetings and trivial inputs skip the thinking call, questions do not."""

from __future__ import annotations

import pytest

from backend.agent.thinking import is_trivial


@pytest.mark.parametrize("message", ["hi", "Hello!", "hey there", "Thanks a lot!", "danke", "Guten Morgen",
                                     "ok", "👍", "?", "  ", "Thank you very much"])
def test_trivial(message: str) -> None:
    assert is_trivial(message)


@pytest.mark.parametrize("message", ["photosynthesis?", "What is ATP?", "hi, what does chapter 3 say about enzymes?",
                                     "Explain the Calvin cycle", "2+2", "thanks, and what about mitochondria?",
                                     "Was ist Osmose?", "no idea what oxidative phosphorylation is"])
def test_not_trivial(message: str) -> None:
    assert not is_trivial(message)
