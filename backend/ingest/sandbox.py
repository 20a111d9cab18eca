"""Extraction and OCR in child processes with hard limits, so a hostile file cannot hurt the server.

Every file is read by a worker process of a small pool (one per core by default). Each worker caps its
own address space (`RLIMIT_AS`, inherited by the tesseract processes it starts) and its CPU time per
job (`RLIMIT_CPU`, the kernel kills it with SIGXCPU); the parent enforces a wall-clock limit and kills
the worker when the run is cancelled, checking every CANCEL_POLL_S. A worker that breaks a limit is
gone: the file fails with "too large or complex to read safely: …" and a fresh worker takes its place.
Workers whose resident memory ever reached RECYCLE_RSS_BYTES are replaced after their job, so memory a
big file took returns to the system instead of staying (fragmented, counted against the cap) in a reused
process.

A PDF is read in two kinds of job: one text pass over all pages, then one job per page that needs OCR,
spread over the pool so a scanned book uses every core; a deck likewise, its text, then one job per
picture worth OCR'ing (tesseract runs with OMP_THREAD_LIMIT=1: with pages already in parallel, its own
OpenMP threads would only oversubscribe the cores — measured slower — and each would add a thread stack
to the capped address space).

Own workers rather than `ProcessPoolExecutor`: a pool executor cannot kill one job's process (cancel,
wall time) without breaking every other job in flight (BrokenProcessPool), and a worker killed by its
rlimit breaks it the same way. Workers start from a 'forkserver' that has imported the extraction
libraries once: forking the server itself would copy its memory (the search index) and threads holding
locks, and 'spawn' would re-import PyMuPDF, lxml and friends (about a second) for every new worker.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import resource
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

from backend.config import Settings
from backend.ingest.extract.common import too_large
from backend.ingest.sandbox_jobs import JOBS, check_size
from backend.ingest.types import (
    ExtractionError,
    ExtractProgress,
    ExtractResult,
    ProgressCallback,
)
from backend.store.kinds import DocKind

log = logging.getLogger(__name__)

CANCEL_POLL_S = 0.25
RECYCLE_RSS_BYTES = 300 * 1024 * 1024
_PROGRESS_INTERVAL_S = 0.2
_PRELOAD = ["backend.ingest.extract", "backend.ingest.chunk"]
_AT_CAP_SHARE = 0.95
_Key = TypeVar("_Key", int, str)


@dataclass(frozen=True)
class Limits:
    """What one extraction job may use (see README, "Limits on reading files")."""

    memory_mb: int = 1024
    cpu_s: int = 300
    wall_s: float = 600.0
    max_page_pixels: int = 25_000_000
    max_chars: int = 20_000_000

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(memory_mb=settings.extract_memory_mb, cpu_s=settings.extract_cpu_s,
                   wall_s=settings.extract_timeout_s, max_page_pixels=settings.ocr_max_page_megapixels * 1_000_000,
                   max_chars=settings.extract_max_chars)


class ExtractionCancelled(Exception):
    """The run was cancelled while a worker was reading; the worker has been killed."""


# ---------------------------------------------------------------- in the worker


def _worker_main(conn: Connection, memory_bytes: int) -> None:
    """A worker's life: cap memory once, then run jobs until the parent closes the pipe.

    Each reply ends with the worker's resident memory and whether the job ran into the memory cap:
    parsers report exhausted memory in their own ways (lxml as a syntax error, MuPDF as a format
    error), so a job whose address space peaked at the cap failed for its size, whatever it raised."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    os.environ["OMP_THREAD_LIMIT"] = "1"
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal is the server's to handle
    while True:
        try:
            job, args, cpu_s = conn.recv()
        except (EOFError, OSError):
            return
        _limit_cpu(cpu_s)
        try:
            reply: tuple[Any, ...] = ("ok", JOBS[job](*args, _progress_sender(conn)))
        except ExtractionError as exc:
            reply = ("error", exc.code, exc.message)
        except MemoryError:
            reply = ("memory",)
        except Exception as exc:  # noqa: BLE001 - a parser's crash fails this file, not the worker
            reply = ("crash", type(exc).__name__)
        peaks = _memory_peaks()
        capped = peaks["VmPeak"] >= memory_bytes * _AT_CAP_SHARE
        if capped and reply[0] != "ok":
            reply = ("memory",)
        try:
            conn.send((*reply, peaks["VmHWM"], capped))
        except MemoryError:
            conn.send(("memory", 0, True))


def _memory_peaks() -> dict[str, int]:
    """This process's peak address space (VmPeak) and peak resident memory (VmHWM), in bytes."""
    peaks = {"VmPeak": 0, "VmHWM": 0}
    with open("/proc/self/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in peaks:
                peaks[name] = int(value.split()[0]) * 1024
    return peaks


def _limit_cpu(seconds: int) -> None:
    """Allow `seconds` more CPU time from now (RLIMIT_CPU counts the process's whole life)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = used + seconds if hard == resource.RLIM_INFINITY else min(used + seconds, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _progress_sender(conn: Connection) -> ProgressCallback:
    last = 0.0

    def send(progress: ExtractProgress) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= _PROGRESS_INTERVAL_S or progress.done >= progress.total:
            last = now
            conn.send(("progress", progress))

    return send


# ---------------------------------------------------------------- in the server


class _Worker:
    def __init__(self, context: multiprocessing.context.ForkServerContext, memory_bytes: int) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, memory_bytes), daemon=True,
                                       name="quire-extract")
        self.process.start()
        child.close()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, ValueError, AttributeError):
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


class SandboxPool:
    """Up to `size` workers; `run` blocks for a free one. Thread-safe: many ingestions share it."""

    def __init__(self, size: int, limits: Limits) -> None:
        self.size = size
        self.limits = limits
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(_PRELOAD)
        self._slots = threading.BoundedSemaphore(size)
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False

    def run(self, job: str, args: tuple[Any, ...], *, should_stop: Callable[[], bool] | None = None,
            on_progress: ProgressCallback | None = None) -> Any:
        """Run `job` in a worker and return its result; raises the job's ExtractionError, `too_large`
        for a broken limit, or ExtractionCancelled when `should_stop` turns true (the worker is killed)."""
        with self._slots:
            worker = self._take()
            healthy = False
            try:
                worker.conn.send((job, args, self.limits.cpu_s))
                *reply, peak_rss, capped = self._wait(worker, should_stop, on_progress)
                healthy = peak_rss < RECYCLE_RSS_BYTES and not capped
                return _result(tuple(reply), self.limits)
            finally:
                self._give_back(worker, healthy)

    def _wait(self, worker: _Worker, should_stop: Callable[[], bool] | None,
              on_progress: ProgressCallback | None) -> tuple[Any, ...]:
        deadline = time.monotonic() + self.limits.wall_s
        next_check = time.monotonic() + CANCEL_POLL_S
        while True:
            if worker.conn.poll(CANCEL_POLL_S):
                try:
                    message: tuple[Any, ...] = worker.conn.recv()
                except (EOFError, OSError):
                    raise self._died(worker) from None
                if message[0] != "progress":
                    return message
                if on_progress is not None:
                    on_progress(message[1])  # may raise to stop (the run was cancelled)
            elif not worker.process.is_alive():
                raise self._died(worker)
            # Checked on a clock, not only when the worker is quiet: a job reporting progress all the
            # time must still be stoppable and bounded.
            now = time.monotonic()
            if now >= next_check:
                next_check = now + CANCEL_POLL_S
                if should_stop is not None and should_stop():
                    raise ExtractionCancelled
            if now > deadline:
                raise too_large(f"reading it took longer than {self.limits.wall_s:g} seconds")

    def _died(self, worker: _Worker) -> ExtractionError:
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        if code == -signal.SIGXCPU:
            return too_large(f"reading it needed more than {self.limits.cpu_s} seconds of CPU time")
        # Out of address space, C libraries fail hard (abort, or a crash on an unchecked allocation).
        log.warning("an extraction worker died (exit code %s)", code)
        return too_large(f"its reader crashed or needed more than {self.limits.memory_mb} MB of memory")

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise RuntimeError("the extraction sandbox is closed")
            while self._idle:
                worker = self._idle.pop()
                if worker.process.is_alive():
                    return worker
                worker.kill()
        return _Worker(self._context, self.limits.memory_mb * 1024 * 1024)

    def _give_back(self, worker: _Worker, healthy: bool) -> None:
        with self._lock:
            if healthy and not self._closed and worker.process.is_alive():
                self._idle.append(worker)
                return
        worker.kill()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()


def _result(reply: tuple[Any, ...], limits: Limits) -> Any:
    status = reply[0]
    if status == "ok":
        return reply[1]
    if status == "error":
        raise ExtractionError(reply[1], reply[2])
    if status == "memory":
        raise too_large(f"reading it needed more than {limits.memory_mb} MB of memory")
    raise ExtractionError("extract_failed", f"The file could not be read ({reply[1]}).")


# ---------------------------------------------------------------- what the extract step calls


def extract_sandboxed(pool: SandboxPool, path: Path, kind: DocKind, *, ocr_languages: str,
                      on_progress: ProgressCallback | None = None,
                      should_stop: Callable[[], bool] | None = None) -> ExtractResult:
    """`extract_document` in the pool's workers; a PDF's scanned pages and the pictures on a deck's
    slides are OCR'd in parallel."""
    if kind == "pdf":
        return _pdf(pool, path, ocr_languages, on_progress, should_stop)
    if kind == "pptx":
        return _pptx(pool, path, ocr_languages, on_progress, should_stop)
    result: ExtractResult = pool.run("document", (str(path), kind, ocr_languages, pool.limits.max_chars),
                                     should_stop=should_stop, on_progress=on_progress)
    return result


def _pdf(pool: SandboxPool, path: Path, languages: str, on_progress: ProgressCallback | None,
         should_stop: Callable[[], bool] | None) -> ExtractResult:
    from backend.ingest.extract.ocr import missing_ocr
    from backend.ingest.extract.pdf import assemble

    scan = pool.run("pdf_scan", (str(path), pool.limits.max_chars), should_stop=should_stop,
                    on_progress=on_progress)
    if not scan.ocr_candidates:
        return assemble(scan, {}, None)
    missing = missing_ocr(languages)
    if missing is not None:
        return assemble(scan, {}, missing)
    done = scan.total - len(scan.ocr_candidates)

    def page_done(_number: int) -> None:
        nonlocal done
        done += 1
        if on_progress is not None:  # may raise to stop: the run was cancelled
            on_progress(ExtractProgress(done=done, total=scan.total, detail=f"page {done} of {scan.total} (OCR)"))

    jobs = {number: ("ocr_page", (str(path), number, languages, pool.limits.max_page_pixels))
            for number in scan.ocr_candidates}
    result = assemble(scan, _run_each(pool, jobs, page_done, should_stop), None)
    check_size(result.units, pool.limits.max_chars)
    return result


def _pptx(pool: SandboxPool, path: Path, languages: str, on_progress: ProgressCallback | None,
          should_stop: Callable[[], bool] | None) -> ExtractResult:
    """The deck's text, then each picture worth reading in its own job; a slide counts as done in the
    progress when the last of its pictures is read, as a PDF's page when it is OCR'd."""
    from backend.ingest.extract.ocr import missing_ocr
    from backend.ingest.extract.pptx import assemble_pptx

    scan = pool.run("pptx_scan", (str(path), pool.limits.max_chars), should_stop=should_stop,
                    on_progress=on_progress)
    missing = missing_ocr(languages) if scan.pictures else None
    if not scan.pictures or missing is not None:
        return assemble_pptx(scan, {}, missing)
    waiting: dict[int, int] = {}
    for slides in scan.pictures.values():
        for number in slides:
            waiting[number] = waiting.get(number, 0) + 1
    done = scan.total - len(waiting)

    def picture_done(member: str) -> None:
        nonlocal done
        for number in scan.pictures[member]:
            waiting[number] -= 1
            if not waiting[number]:
                done += 1
                if on_progress is not None:  # may raise to stop: the run was cancelled
                    on_progress(ExtractProgress(done=done, total=scan.total,
                                                detail=f"slide {done} of {scan.total} (OCR)"))

    jobs = {member: ("ocr_picture", (str(path), member, languages, pool.limits.max_page_pixels))
            for member in scan.pictures}
    result = assemble_pptx(scan, _run_each(pool, jobs, picture_done, should_stop), None)
    check_size(result.units, pool.limits.max_chars)
    return result


def _run_each(pool: SandboxPool, jobs: dict[_Key, tuple[str, tuple[Any, ...]]], on_done: Callable[[_Key], None],
              should_stop: Callable[[], bool] | None) -> dict[_Key, Any]:
    """Each job in its own worker, up to the pool's size at once, `on_done` called (one at a time) as each
    ends; the first failure stops the rest."""
    lock = threading.Lock()
    stop = threading.Event()

    def one(key: _Key) -> Any:
        if stop.is_set():
            raise ExtractionCancelled
        job, args = jobs[key]
        try:
            result = pool.run(job, args, should_stop=lambda: stop.is_set() or bool(should_stop and should_stop()))
            with lock:
                on_done(key)
        except BaseException:
            stop.set()
            raise
        return result

    with ThreadPoolExecutor(max_workers=pool.size, thread_name_prefix="quire-ocr") as threads:
        futures = {key: threads.submit(one, key) for key in jobs}
    errors = [error for future in futures.values() if (error := future.exception()) is not None]
    # Report what went wrong first, not the jobs stopped because of it.
    for error in sorted(errors, key=lambda exc: isinstance(exc, ExtractionCancelled)):
        raise error
    return {key: future.result() for key, future in futures.items()}


class _Shared:
    """The process's one pool (a holder, so `shared_pool` needs no `global`)."""

    pool: SandboxPool | None = None
    lock = threading.Lock()


def shared_pool(workers: int, limits: Limits) -> SandboxPool:
    """The process's one pool, made on first use (`workers` 0 = one per available core)."""
    with _Shared.lock:
        current = _Shared.pool
        if current is None or current.limits != limits:
            if current is not None:
                current.close()
            current = _Shared.pool = SandboxPool(workers or len(os.sched_getaffinity(0)) or 1, limits)
        return current


def pool_for(settings: Settings) -> SandboxPool:
    """The shared pool, sized and limited as `settings` say."""
    return shared_pool(settings.extract_workers, Limits.from_settings(settings))
