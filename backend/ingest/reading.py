"""Reading one document of an ingestion run: its original through the extraction sandbox (a recording:
its plan, transcribed later piece by piece), progress written as it goes ("page 3 of 21 (OCR)"), a
cancel seen at once; and what the library says when a file gives nothing (`nothing_found`) or fails
(`fail_document`). `DocumentReader` holds what reading uses (the database, the settings); the extract
step (steps.py) and the recording steps (recording_steps.py) call it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from backend.config import Settings
from backend.ingest import files, recordings
from backend.ingest.formats import format_of
from backend.ingest.sandbox import ExtractionCancelled, extract_sandboxed, pool_for
from backend.ingest.types import ExtractionError, ExtractProgress, ExtractResult, ProgressCallback
from backend.store import ingest as store
from backend.store.db import Database
from backend.store.liveness import DATABASE_LOST

T = TypeVar("T")

log = logging.getLogger(__name__)

_PROGRESS_INTERVAL_S = 0.25


class ExtractionStopped(Exception):
    """The document's item failed meanwhile (its run was cancelled): the rest of the file is not read."""


def nothing_found(kind: str, pages: int | None) -> str:
    """Why a file that was read gave no text, in the words of its format: blank templates, decks of
    pictures and empty workbooks are common uploads, and "no text" alone left the user guessing."""
    wording = format_of(kind).nothing_found
    return wording(pages) if wording is not None else "No text could be found in this file."


class DocumentReader:
    """Reads an ingestion run's documents over the database (items, progress, originals) and the settings
    that shape reading (the sandbox's limits, OCR languages, the originals' cache)."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings

    def read_document(self, item: store.IngestItemWithDocument) -> ExtractResult | str:
        """The document's extracted text, or why not as a reason code ("cancelled", an error code; the
        document's failure is recorded for a file that cannot be read)."""
        return self._guarded(item, lambda: self._extract(item, self.progress_writer(item["workflow_id"], item)))

    def plan_recording(self, item: store.IngestItemWithDocument) -> recordings.RecordingPlan | str:
        """A recording's plan (its length, language and pieces), or why not as `read_document` says it."""
        def plan() -> recordings.RecordingPlan | str:
            recording = recordings.plan(self.original(item), self.settings,
                                        self.progress_writer(item["workflow_id"], item), self.stop_check(item))
            if recording is None:
                self.fail_document(item, nothing_found(item["kind"], None))
                return "empty"
            return recording

        return self._guarded(item, plan)

    def _guarded(self, item: store.IngestItemWithDocument, read: Callable[[], T]) -> T | str:
        try:
            return read()
        except (ExtractionStopped, ExtractionCancelled):
            return "cancelled"
        except ExtractionError as exc:
            self.fail_document(item, exc.message)
            return exc.code
        except DATABASE_LOST:  # not the file's fault: the step runs again once the database is back
            raise
        except Exception as exc:
            log.exception("extracting %s failed", item["filename"])
            self.fail_document(item, f"The file could not be read ({type(exc).__name__}).")
            return "extract_failed"

    def no_longer_wanted(self, workflow_id: str, document_id: str) -> bool:
        """Whether nobody waits for this document any more: its run was cancelled or it was trashed (or
        deleted) meanwhile."""
        current = store.load_item(self.db, workflow_id, document_id)
        return current is None or not store.item_is_current(current)

    def stop_check(self, item: store.IngestItemWithDocument) -> Callable[[], bool]:
        """`no_longer_wanted` for this item, to hand to work that polls it."""
        return lambda: self.no_longer_wanted(item["workflow_id"], item["document_id"])

    def original(self, item: store.IngestItemWithDocument) -> Path:
        """This process's cached copy of the item's original, fetched from Postgres if it has none yet."""
        try:
            return files.materialise(self.db, self.settings.docs_dir, item["sha256"])
        except files.OriginalMissing as exc:
            raise ExtractionError("file_missing", "The uploaded file is no longer stored; upload it again.") from exc

    def warm_up(self) -> None:
        """Start the sandbox's workers in the background, if they are not running yet."""
        pool_for(self.settings).warm()

    def _extract(self, item: store.IngestItemWithDocument, on_progress: ProgressCallback) -> ExtractResult:
        """Read the file in the sandbox's child processes (limits: backend/ingest/sandbox.py); the child is
        killed as soon as the run is cancelled or the document deleted."""
        return extract_sandboxed(pool_for(self.settings), self.original(item), item["kind"],
                                 ocr_languages=self.settings.ocr_languages, on_progress=on_progress,
                                 should_stop=self.stop_check(item))

    def progress_writer(self, workflow_id: str, item: store.IngestItemWithDocument) -> ProgressCallback:
        db = self.db
        last = 0.0

        def report(progress: ExtractProgress) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last < _PROGRESS_INTERVAL_S and progress.done < progress.total:
                return
            last = now
            if not store.update_item(db, workflow_id, item["document_id"], state="extracting",
                                     done=progress.done, total=progress.total, detail=progress.detail):
                raise ExtractionStopped  # the run was cancelled: stop reading (OCR can take minutes)
            store.update_run(db, workflow_id, "extracting", progress.done, progress.total,
                             f"{item['filename']}: {progress.detail}")

        return report

    def fail_document(self, item: store.IngestItemWithDocument, message: str) -> None:
        """Record a document's failure; a previous live version stays live and searchable."""
        store.update_item(self.db, item["workflow_id"], item["document_id"], state="failed", error=message,
                          detail="failed")
        if item["document_current_version"] is not None:
            store.set_document_status(self.db, item["document_id"], "ready", warning=(
                f"A newer upload could not be read: {message} The previous version is kept."))
        else:
            store.set_document_status(self.db, item["document_id"], "failed", error=message)
