"""Why a generation produced nothing to store, in words a user understands (a job's failure reason)."""

from __future__ import annotations

from backend.errors import ErrorCode


class GenerationFailed(Exception):
    """`code` is the job's error code (`generation_failed`, `empty_scope`); `message` says what to do."""

    def __init__(self, message: str, code: ErrorCode = "generation_failed") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
