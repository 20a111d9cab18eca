"""Extraction and OCR in child processes with hard limits, so a hostile file cannot hurt the server.

Every file is read by a worker process of a small pool (one per core by default; the machinery, limits
and reasons for it are in backend/sandbox.py). Each worker caps its address space (inherited by the
tesseract processes it starts) and its CPU time per job; the parent enforces a wall-clock limit and kills
the worker when the run is cancelled. A worker that breaks a limit is gone: the file fails with "too
large or complex to read safely: …" and a fresh worker takes its place.

A PDF is read in two kinds of job: one text pass over all pages, then one job per page that needs OCR,
spread over the pool so a scanned book uses every core (tesseract runs with OMP_THREAD_LIMIT=1: with
pages already in parallel, its own OpenMP threads would only oversubscribe the cores — measured
slower — and each would add a thread stack to the capped address space).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backend.config import Settings
from backend.ingest.extract.common import too_large
from backend.ingest.types import (
    ExtractedUnit,
    ExtractionError,
    ExtractProgress,
    ExtractResult,
    ProgressCallback,
)
from backend.sandbox import Cancelled, JobCrashed, LimitBroken, ProcessLimits, ProcessPool, preload
from backend.store.kinds import DocKind

preload(["backend.ingest.extract", "backend.ingest.chunk"])
# A run cancelled while a worker was reading (the worker has been killed).
ExtractionCancelled = Cancelled


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


class SandboxPool(ProcessPool):
    """The extraction workers; `run` raises ExtractionError (`too_large` for a broken limit) or
    ExtractionCancelled. Thread-safe: many ingestions share it."""

    def __init__(self, size: int, limits: Limits) -> None:
        super().__init__(size, ProcessLimits(memory_mb=limits.memory_mb, cpu_s=limits.cpu_s, wall_s=limits.wall_s),
                         name="quire-extract")
        self.limits = limits

    def run(self, job: Callable[..., Any], args: tuple[Any, ...], *, should_stop: Callable[[], bool] | None = None,
            on_progress: ProgressCallback | None = None) -> Any:
        try:
            return super().run(job, args, should_stop=should_stop, on_progress=on_progress)
        except LimitBroken as exc:
            raise too_large(f"reading it {exc.reason}") from None
        except JobCrashed as exc:
            raise ExtractionError("extract_failed", f"The file could not be read ({exc.name}).") from None


def _job_document(path: str, kind: DocKind, languages: str, max_chars: int,
                  report: ProgressCallback) -> ExtractResult:
    from backend.ingest.extract import extract_document

    result = extract_document(Path(path), kind, ocr_languages=languages, on_progress=report)
    check_size(result.units, max_chars)
    return result


def _job_pdf_scan(path: str, max_chars: int, report: ProgressCallback) -> Any:
    from backend.ingest.extract.pdf import scan_pdf

    scan = scan_pdf(Path(path), report)
    check_size(scan.units, max_chars)
    return scan


def check_size(units: list[ExtractedUnit], max_chars: int) -> None:
    """Refuse text beyond `max_chars`: each block costs memory in every server's index and an embedding."""
    if sum(len(unit.text) for unit in units) > max_chars:
        raise too_large(f"it holds more than {max_chars:,} characters of text")


def _job_ocr_page(path: str, number: int, languages: str, max_pixels: int, _report: ProgressCallback) -> Any:
    from backend.ingest.extract.pdf import ocr_pdf_page

    return ocr_pdf_page(Path(path), number, languages, max_pixels)


# ---------------------------------------------------------------- what the extract step calls


def extract_sandboxed(pool: SandboxPool, path: Path, kind: DocKind, *, ocr_languages: str,
                      on_progress: ProgressCallback | None = None,
                      should_stop: Callable[[], bool] | None = None) -> ExtractResult:
    """`extract_document` in the pool's workers; a PDF's scanned pages are OCR'd in parallel."""
    if kind != "pdf":
        result: ExtractResult = pool.run(_job_document, (str(path), kind, ocr_languages, pool.limits.max_chars),
                                         should_stop=should_stop, on_progress=on_progress)
        return result
    from backend.ingest.extract.ocr import missing_ocr
    from backend.ingest.extract.pdf import assemble

    scan = pool.run(_job_pdf_scan, (str(path), pool.limits.max_chars), should_stop=should_stop,
                    on_progress=on_progress)
    if not scan.ocr_candidates:
        return assemble(scan, {}, None)
    missing = missing_ocr(ocr_languages)
    if missing is not None:
        return assemble(scan, {}, missing)
    result = assemble(scan, _ocr_pages(pool, path, scan.total, list(scan.ocr_candidates), ocr_languages,
                                       on_progress, should_stop), None)
    check_size(result.units, pool.limits.max_chars)
    return result


def _ocr_pages(pool: SandboxPool, path: Path, total: int, numbers: list[int], languages: str,
               on_progress: ProgressCallback | None, should_stop: Callable[[], bool] | None) -> dict[int, Any]:
    """Each page in its own job, up to the pool's size at once; the first failure stops the rest."""
    done = total - len(numbers)
    lock = threading.Lock()
    stop = threading.Event()

    def one(number: int) -> Any:
        nonlocal done
        if stop.is_set():
            raise ExtractionCancelled
        try:
            page = pool.run(_job_ocr_page, (str(path), number, languages, pool.limits.max_page_pixels),
                            should_stop=lambda: stop.is_set() or bool(should_stop and should_stop()))
            with lock:
                done += 1
                if on_progress is not None:  # may raise to stop: the run was cancelled
                    on_progress(ExtractProgress(done=done, total=total, detail=f"page {done} of {total} (OCR)"))
        except BaseException:
            stop.set()
            raise
        return page

    with ThreadPoolExecutor(max_workers=pool.size, thread_name_prefix="quire-ocr") as threads:
        futures = {number: threads.submit(one, number) for number in numbers}
    errors = [error for future in futures.values() if (error := future.exception()) is not None]
    # Report what went wrong first, not the pages stopped because of it.
    for error in sorted(errors, key=lambda exc: isinstance(exc, ExtractionCancelled)):
        raise error
    return {number: future.result() for number, future in futures.items()}


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
