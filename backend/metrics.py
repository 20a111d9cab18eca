"""This process's own measurements for `/metrics`: its work tallies and its search latency histogram.

The work tallies (pages read, documents read, passages embedded) are plain counters since the process
started; its heartbeat watcher publishes them with its activity (`backend/cluster/takeover.py`), so any
server's `/metrics` reports every process of the database, workers included, which serve no HTTP. The
search latency is a Prometheus histogram of this process (searches run only where they are asked).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from prometheus_client import CollectorRegistry, Histogram
from prometheus_client.process_collector import ProcessCollector

P = ParamSpec("P")
R = TypeVar("R")

WORK_NAMES = ("pages_read", "documents_read", "passages_embedded")


class Tally:
    """Thread-safe counters by name."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = dict.fromkeys(WORK_NAMES, 0)

    def add(self, name: str, amount: int = 1) -> None:
        with self._lock:
            self._counts[name] = self._counts.get(name, 0) + amount

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)


WORK = Tally()
# What this process exports itself; the cluster's series are collected per scrape (backend/cluster/metrics.py).
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # CPU seconds, memory, open files of this process
SEARCH_SECONDS = Histogram(
    "quire_search_seconds", "Time to answer one search (either backend, query embedding included)",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0), registry=REGISTRY,
)


def timed_search(func: Callable[P, R]) -> Callable[P, R]:
    """Record each call's duration in `SEARCH_SECONDS`."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        started = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            SEARCH_SECONDS.observe(time.perf_counter() - started)

    return wrapper
