"""Child processes with hard limits, so a hostile file cannot hurt the server that reads or shows it.

A `ProcessPool` runs jobs (module-level functions, sent to the child by reference) in up to `size` worker
processes. Each worker caps its own address space (`RLIMIT_AS`, inherited by any program it starts) and
its CPU time per job (`RLIMIT_CPU`, the kernel kills it with SIGXCPU). A worker that breaks a limit (or
crashes: a segfault in a C library) is gone, the caller gets `LimitBroken`, and a fresh worker takes its
place. Each worker leads its own process group, and a worker is killed with its group: the programs its
job started (tesseract) go with it. A worker also kills its group when the server that owns it is gone (a
crash, a SIGKILL): it holds the read end of a pipe whose only writer is the server, so end-of-file on it
means no one will ever read the job's result. Workers whose resident memory ever reached RECYCLE_RSS_BYTES
are replaced after their job, so memory a big file took returns to the system instead of staying
(fragmented, counted against the cap) in a reused process.

**No wall-clock limit decides a job's outcome** (DESIGN §10): a busy machine makes work slower, never
different. What a job may use is bounded by CPU time and memory, which load does not change. Wall time
serves only to notice a worker that is *stuck*: its process group (the worker and whatever it started)
has used no CPU at all for `stuck_s` seconds (stopped, or blocked for good). A stuck worker is killed and
its job run again in a fresh worker, up to STUCK_ATTEMPTS times; a worker that dies without breaking a
limit of its own (killed from outside, e.g. by the kernel's out-of-memory killer when the whole machine
runs short) is retried once. Only then is the job given up, saying why. A job starved of CPU by other
work (a few per cent of a core) still makes progress and is never cut off.

Two pools use this: file extraction and OCR (backend/ingest/sandbox.py) and the viewer's page images
(backend/viewer/page_workers.py), each with its own workers and limits, so a page view never waits behind
minutes of OCR. The job API is general: any module-level function taking picklable arguments and a
progress callback, with its own CPU and memory limits, cancellable through `should_stop`.

Own workers rather than `ProcessPoolExecutor`: a pool executor cannot kill one job's process (cancel,
stuck) without breaking every other job in flight (BrokenProcessPool), and a worker killed by its
rlimit breaks it the same way. Workers start from a 'forkserver' that has imported the readers' libraries
once: forking the server itself would copy its memory (the search index) and threads holding locks, and
'spawn' would re-import PyMuPDF, lxml and friends (about a second) for every new worker. The forkserver
is one per process, shared by every pool: each pool's module declares its jobs' modules with `preload`
when it is imported, so whichever pool starts the forkserver first, it loads them all.
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
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # the type only: the sandbox's children need not import the web stack
    from backend.errors import ErrorCode

import psutil

log = logging.getLogger(__name__)

CANCEL_POLL_S = 0.25
RECYCLE_RSS_BYTES = 300 * 1024 * 1024
# A worker whose process group used no CPU time for this long is stuck (see the module docstring). A
# minute: far beyond any pause of a running process (a cgroup starved to 1% of a core still gets CPU
# every 100 ms), and short enough that a stopped worker costs little before its job runs again.
STUCK_S = 60.0
STUCK_ATTEMPTS = 3  # a stuck job is run this many times in all before it is given up
DIED_ATTEMPTS = 2  # likewise a job whose worker was killed from outside
_STUCK_CHECK_S = 1.0
_PROGRESS_INTERVAL_S = 0.2
_AT_CAP_SHARE = 0.95

Report = Callable[[Any], None]


class JobError(Exception):
    """A job's own refusal (`code`, a `message` for people), sent back from the worker as raised."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.code, self.message))


class LimitBroken(Exception):
    """The job broke a limit (memory, CPU time), its worker kept dying or kept getting stuck; `reason`
    says which, as "needed more than 300 MB of memory", "needed more than 5 seconds of CPU time", ..."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class JobCrashed(Exception):
    """The job raised something other than a `JobError` (a parser's bug); `name` is the exception's type."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class Cancelled(Exception):
    """The caller's `should_stop` turned true while a worker ran its job; the worker has been killed."""


class _Stuck(Exception):
    """The worker's process group used no CPU for `stuck_s` seconds; it has been killed."""


class _Died(Exception):
    """The worker died without breaking a limit of its own (killed from outside); `code` is its exit code."""

    def __init__(self, code: int | None) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class ProcessLimits:
    """What one job may use: address space (per process, its programs included) and CPU seconds.
    `stuck_s` is how long a worker may use no CPU at all before it counts as stuck (not a time limit)."""

    memory_mb: int
    cpu_s: int
    stuck_s: float = STUCK_S


# ---------------------------------------------------------------- in the worker


def _worker_main(conn: Connection, lifeline: Connection, memory_bytes: int) -> None:
    """A worker's life: cap memory once, then run jobs until the parent closes the pipe.

    Each reply ends with the worker's resident memory and whether the job ran into the memory cap:
    parsers report exhausted memory in their own ways (lxml as a syntax error, MuPDF as a format
    error), so a job whose address space peaked at the cap failed for its size, whatever it raised."""
    # A process group of its own, so that killing the worker kills what its job started too (tesseract),
    # which would otherwise read on unowned for minutes after a cancel or a broken limit.
    os.setpgrp()
    # Started before the cap: its stack (8 MB of address space) may not fit under a small cap beside the
    # preloaded libraries, and a thread whose start fails for memory can leave the worker deadlocked.
    threading.Thread(target=_die_with_server, args=(lifeline,), name="lifeline", daemon=True).start()
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
            reply: tuple[Any, ...] = ("ok", job(*args, _progress_sender(conn)))
        except JobError as exc:
            reply = ("error", exc)
        except MemoryError:
            reply = ("memory",)
        except Exception as exc:  # noqa: BLE001 - a parser's crash fails this job, not the worker
            reply = ("crash", type(exc).__name__)
        peaks = _memory_peaks()
        capped = peaks["VmPeak"] >= memory_bytes * _AT_CAP_SHARE
        if capped and reply[0] != "ok":
            reply = ("memory",)
        try:
            conn.send((*reply, peaks["VmHWM"], capped))
        except MemoryError:
            conn.send(("memory", 0, True))


def _die_with_server(lifeline: Connection) -> None:
    """Kill this worker's group once the server's end of `lifeline` is closed. Nothing is ever sent on it,
    so the read returns only then. Without this, a worker whose server was killed read on to the end of its
    job (minutes of a 300-second CPU budget, its tesseract with it) while the restarted server, recovering
    the same workflow, read the same file again."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()
    os.killpg(0, signal.SIGKILL)


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


def _progress_sender(conn: Connection) -> Report:
    """Passes a job's progress reports (objects with `done` and `total`) to the parent, at most every
    _PROGRESS_INTERVAL_S, and always the last one."""
    last = 0.0

    def send(progress: Any) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= _PROGRESS_INTERVAL_S or progress.done >= progress.total:
            last = now
            conn.send(("progress", progress))

    return send


# ---------------------------------------------------------------- in the server


class _Preload:
    """The modules the process's one forkserver imports before forking workers (every pool's)."""

    modules: ClassVar[set[str]] = set()
    lock = threading.Lock()


def preload(modules: list[str]) -> None:
    """Have the forkserver import `modules` (jobs' modules and their heavy libraries) once, before it
    forks workers. Effective until the forkserver starts; a worker imports what is missing on its first job."""
    with _Preload.lock:
        _Preload.modules.update(modules)
        multiprocessing.get_context("forkserver").set_forkserver_preload(sorted(_Preload.modules))


class _GroupClock:
    """The CPU time a worker's process group has used (the worker, the programs its job runs, and those
    that have ended), read every _STUCK_CHECK_S; `stuck_for` is how long it has not changed."""

    def __init__(self, pid: int | None) -> None:
        self._process = psutil.Process(pid) if pid is not None else None
        self._used = -1.0
        self._since = self._next = time.monotonic()

    def stuck_for(self, now: float) -> float:
        if now >= self._next:
            self._next = now + _STUCK_CHECK_S
            used = self._read()
            if used != self._used:
                self._used, self._since = used, now
        return now - self._since

    def _read(self) -> float:
        if self._process is None:
            return 0.0
        try:
            times = self._process.cpu_times()
            used = float(times.user + times.system + times.children_user + times.children_system)
            for child in self._process.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    child_times = child.cpu_times()
                    used += child_times.user + child_times.system
        except psutil.Error:
            return self._used  # gone: the wait notices that the worker died
        return used


class _Worker:
    def __init__(self, context: multiprocessing.context.ForkServerContext, memory_bytes: int, name: str) -> None:
        self.conn, child = context.Pipe()
        lifeline, self._lifeline = context.Pipe(duplex=False)  # the worker reads; the server never writes
        self.process = context.Process(target=_worker_main, args=(child, lifeline, memory_bytes), daemon=True,
                                       name=name)
        self.process.start()
        child.close()
        lifeline.close()

    def kill(self) -> None:
        # The worker's group (see _worker_main): none yet if the worker has not made it.
        if self.process.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, ValueError, AttributeError):
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()
        self._lifeline.close()


class ProcessPool:
    """Up to `size` workers; `run` blocks for a free one. Thread-safe: many requests share it."""

    def __init__(self, size: int, limits: ProcessLimits, *, name: str, recycle_rss_mb: int | None = None) -> None:
        self.size = size
        self.process_limits = limits
        self.name = name
        # A pool whose workers keep something large on purpose (a speech model) recycles them later.
        self._recycle_rss = RECYCLE_RSS_BYTES if recycle_rss_mb is None else recycle_rss_mb * 1024 * 1024
        self._context = multiprocessing.get_context("forkserver")
        self._slots = threading.BoundedSemaphore(size)
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False

    def run(self, job: Callable[..., Any], args: tuple[Any, ...], *, should_stop: Callable[[], bool] | None = None,
            on_progress: Report | None = None, cpu_s: int | None = None) -> Any:
        """`job(*args, report)` in a worker; returns its result. Raises the job's `JobError`, `JobCrashed`,
        `LimitBroken`, or `Cancelled` when `should_stop` turns true (the worker is killed). A job whose
        worker got stuck or was killed from outside is run again in a fresh worker first (see the module
        docstring); progress it reported before is reported again. `cpu_s` bounds this job's CPU time
        below the pool's (work whose size is known: a piece of audio)."""
        cpu = self.process_limits.cpu_s if cpu_s is None else min(cpu_s, self.process_limits.cpu_s)
        stuck = died = 0
        while True:
            try:
                return self._attempt(job, args, should_stop, on_progress, cpu)
            except _Stuck:
                stuck += 1
                log.warning("a %s worker used no CPU for %g s and was replaced (attempt %d of %d)", self.name,
                            self.process_limits.stuck_s, stuck, STUCK_ATTEMPTS)
                if stuck >= STUCK_ATTEMPTS:
                    raise LimitBroken(f"stalled: its process made no progress for {self.process_limits.stuck_s:g} "
                                      f"seconds, {STUCK_ATTEMPTS} times") from None
            except _Died as exc:
                died += 1
                log.warning("a %s worker was killed from outside (exit code %s; attempt %d of %d)", self.name,
                            exc.code, died, DIED_ATTEMPTS)
                if died >= DIED_ATTEMPTS:
                    raise LimitBroken(f"was stopped from outside {DIED_ATTEMPTS} times (the machine may be short of "
                                      "memory)") from None

    def warm(self) -> None:
        """Start, in the background, the workers the pool lacks while it is idle, so the next jobs need not
        wait for them (the process's first worker also starts the forkserver, which imports the readers:
        about 1.5 s). It holds the free slots while it starts workers for them, so that workers never
        outnumber `size`; a job that comes meanwhile waits for a slot and finds a started worker."""

        def start() -> None:
            held = 0
            while self._slots.acquire(blocking=False):
                held += 1
            try:
                with self._lock:
                    missing = 0 if self._closed else held - len(self._idle)
                for _ in range(missing):
                    self._give_back(self._new_worker(), healthy=True)
            finally:
                for _ in range(held):
                    self._slots.release()

        threading.Thread(target=start, name=f"quire-{self.name}-warm", daemon=True).start()

    def _attempt(self, job: Callable[..., Any], args: tuple[Any, ...], should_stop: Callable[[], bool] | None,
                 on_progress: Report | None, cpu_s: int) -> Any:
        with self._slots:
            worker = self._take()
            healthy = False
            try:
                worker.conn.send((job, args, cpu_s))
                *reply, peak_rss, capped = self._wait(worker, should_stop, on_progress, cpu_s)
                healthy = peak_rss < self._recycle_rss and not capped
                return self._result(tuple(reply))
            finally:
                self._give_back(worker, healthy)

    def _wait(self, worker: _Worker, should_stop: Callable[[], bool] | None,
              on_progress: Report | None, cpu_s: int) -> tuple[Any, ...]:
        clock = _GroupClock(worker.process.pid)
        next_check = time.monotonic() + CANCEL_POLL_S
        while True:
            if worker.conn.poll(CANCEL_POLL_S):
                try:
                    message: tuple[Any, ...] = worker.conn.recv()
                except (EOFError, OSError):
                    raise self._died(worker, cpu_s) from None
                if message[0] != "progress":
                    return message
                if on_progress is not None:
                    on_progress(message[1])  # may raise to stop (the run was cancelled)
            elif not worker.process.is_alive():
                raise self._died(worker, cpu_s)
            # Checked on a clock, not only when the worker is quiet: a job reporting progress all the
            # time must still be stoppable.
            now = time.monotonic()
            if now >= next_check:
                next_check = now + CANCEL_POLL_S
                if should_stop is not None and should_stop():
                    raise Cancelled
                if clock.stuck_for(now) >= self.process_limits.stuck_s:
                    raise _Stuck

    def _died(self, worker: _Worker, cpu_s: int) -> Exception:
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        if code == -signal.SIGXCPU:
            return LimitBroken(f"needed more than {cpu_s} seconds of CPU time")
        if code == -signal.SIGKILL:
            # Not the job's doing: the worker never kills itself so (its limits end it by SIGXCPU or by a
            # failed allocation); the kernel's out-of-memory killer or a person did.
            return _Died(code)
        # Out of address space, C libraries fail hard (abort, or a crash on an unchecked allocation).
        log.warning("a %s worker died (exit code %s)", self.name, code)
        return LimitBroken(f"crashed or needed more than {self.process_limits.memory_mb} MB of memory")

    def _result(self, reply: tuple[Any, ...]) -> Any:
        status = reply[0]
        if status == "ok":
            return reply[1]
        if status == "error":
            raise reply[1]
        if status == "memory":
            raise LimitBroken(f"needed more than {self.process_limits.memory_mb} MB of memory")
        raise JobCrashed(reply[1])

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the {self.name} pool is closed")
            while self._idle:
                worker = self._idle.pop()
                if worker.process.is_alive():
                    return worker
                worker.kill()
        return self._new_worker()

    def _new_worker(self) -> _Worker:
        return _Worker(self._context, self.process_limits.memory_mb * 1024 * 1024, self.name)

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
