"""A task run every so often on a daemon thread, for the whole life of a Quire process.

Shared by the background chores every process runs whatever its role (the originals cache sweep, the
keyword change-row fold): each says what it does once (`run_once`) and which failures only mean "try
again next period" (`retry_on`, the database being away, say); the thread outlives them. `wake` runs the
task at once, for a process that knows it has something to do (it changed what the task watches).
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from typing import ClassVar

log = logging.getLogger(__name__)


class Periodic(ABC):
    """Runs `run_once` every `interval_s` (and at once after `wake`) on a daemon thread, from `start` until
    `stop`."""

    thread_name: ClassVar[str]
    failure: ClassVar[str]  # what failed, for the log: "sweeping the originals cache"
    retry_on: ClassVar[tuple[type[Exception], ...]]

    def __init__(self, interval_s: float) -> None:
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    @abstractmethod
    def run_once(self) -> None:
        """The task, once."""

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Run the task now rather than at the end of the period."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while True:
            self._wake.wait(self.interval_s)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.run_once()
            except self.retry_on:  # the next period retries; the thread lives on
                log.warning("%s failed; trying again later", self.failure, exc_info=True)
