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
