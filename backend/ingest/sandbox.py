"""Extraction and OCR in child processes with hard limits, so a hostile file cannot hurt the server.

Every file is read by a worker process of a small pool (one per core by default; the machinery, limits
and reasons for it are in backend/sandbox.py, the jobs the workers run in sandbox_jobs.py). Each worker
caps its address space (inherited by the tesseract processes it starts) and its CPU time per job; the
parent kills the worker when the run is cancelled, and replaces a stuck one (no CPU used for a minute)
and runs its job again. No wall-clock limit decides what a file yields: on a busy machine reading is
slower, never different. A worker that breaks a limit is gone: the file fails with "too large or complex
to read safely: …" and a fresh worker takes its place.

A PDF is read in two kinds of job: one text pass over all pages, then one job per page that needs OCR,
spread over the pool so a scanned book uses every core; a deck or Word document likewise, its text, then
one job per picture worth OCR'ing (a picture whose job breaks a limit or crashes is named in the
document's warnings and the rest of the file is kept). Tesseract runs with OMP_THREAD_LIMIT=1: with pages
already in parallel, its own OpenMP threads would only oversubscribe the cores — measured slower — and
each would add a thread stack to the capped address space.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backend.config import Settings
from backend.ingest import sandbox_jobs as jobs
from backend.ingest.extract.common import too_large
from backend.ingest.types import ExtractionError, ExtractResult, ProgressCallback
from backend.sandbox import STUCK_S, Cancelled, JobCrashed, LimitBroken, ProcessLimits, ProcessPool, preload
from backend.store.kinds import DocKind

# The jobs' module and every reader they call (PyMuPDF, python-docx/pptx, openpyxl, lxml), with the OCR of
# a PDF's pages and of a slide's pictures (Pillow, pytesseract) named too, so that a worker's first OCR
# job does not import them whichever readers import what. The format registry too: a worker that imports
# it after its address-space cap is set may not have the room to (a small cap failed a small note).
preload(["backend.ingest.sandbox_jobs", "backend.ingest.extract", "backend.ingest.extract.pictures",
         "backend.ingest.formats", "backend.ingest.chunk"])
log = logging.getLogger(__name__)
# A run cancelled while a worker was reading (the worker has been killed).
ExtractionCancelled = Cancelled


@dataclass(frozen=True)
class Limits:
    """What one extraction job may use (see docs/formats.md, "Reading files safely")."""

    memory_mb: int = 1024
    cpu_s: int = 300
    max_page_pixels: int = 25_000_000
    max_chars: int = 30_000_000


class SandboxPool(ProcessPool):
    """The extraction workers; `run` raises ExtractionError (`too_large` for a broken limit) or
    ExtractionCancelled. Thread-safe: many ingestions share it."""

    def __init__(self, size: int, limits: Limits, *, stuck_s: float = STUCK_S) -> None:
        super().__init__(size, ProcessLimits(memory_mb=limits.memory_mb, cpu_s=limits.cpu_s, stuck_s=stuck_s),
                         name="quire-extract")
        self.limits = limits

    def run(self, job: Callable[..., Any], args: tuple[Any, ...], *, should_stop: Callable[[], bool] | None = None,
            on_progress: ProgressCallback | None = None, cpu_s: int | None = None) -> Any:
        try:
            return super().run(job, args, should_stop=should_stop, on_progress=on_progress, cpu_s=cpu_s)
        except LimitBroken as exc:
            raise too_large(f"reading it {exc.reason}") from None
        except JobCrashed as exc:
            raise ExtractionError("extract_failed", f"The file could not be read ({exc.name}).") from None


# ---------------------------------------------------------------- what the extract step calls


def extract_sandboxed(pool: SandboxPool, path: Path, kind: DocKind, *, ocr_languages: str,
                      on_progress: ProgressCallback | None = None,
                      should_stop: Callable[[], bool] | None = None) -> ExtractResult:
    """The file read in the pool's workers as its format says (backend/ingest/formats/): one job for the
    whole file, or the format's own jobs (a PDF's scanned pages OCR'd in parallel)."""
    from backend.ingest.formats import format_of  # the formats' readers use this module's pool

    fmt = format_of(kind)
    if fmt.sandboxed is not None:
        return fmt.sandboxed(pool, path, ocr_languages=ocr_languages, on_progress=on_progress,
                             should_stop=should_stop)
    result: ExtractResult = pool.run(jobs.document, (str(path), kind, ocr_languages, pool.limits.max_chars),
                                     should_stop=should_stop, on_progress=on_progress)
    return result


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
    """The shared pool, with as many workers as `settings` say, each under the limits above."""
    return shared_pool(settings.tuning.extract_workers, Limits())
