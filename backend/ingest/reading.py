"""Reading one document of an ingestion run: its original through the extraction sandbox, progress
written as it goes ("page 3 of 21 (OCR)"), a cancel seen at once; and what the library says when a file
gives nothing (`nothing_found`) or fails (`fail_document`). The extract step (steps.py) calls these.
"""

from __future__ import annotations

import logging
import time

from backend.context import get_context
from backend.ingest import files
from backend.ingest.sandbox import ExtractionCancelled, extract_sandboxed, pool_for
from backend.ingest.types import ExtractionError, ExtractProgress, ExtractResult, ProgressCallback
from backend.store import ingest as store
from backend.store.liveness import DATABASE_LOST
from backend.wording import plural

log = logging.getLogger(__name__)

_PROGRESS_INTERVAL_S = 0.25


def read_document(item: store.IngestItemWithDocument) -> ExtractResult | str:
    """The document's extracted text, or why not as a reason code ("cancelled", an error code; the
    document's failure is recorded for a file that cannot be read)."""
    try:
        return _extract(item, _progress_writer(item["workflow_id"], item))
    except (ExtractionStopped, ExtractionCancelled):
        return "cancelled"
    except ExtractionError as exc:
        fail_document(item, exc.message)
        return exc.code
    except DATABASE_LOST:  # not the file's fault: the step runs again once the database is back
        raise
    except Exception as exc:
        log.exception("extracting %s failed", item["filename"])
        fail_document(item, f"The file could not be read ({type(exc).__name__}).")
        return "extract_failed"


def no_longer_wanted(workflow_id: str, document_id: str) -> bool:
    """Whether nobody waits for this document any more: its run was cancelled or it was trashed (or
    deleted) meanwhile."""
    current = store.load_item(get_context().db, workflow_id, document_id)
    return current is None or not store.item_is_current(current)


def nothing_found(kind: str, pages: int | None) -> str:
    """Why a file that was read gave no text, in the words of its format: blank templates, decks of
    pictures and empty workbooks are common uploads, and "no text" alone left the user guessing."""
    message = "No text could be found in this file"
    if kind == "pptx":
        if not pages:
            return f"{message}: the presentation has no slides."
        hold, them = ("holds", "it") if pages == 1 else ("hold", "them")
        return (f"{message}: its {plural(pages, 'slide')} {hold} no text (not in notes, tables or charts), and "
                f"no picture on {them} has readable text.")
    if kind == "docx":
        return (f"{message}: the Word document is empty or holds only pictures without readable text "
                "(headers, footers and comments are not read).")
    if kind == "xlsx":
        return f"{message}: the workbook's {plural(pages or 0, 'sheet')} {'is' if pages == 1 else 'are'} empty."
    if kind == "html":
        return f"{message}: the web page shows no text (its title, scripts and styles are not read)."
    return f"{message}."


def _extract(item: store.IngestItemWithDocument, on_progress: ProgressCallback) -> ExtractResult:
    """Read the file in the sandbox's child processes (limits: backend/ingest/sandbox.py); the child is
    killed as soon as the run is cancelled or the document deleted."""
    ctx = get_context()
    try:  # this process's cached copy of the original, fetched from Postgres if it has none yet
        source = files.materialise(ctx.db, ctx.settings.docs_dir, item["sha256"])
    except files.OriginalMissing as exc:
        raise ExtractionError("file_missing", "The uploaded file is no longer stored; upload it again.") from exc
    return extract_sandboxed(pool_for(ctx.settings), source, item["kind"], ocr_languages=ctx.settings.ocr_languages,
                             on_progress=on_progress,
                             should_stop=lambda: no_longer_wanted(item["workflow_id"], item["document_id"]))


class ExtractionStopped(Exception):
    """The document's item failed meanwhile (its run was cancelled): the rest of the file is not read."""


def _progress_writer(workflow_id: str, item: store.IngestItemWithDocument) -> ProgressCallback:
    ctx = get_context()
    last = 0.0

    def report(progress: ExtractProgress) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last < _PROGRESS_INTERVAL_S and progress.done < progress.total:
            return
        last = now
        if not store.update_item(ctx.db, workflow_id, item["document_id"], state="extracting",
                                 done=progress.done, total=progress.total, detail=progress.detail):
            raise ExtractionStopped  # the run was cancelled: stop reading (OCR can take minutes)
        store.update_run(ctx.db, workflow_id, "extracting", progress.done, progress.total,
                         f"{item['filename']}: {progress.detail}")

    return report


def fail_document(item: store.IngestItemWithDocument, message: str) -> None:
    """Record a document's failure; a previous live version stays live and searchable."""
    ctx = get_context()
    store.update_item(ctx.db, item["workflow_id"], item["document_id"], state="failed", error=message,
                      detail="failed")
    if item["document_current_version"] is not None:
        store.set_document_status(ctx.db, item["document_id"], "ready",
                                  warning=f"A newer upload could not be read: {message} The previous version is kept.")
    else:
        store.set_document_status(ctx.db, item["document_id"], "failed", error=message)
