"""The jobs a file of several parts is read in, spread over the extraction sandbox's workers (the formats
that declare them in backend/ingest/formats/ name these as their `sandboxed` reader).

A PDF is read in two kinds of job: one text pass over all pages, then one job per few pages that need
OCR (`read_in_runs`: one tesseract run reads them), spread over the pool so a scanned book uses every
core; a deck or Word document likewise, its text, then one job per few pictures worth OCR'ing (a picture
that breaks a limit or crashes is named in the document's warnings and the rest of the file is kept). A
picture on its own becomes a PDF of its frames.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from backend.ingest import sandbox_jobs as jobs
from backend.ingest.extract.pictures import PictureOcr, PictureScan
from backend.ingest.sandbox import ExtractionCancelled, SandboxPool
from backend.ingest.types import ExtractionError, ExtractProgress, ExtractResult, ProgressCallback
from backend.scratch import scratch_folder
from backend.store.kinds import DocKind

if TYPE_CHECKING:
    from backend.ingest.formats.base import SandboxedReader

log = logging.getLogger(__name__)
_Key = TypeVar("_Key", int, str)
# Pages or pictures one tesseract run reads (backend/ingest/extract/ocr.py, "Several pages, one
# tesseract"): four save three of its four starts (about 0.3 s of CPU each), and a run is still short
# enough that progress moves every few seconds and a run whose worker breaks a limit costs little to read
# again one by one.
PER_RUN = 4
StopCheck = Callable[[], bool] | None
Job = tuple[Callable[..., Any], tuple[Any, ...]]  # a job function of sandbox_jobs and its arguments


def pdf(pool: SandboxPool, path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None,
        should_stop: StopCheck) -> ExtractResult:
    """A PDF: its text pass, then its scanned pages OCR'd in parallel."""
    from backend.ingest.extract.ocr import missing_ocr
    from backend.ingest.extract.pdf import assemble

    languages = ocr_languages
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

    def ocr_job(numbers: list[int]) -> Job:
        return jobs.ocr_pages, (str(path), numbers, languages, pool.limits.max_page_pixels)

    recognised = read_in_runs(pool, sorted(scan.ocr_candidates), ocr_job, page_done, should_stop)
    result = assemble(scan, recognised, None)
    jobs.check_size(result.units, pool.limits.max_chars)
    return result


def in_runs(keys: list[_Key], workers: int) -> list[list[_Key]]:
    """`keys` (pages, pictures) in runs of at most PER_RUN consecutive ones, and at least as many runs as
    there are workers while there are keys for them (a short scan still uses every core)."""
    size = max(1, min(PER_RUN, -(-len(keys) // max(workers, 1))))
    return [keys[start:start + size] for start in range(0, len(keys), size)]


def read_in_runs(pool: SandboxPool, keys: list[_Key], job: Callable[[list[_Key]], Job],
                 on_done: Callable[[_Key], None], should_stop: StopCheck,
                 on_error: Callable[[_Key, ExtractionError], Any] | None = None) -> dict[_Key, Any]:
    """Each run of `keys` (`in_runs`) in a job of its own, `job(run)` returning a dict by key; `on_done`
    for each key as its run ends. A run whose job breaks its worker's limits (not its tesseract's: the
    job reads those pages again itself) is read again one key per job, so a key that breaks them again
    fails as it would alone: with `on_error` turning the failure into its result, else failing the file."""
    runs = in_runs(keys, pool.size)

    def run_done(index: int) -> None:
        for key in runs[index]:
            on_done(key)

    def one_by_one(index: int, error: ExtractionError) -> dict[_Key, Any]:
        log.warning("OCR of %s failed together (%s); reading them one by one", runs[index], error.message)
        read: dict[_Key, Any] = {}
        for key in runs[index]:
            try:
                read.update(pool.run(*job([key]), should_stop=should_stop))
            except ExtractionError as alone:
                if on_error is None:
                    raise
                read[key] = on_error(key, alone)
        return read

    each = {index: job(run) for index, run in enumerate(runs)}
    return {key: result for read in run_each(pool, each, run_done, should_stop, on_error=one_by_one).values()
            for key, result in read.items()}


def image(pool: SandboxPool, path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None,
          should_stop: StopCheck) -> ExtractResult:
    """A picture on its own: made into a PDF of its frames in one job, then read as a scanned PDF."""
    from backend.ingest.extract.ocr import missing_ocr
    from backend.ingest.extract.pdf import OCR_LANGUAGES_HINT

    with scratch_folder("image") as folder:
        pages = folder / "pages.pdf"
        pool.run(jobs.image_pdf, (str(path), str(pages)), should_stop=should_stop)
        try:
            return pdf(pool, pages, ocr_languages=ocr_languages, on_progress=on_progress, should_stop=should_stop)
        except ExtractionError as exc:
            if exc.code != "no_text":
                raise
            # The PDF path's reasons name a PDF and its pages; the user gave a picture.
            missing = missing_ocr(ocr_languages)
            why = (f"OCR is not available to read it ({missing}); install it and retry the document" if missing
                   else f"OCR found no words in it. {OCR_LANGUAGES_HINT}")
            raise ExtractionError("no_text", f"No text could be found in this picture: {why}") from None


def pictured(kind: DocKind) -> SandboxedReader:
    """The reader of a deck or Word document (`kind`): its text pass, then its pictures OCR'd in parallel."""

    def read(pool: SandboxPool, path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None,
             should_stop: StopCheck) -> ExtractResult:
        return _with_pictures(pool, path, kind, ocr_languages, on_progress, should_stop)

    return read


def _with_pictures(pool: SandboxPool, path: Path, kind: DocKind, languages: str, on_progress: ProgressCallback | None,
                   should_stop: StopCheck) -> ExtractResult:
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

    def ocr_job(members: list[str]) -> Job:
        return jobs.ocr_pictures, (str(path), members, languages, pool.limits.max_page_pixels)

    result = scan.assemble(read_in_runs(pool, list(scan.pictures), ocr_job, picture_done, should_stop,
                                        on_error=unread), None)
    jobs.check_size(result.units, pool.limits.max_chars)
    return result


def run_each(pool: SandboxPool, each: dict[_Key, Job],
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
