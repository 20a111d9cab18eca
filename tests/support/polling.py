"""Waiting in a test for what another process does (a second server sees a change, a fold runs): poll a
condition until it holds, or fail after a time limit."""

from __future__ import annotations

import time
from collections.abc import Callable


def eventually(check: Callable[[], bool], timeout_s: float = 15.0, interval_s: float = 0.05) -> None:
    """Return once `check()` is true; `TimeoutError` when it is still false after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not reached")
        time.sleep(interval_s)
