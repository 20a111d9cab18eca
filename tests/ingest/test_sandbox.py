"""The extraction sandbox's limits, each broken by a real file in a real child process: memory, CPU time,
a cancel, and the text cap; after each the pool still reads the next file. No wall-clock limit: a child
that is stopped (no CPU progress) is replaced and its job run again, as is one killed from outside, and a
job is given up only when that keeps happening."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from backend.ingest.extract.common import TOO_LARGE
from backend.ingest.sandbox import ExtractionCancelled, Limits, SandboxPool, extract_sandboxed
from backend.ingest.sandbox_reads import PER_RUN, in_runs
from backend.ingest.types import ExtractionError
from backend.sandbox import STUCK_ATTEMPTS, STUCK_S
from tests.support.hostile import huge_xml_docx


@pytest.fixture(scope="module")
def heavy_docx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DOCX whose 60 MB of XML takes python-docx several CPU seconds and several hundred MB to read."""
    return huge_xml_docx(tmp_path_factory.mktemp("docx") / "heavy.docx", xml_megabytes=60)


@pytest.fixture(scope="module")
def medium_docx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DOCX that takes python-docx a few CPU seconds: long enough to stop its worker mid-way."""
    return huge_xml_docx(tmp_path_factory.mktemp("docx") / "medium.docx", xml_megabytes=8)


@pytest.fixture
def small_note(tmp_path: Path) -> Path:
    path = tmp_path / "note"  # stored without an extension, as uploads are
    path.write_text("# Note\n\nThe pool still reads files after a child was lost.")
    return path


# Only so that a broken pool cannot hang the suite: on a busy machine reading the file again takes minutes.
JOIN_S = 900.0


@contextlib.contextmanager
def _pool(stuck_s: float = STUCK_S, **limits: float) -> Iterator[SandboxPool]:
    pool = SandboxPool(1, Limits(**limits), stuck_s=stuck_s)  # type: ignore[arg-type]
    yield pool
    pool.close()


def _refusal(pool: SandboxPool, path: Path) -> str:
    with pytest.raises(ExtractionError) as caught:
        extract_sandboxed(pool, path, "docx", ocr_languages="eng")
    assert caught.value.code == "too_large"
    assert caught.value.message.startswith(TOO_LARGE)
    return caught.value.message


def _still_reads(pool: SandboxPool, note: Path) -> None:
    result = extract_sandboxed(pool, note, "md", ocr_languages="eng")
    assert "still reads files" in result.units[0].text


def test_memory_cap(heavy_docx: Path, small_note: Path) -> None:
    with _pool(memory_mb=300) as pool:
        assert _refusal(pool, heavy_docx).endswith("reading it needed more than 300 MB of memory.")
        _still_reads(pool, small_note)


def test_cpu_cap(heavy_docx: Path, small_note: Path) -> None:
    with _pool(cpu_s=1, memory_mb=4096) as pool:
        assert _refusal(pool, heavy_docx).endswith("reading it needed more than 1 seconds of CPU time.")
        _still_reads(pool, small_note)


def _reading_worker(timeout_s: float = 30.0) -> psutil.Process:
    """The pool's worker busy reading (a grandchild of this process: this → forkserver → worker)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for child in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if child.ppid() != os.getpid() and child.cpu_percent(interval=0.2) > 5:
                    return child
    raise AssertionError("no worker was seen reading")


def _in_thread(pool: SandboxPool, path: Path) -> tuple[threading.Thread, dict[str, object]]:
    outcome: dict[str, object] = {}

    def read() -> None:
        try:
            outcome["result"] = extract_sandboxed(pool, path, "docx", ocr_languages="eng")
        except ExtractionError as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=read)
    thread.start()
    return thread, outcome


def test_a_stopped_worker_is_replaced_and_its_job_run_again(medium_docx: Path) -> None:
    # SIGSTOP: the worker uses no CPU from then on, like a process blocked for good. A wall-clock limit
    # would fail the file; the pool notices the missing progress and reads the file again.
    with _pool(memory_mb=4096, stuck_s=2) as pool:
        thread, outcome = _in_thread(pool, medium_docx)
        stopped = _reading_worker()
        os.killpg(stopped.pid, signal.SIGSTOP)
        thread.join(timeout=JOIN_S)
        assert "result" in outcome, outcome
        assert not stopped.is_running() or stopped.status() == psutil.STATUS_ZOMBIE


def test_a_worker_killed_from_outside_is_replaced_and_its_job_run_again(medium_docx: Path) -> None:
    # SIGKILL from outside the pool is what the kernel's out-of-memory killer sends when the whole machine
    # runs short: not the file's doing, so the file is read again rather than failed.
    with _pool(memory_mb=4096) as pool:
        thread, outcome = _in_thread(pool, medium_docx)
        _reading_worker().kill()
        thread.join(timeout=JOIN_S)
        assert "result" in outcome, outcome


def test_a_job_that_keeps_getting_stuck_is_given_up_saying_so(medium_docx: Path) -> None:
    with _pool(memory_mb=4096, stuck_s=1) as pool:
        thread, outcome = _in_thread(pool, medium_docx)
        for _ in range(STUCK_ATTEMPTS):
            os.killpg(_reading_worker().pid, signal.SIGSTOP)
        thread.join(timeout=JOIN_S)
        error = outcome.get("error")
        assert isinstance(error, ExtractionError), outcome
        assert error.message == (f"{TOO_LARGE}: reading it stalled: its process made no progress for 1 seconds, "
                                 f"{STUCK_ATTEMPTS} times.")


def test_cancel_kills_the_child_at_once(heavy_docx: Path, small_note: Path) -> None:
    with _pool(memory_mb=4096) as pool:
        cancel_at = time.monotonic() + 0.5
        with pytest.raises(ExtractionCancelled):
            extract_sandboxed(pool, heavy_docx, "docx", ocr_languages="eng",
                              should_stop=lambda: time.monotonic() > cancel_at)
        assert time.monotonic() - cancel_at < 1.0
        _still_reads(pool, small_note)


def test_text_cap(tmp_path: Path) -> None:
    path = tmp_path / "long"
    path.write_text("word " * 50_000)
    with _pool(max_chars=100_000) as pool:
        with pytest.raises(ExtractionError) as caught:
            extract_sandboxed(pool, path, "txt", ocr_languages="eng")
        assert caught.value.message == f"{TOO_LARGE}: it holds more than 100,000 characters of text."


def test_scanned_pages_and_pictures_are_read_a_few_per_run_on_every_worker() -> None:
    assert in_runs([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]  # both workers busy on a short scan
    assert in_runs([2, 5, 9], 4) == [[2], [5], [9]]
    assert in_runs(list(range(1, 33)), 2) == [list(range(first, first + PER_RUN)) for first in range(1, 33, PER_RUN)]
    assert in_runs(["ppt/media/image1.png"], 1) == [["ppt/media/image1.png"]]


def _workers_started(before: set[int]) -> set[int]:
    """Processes started since `before` that the forkserver made (the pool's workers), not the forkserver."""
    return {child.pid for child in psutil.Process().children(recursive=True)
            if child.pid not in before and child.ppid() != os.getpid()}


def test_warming_starts_each_missing_worker_once_and_jobs_run_in_them(small_note: Path) -> None:
    before = {child.pid for child in psutil.Process().children(recursive=True)}
    pool = SandboxPool(2, Limits())
    try:
        pool.warm()
        pool.warm()  # a second warm-up meanwhile starts nothing more
        deadline = time.monotonic() + JOIN_S
        while len(_workers_started(before)) < 2:
            assert time.monotonic() < deadline, "the pool's workers were not started"
            time.sleep(0.05)
        warmed = _workers_started(before)
        pool.warm()
        time.sleep(1.0)
        _still_reads(pool, small_note)
        assert _workers_started(before) == warmed  # the job ran in a warmed worker: none started for it
        assert len(warmed) == 2
    finally:
        pool.close()
