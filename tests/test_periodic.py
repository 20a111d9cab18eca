"""`backend.periodic.Periodic`: the task runs every period and at once when woken, a failure it retries on
leaves the thread alive, and `stop` ends it."""

from __future__ import annotations

import threading

from backend.periodic import Periodic


class Counting(Periodic):
    thread_name = "test-periodic"
    failure = "counting"
    retry_on = (OSError,)

    def __init__(self, interval_s: float, fail_first: int = 0) -> None:
        super().__init__(interval_s)
        self.runs = 0
        self.fail_first = fail_first
        self.ran = threading.Semaphore(0)

    def run_once(self) -> None:
        self.runs += 1
        self.ran.release()
        if self.runs <= self.fail_first:
            raise OSError("the disk is away")


def test_wake_runs_the_task_at_once_and_stop_ends_the_thread() -> None:
    task = Counting(interval_s=3600)
    task.start()
    try:
        assert not task.ran.acquire(timeout=0.3)  # nothing before the period ends…
        task.wake()
        assert task.ran.acquire(timeout=10)  # …but at once when woken
        task.wake()
        assert task.ran.acquire(timeout=10)
    finally:
        task.stop()
    assert task.runs == 2
    assert not any(t.name == "test-periodic" for t in threading.enumerate())


def test_a_failure_it_retries_on_leaves_the_thread_running() -> None:
    task = Counting(interval_s=0.01, fail_first=2)
    task.start()
    try:
        for _ in range(4):
            assert task.ran.acquire(timeout=10)
    finally:
        task.stop()
    assert task.runs >= 4
