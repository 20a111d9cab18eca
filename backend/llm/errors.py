"""Failures of the model layer, phrased so the user knows what to do."""

from __future__ import annotations


class ModelUnavailable(Exception):
    """Ollama cannot be reached or the model is not pulled. `hint` says what to run."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class ModelError(Exception):
    """The model server answered with an error while serving a request."""

    def __init__(self, message: str, retryable: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable


class ModelStalled(ModelError):
    """The model server sent nothing for too long: stuck, not slow (see backend/llm/patience.py)."""

    def __init__(self, silent_s: float, reading: bool, elapsed_s: float) -> None:
        what = "reading the question" if reading else "writing"
        super().__init__(f"The model stopped responding: nothing for {silent_s:.0f} s while {what} "
                         f"({elapsed_s:.0f} s in all). Ollama may be stuck or overloaded.")
        self.silent_s = silent_s
        self.reading = reading


class CapabilityMissing(ModelError):
    """The model server refused something this model cannot do (thinking, tools, images)."""

    def __init__(self, message: str, capability: str) -> None:
        super().__init__(message, retryable=False)
        self.capability = capability
