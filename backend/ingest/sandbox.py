"""Extraction and OCR in child processes with hard limits, so a hostile file cannot hurt the server.

Every file is read by a worker process of a small pool (one per core by default; the machinery, limits
and reasons for it are in backend/sandbox.py, the jobs the workers run in sandbox_jobs.py). Each worker
caps its address space (inherited by the tesseract processes it starts) and its CPU time per job; the
parent enforces a wall-clock limit and kills the worker when the run is cancelled. A worker that breaks a
limit is gone: the file fails with "too large or complex to read safely: …" and a fresh worker takes its
place.

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from backend.config import Settings
from backend.ingest import sandbox_jobs as jobs
from backend.ingest.extract import PICTURED_KINDS
from backend.ingest.extract.common import too_large
from backend.ingest.extract.pictures import PictureOcr, PictureScan
from backend.ingest.types import ExtractionError, ExtractProgress, ExtractResult, ProgressCallback
from backend.sandbox import Cancelled, JobCrashed, LimitBroken, ProcessLimits, ProcessPool, preload
from backend.scratch import scratch_folder
from backend.store.kinds import DocKind

# The jobs' module and every reader they call (PyMuPDF, python-docx/pptx, openpyxl, lxml), with the OCR of
# a PDF's pages and of a slide's pictures (Pillow, pytesseract) named too, so that a worker's first OCR
# job does not import them whichever readers import what.
preload(["backend.ingest.sandbox_jobs", "backend.ingest.extract", "backend.ingest.extract.pictures",
         "backend.ingest.chunk"])
log = logging.getLogger(__name__)
# A run cancelled while a worker was reading (the worker has been killed).
ExtractionCancelled = Cancelled
_Key = TypeVar("_Key", int, str)


@dataclass(frozen=True)
class Limits:
    """What one extraction job may use (see README, "Limits on reading files")."""

    memory_mb: int = 1024
    cpu_s: int = 300
    wall_s: float = 600.0
    max_page_pixels: int = 25_000_000
    max_chars: int = 20_000_000


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


# ---------------------------------------------------------------- what the extract step calls


def extract_sandboxed(pool: SandboxPool, path: Path, kind: DocKind, *, ocr_languages: str,
                      on_progress: ProgressCallback | None = None,
                      should_stop: Callable[[], bool] | None = None) -> ExtractResult:
    """`extract_document` in the pool's workers; a PDF's scanned pages and the pictures of a deck or Word
    document are OCR'd in parallel."""
    if kind == "pdf":
        return _pdf(pool, path, ocr_languages, on_progress, should_stop)
    if kind == "image":
        return _image(pool, path, ocr_languages, on_progress, should_stop)
    if kind in PICTURED_KINDS:
        return _with_pictures(pool, path, kind, ocr_languages, on_progress, should_stop)
    result: ExtractResult = pool.run(jobs.document, (str(path), kind, ocr_languages, pool.limits.max_chars),
                                     should_stop=should_stop, on_progress=on_progress)
    return result


def _pdf(pool: SandboxPool, path: Path, languages: str, on_progress: ProgressCallback | None,
         should_stop: Callable[[], bool] | None) -> ExtractResult:
    from backend.ingest.extract.ocr import missing_ocr
    from backend.ingest.extract.pdf import assemble

    scan = pool.run(jobs.pdf_scan, (str(path), pool.limits.max_chars), should_stop=should_stop,
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

    each = {number: (jobs.ocr_page, (str(path), number, languages, pool.limits.max_page_pixels))
            for number in scan.ocr_candidates}
    result = assemble(scan, _run_each(pool, each, page_done, should_stop), None)
    jobs.check_size(result.units, pool.limits.max_chars)
    return result


def _image(pool: SandboxPool, path: Path, languages: str, on_progress: ProgressCallback | None,
           should_stop: Callable[[], bool] | None) -> ExtractResult:
    """A picture on its own: made into a PDF of its frames in one job, then read as a scanned PDF."""
    from backend.ingest.extract.ocr import missing_ocr
    from backend.ingest.extract.pdf import OCR_LANGUAGES_HINT

    with scratch_folder("image") as folder:
        pdf = folder / "pages.pdf"
        pool.run(jobs.image_pdf, (str(path), str(pdf)), should_stop=should_stop)
        try:
            return _pdf(pool, pdf, languages, on_progress, should_stop)
        except ExtractionError as exc:
            if exc.code != "no_text":
                raise
            # The PDF path's reasons name a PDF and its pages; the user gave a picture.
            missing = missing_ocr(languages)
            why = (f"OCR is not available to read it ({missing}); install it and retry the document" if missing
                   else f"OCR found no words in it. {OCR_LANGUAGES_HINT}")
            raise ExtractionError("no_text", f"No text could be found in this picture: {why}") from None


def _with_pictures(pool: SandboxPool, path: Path, kind: DocKind, languages: str,
                   on_progress: ProgressCallback | None, should_stop: Callable[[], bool] | None) -> ExtractResult:
    """The file's text, then each picture worth reading in its own job; a slide (of a deck) or a picture
    (of a Word document) counts as done in the progress when the last of its pictures is read, as a PDF's
    page when it is OCR'd. A picture whose job breaks a limit or crashes counts as one OCR failed on (the
    document says so), not as the file's failure: the file's text does not depend on it."""
    from backend.ingest.extract.ocr import missing_ocr

    scan: PictureScan = pool.run(jobs.picture_scan, (str(path), kind, pool.limits.max_chars),
                                 should_stop=should_stop, on_progress=on_progress)
    missing = missing_ocr(languages) if scan.pictures else None
    if not scan.pictures or missing is not None:
        return scan.assemble({}, missing)
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
                                                detail=f"{scan.progress_noun} {done} of {scan.total} (OCR)"))

    def unread(member: str, error: ExtractionError) -> PictureOcr:
        log.warning("OCR of picture %s of %s failed: %s", member, path.name, error.message)
        return PictureOcr("", failed=True)

    each = {member: (jobs.ocr_picture, (str(path), member, languages, pool.limits.max_page_pixels))
            for member in scan.pictures}
    result = scan.assemble(_run_each(pool, each, picture_done, should_stop, on_error=unread), None)
    jobs.check_size(result.units, pool.limits.max_chars)
    return result


def _run_each(pool: SandboxPool, each: dict[_Key, tuple[Callable[..., Any], tuple[Any, ...]]],
              on_done: Callable[[_Key], None], should_stop: Callable[[], bool] | None,
              on_error: Callable[[_Key, ExtractionError], Any] | None = None) -> dict[_Key, Any]:
    """Each job in its own worker, up to the pool's size at once, `on_done` called (one at a time) as each
    ends; the first failure stops the rest, unless `on_error` turns a job's `ExtractionError` (a broken
    limit, a crash) into that job's result."""
    lock = threading.Lock()
    stop = threading.Event()

    def stopped() -> bool:
        return stop.is_set() or bool(should_stop and should_stop())

    def one(key: _Key) -> Any:
        if stop.is_set():
            raise ExtractionCancelled
        job, args = each[key]
        try:
            try:
                result = pool.run(job, args, should_stop=stopped)
            except ExtractionError as error:
                if on_error is None:
                    raise
                result = on_error(key, error)
            with lock:
                on_done(key)
        except BaseException:
            stop.set()
            raise
        return result

    with ThreadPoolExecutor(max_workers=pool.size, thread_name_prefix="quire-ocr") as threads:
        futures = {key: threads.submit(one, key) for key in each}
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
    """The shared pool, with as many workers as `settings` say, each under the limits above."""
    return shared_pool(settings.tuning.extract_workers, Limits())
