"""The DBOS steps of the ingestion workflow. Each does one idempotent job and returns only ids and
counts, so the DBOS ledger stays small: extracted text goes to `ingest_chunks`, vectors to `blocks`.

The steps are methods of `IngestSteps`, built once per process over the services they use. DBOS records
a step under its name and checks it when a workflow is replayed, so each keeps the name earlier builds
recorded (`name=`): a run recorded by one of them resumes here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import NotRequired, TypedDict

from dbos import DBOS, WorkflowHandle

from backend.config import Settings
from backend.durable import RETRY_WHEN_DATABASE_LOST, RETRY_WHEN_SYSTEM_DATABASE_LOST
from backend.ingest import files, recordings
from backend.ingest.chunk import chunk_units
from backend.ingest.formats import format_of
from backend.ingest.sandbox import ExtractionCancelled, extract_sandboxed, pool_for
from backend.ingest.types import ExtractionError, ExtractProgress, ExtractResult, ProgressCallback
from backend.llm.embedders import Embedder
from backend.llm.errors import ModelError, ModelUnavailable
from backend.metrics import WORK
from backend.retrieval.service import SearchService
from backend.store import embeddings, staging, versions
from backend.store import ingest as store
from backend.store.db import Database
from backend.store.liveness import DATABASE_LOST
from backend.wording import plural

log = logging.getLogger(__name__)

_PROGRESS_INTERVAL_S = 0.25
EMBED_RETRY_DELAYS_S = (1.0, 2.0, 4.0)
_AWAIT_POLL_S = 0.5  # how often a run looks whether another of its documents is stored


# What the steps return: recorded by DBOS as each step's output (and replayed from there after a crash).
class ScanDecision(TypedDict):
    document_id: str
    decision: store.Decision


class Extracted(TypedDict):
    """`ok` False: the document is not stored (`reason`: superseded, cancelled, empty, an error code).
    `recording`: the file is a recording, planned to be transcribed in these pieces (recording_steps.py)."""

    ok: bool
    reason: NotRequired[str]
    pages: NotRequired[int | None]
    chunks: NotRequired[int]
    warnings: NotRequired[int]
    recording: NotRequired[recordings.RecordingPlan]


class Stored(TypedDict):
    blocks: int
    to_embed: int
    sha256: str  # "" when the document was deleted for good meanwhile


class Embedded(TypedDict):
    embedded: int
    unavailable: bool  # the model server stayed down through the retries


class DocumentIngested(TypedDict):
    """A document workflow's result: what the run's embedding loop needs."""

    document_id: str
    blocks: int
    to_embed: int
    sha256: str | None  # None: not stored (superseded, cancelled or unreadable)


class RunTally(TypedDict):
    ready: int
    skipped: int
    failed: int
    missing_embeddings: int  # of this run's documents
    backfill: bool  # blocks anywhere lack vectors once this run's documents settled: start the backfill


def _decide(item: store.IngestItemRow) -> store.Decision:
    if item["prior_status"] is None:
        return "new"
    if (item["target_version"] is None and item["prior_sha256"] == item["sha256"]
            and item["prior_status"] == "ready"):
        return "unchanged"
    return "changed"


def nothing_found(kind: str, pages: int | None) -> str:
    """Why a file that was read gave no text, in the words of its format: blank templates, decks of
    pictures and empty workbooks are common uploads, and "no text" alone left the user guessing."""
    wording = format_of(kind).nothing_found
    return wording(pages) if wording is not None else "No text could be found in this file."


class ExtractionStopped(Exception):
    """The document's item failed meanwhile (its run was cancelled): the rest of the file is not read."""


def _summary_text(summary: RunTally) -> str:
    parts = [f"{summary['ready']} ready"]
    if summary["skipped"]:
        parts.append(f"{summary['skipped']} unchanged")
    if summary["failed"]:
        parts.append(f"{summary['failed']} failed")
    if summary["missing_embeddings"]:
        parts.append(f"{plural(summary['missing_embeddings'], 'passage')} waiting for embeddings")
    return ", ".join(parts)


class IngestSteps:
    """The ingestion's steps over the services they use: the database, the index, the embedder and the
    settings that shape extraction (chunk size, OCR languages, the sandbox's limits)."""

    def __init__(self, db: Database, search: SearchService, embedder: Embedder, settings: Settings) -> None:
        self.db = db
        self.search = search
        self.embedder = embedder
        self.settings = settings

    @DBOS.step(name="scan_step", **RETRY_WHEN_DATABASE_LOST)
    def scan_step(self, workflow_id: str) -> list[ScanDecision]:
        """Decide for every file of the run: new, changed or unchanged (its original is already stored and
        was verified against its SHA-256 when it was accepted)."""
        store.log_step_run(self.db, workflow_id, "scan")
        store.update_run(self.db, workflow_id, "scanning")
        items = store.load_items(self.db, workflow_id)
        decisions = [(item["document_id"], item["decision"] or _decide(item)) for item in items]
        store.record_decisions(self.db, workflow_id, decisions)
        return [{"document_id": doc, "decision": decision} for doc, decision in decisions]

    @DBOS.step(name="extract_step", **RETRY_WHEN_DATABASE_LOST)
    def extract_step(self, workflow_id: str, document_id: str) -> Extracted:
        """Extract and chunk one document into `ingest_chunks`; a bad file fails only this document."""
        db = self.db
        store.log_step_run(db, workflow_id, "extract", document_id)
        item = store.load_item(db, workflow_id, document_id)
        if item is None or not store.item_is_current(item) or not store.mark_ingesting(db, workflow_id, document_id):
            return {"ok": False, "reason": "superseded"}
        store.update_item(db, workflow_id, document_id, state="extracting", detail="opening file")
        try:
            if format_of(item["kind"]).pieces:
                return self._plan_recording(item, self.progress_writer(workflow_id, item))
            result = self._extract(item, self.progress_writer(workflow_id, item))
        except (ExtractionStopped, ExtractionCancelled):
            return {"ok": False, "reason": "cancelled"}
        except ExtractionError as exc:
            self.fail(item, exc.message)
            return {"ok": False, "reason": exc.code}
        except DATABASE_LOST:  # not the file's fault: the step runs again once the database is back
            raise
        except Exception as exc:
            log.exception("extracting %s failed", item["filename"])
            self.fail(item, f"The file could not be read ({type(exc).__name__}).")
            return {"ok": False, "reason": "extract_failed"}
        return self._stage(item, result)

    def _stage(self, item: store.IngestItemWithDocument, result: ExtractResult) -> Extracted:
        """Chunk what was read into `ingest_chunks` for the store step."""
        workflow_id, document_id = item["workflow_id"], item["document_id"]
        chunks = chunk_units(result.units, self.settings.tuning.chunk_size,
                             self.settings.tuning.chunk_overlap)
        if not chunks:
            self.fail(item, nothing_found(item["kind"], result.pages))
            return {"ok": False, "reason": "empty"}
        staging.stage_chunks(self.db, workflow_id, document_id, chunks)
        WORK.add("documents_read")
        WORK.add("pages_read", result.pages or 0)
        store.update_item(self.db, workflow_id, document_id, state="storing", pages=result.pages,
                          detail=plural(len(chunks), "passage"), warnings=result.warnings)
        return {"ok": True, "pages": result.pages, "chunks": len(chunks), "warnings": len(result.warnings)}

    def _plan_recording(self, item: store.IngestItemWithDocument, on_progress: ProgressCallback) -> Extracted:
        """A recording's plan (recording_steps.py transcribes it piece by piece, each piece a step)."""
        recording = recordings.plan(self.original(item), self.settings, on_progress, self.stop_check(item))
        if recording is None:
            self.fail(item, nothing_found(item["kind"], None))
            return {"ok": False, "reason": "empty"}
        store.update_item(self.db, item["workflow_id"], item["document_id"], state="extracting",
                          pages=round(recording["duration_s"]), language=recording["language"],
                          detail=recordings.planned(recording))
        return {"ok": True, "pages": round(recording["duration_s"]), "recording": recording}

    def original(self, item: store.IngestItemWithDocument) -> Path:
        """This process's cached copy of the item's original, fetched from Postgres if it has none yet."""
        try:
            return files.materialise(self.db, self.settings.docs_dir, item["sha256"])
        except files.OriginalMissing as exc:
            raise ExtractionError("file_missing", "The uploaded file is no longer stored; upload it again.") from exc

    def stop_check(self, item: store.IngestItemWithDocument) -> Callable[[], bool]:
        """Whether nobody waits for this item's reading any more (its run cancelled, its document trashed)."""

        def stopped() -> bool:
            current = store.load_item(self.db, item["workflow_id"], item["document_id"])
            # No record left (the run is gone): nobody waits for this file any more.
            return current is None or not store.item_is_current(current)

        return stopped

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

    def fail(self, item: store.IngestItemWithDocument, message: str) -> None:
        """Record a document's failure; a previous live version stays live and searchable."""
        store.update_item(self.db, item["workflow_id"], item["document_id"], state="failed", error=message,
                          detail="failed")
        if item["document_current_version"] is not None:
            store.set_document_status(self.db, item["document_id"], "ready", warning=(
                f"A newer upload could not be read: {message} The previous version is kept."))
        else:
            store.set_document_status(self.db, item["document_id"], "failed", error=message)

    @DBOS.step(name="store_step", **RETRY_WHEN_DATABASE_LOST)
    def store_step(self, workflow_id: str, document_id: str) -> Stored:
        """Make the staged chunks the document's live blocks as a new version (one transaction)."""
        store.log_step_run(self.db, workflow_id, "store", document_id)
        item = store.load_item(self.db, workflow_id, document_id)
        if item is None:  # deleted for good (from the trash) while the run went on
            return {"blocks": 0, "to_embed": 0, "sha256": ""}
        terms = self._analyse(workflow_id, document_id)
        stored = versions.store_version(self.db, item, self.embedder.model, files.mime_for(item["kind"]), terms)
        if stored.skipped:
            return {"blocks": 0, "to_embed": 0, "sha256": item["sha256"]}
        store.update_item(self.db, workflow_id, document_id, state="embedding", blocks=stored.blocks, done=0,
                          total=0, detail=f"{plural(stored.blocks, 'passage')} stored, waiting for embedding")
        self.search.notify([document_id])
        return {"blocks": stored.blocks, "to_embed": stored.to_embed, "sha256": item["sha256"]}

    def _analyse(self, workflow_id: str, document_id: str) -> versions.AnalysedTerms:
        """The staged chunks' BM25 terms (cached with each block so the index's startup build can skip the
        analysis), computed before the swap so its transaction stays short."""
        analyzer = self.search.analyzer
        staged = staging.staged_texts(self.db, workflow_id, document_id)
        analysed = [analyzer.term_counts(chunk.text) for chunk in staged]
        return versions.AnalysedTerms(analyzer.fingerprint, [chunk.ordinal for chunk in staged],
                                      [terms for terms, _ in analysed], [counts for _, counts in analysed])

    @DBOS.step(name="await_documents_step", **RETRY_WHEN_SYSTEM_DATABASE_LOST)
    def await_documents_step(self, child_workflow_ids: list[str]) -> list[DocumentIngested]:
        """The results of a run's document workflows (which may run on any process), once all are done."""
        return [DBOS.retrieve_workflow(child_id).get_result() for child_id in child_workflow_ids]

    @DBOS.step(name="await_next_document_step", **RETRY_WHEN_SYSTEM_DATABASE_LOST)
    def await_next_document_step(self, child_workflow_ids: list[str]) -> DocumentIngested:
        """The result of whichever of these document workflows (on any process) is done first."""
        # Handles without a lookup each (existing_workflow=False): the ids were enqueued by this run, and
        # wait_first then polls them all in one query however long the run is.
        handles: list[WorkflowHandle[DocumentIngested]] = [
            DBOS.retrieve_workflow(child_id, existing_workflow=False) for child_id in child_workflow_ids]
        first: WorkflowHandle[DocumentIngested] = DBOS.wait_first(handles, polling_interval_sec=_AWAIT_POLL_S)
        return first.get_result()

    @DBOS.step(name="embed_step", **RETRY_WHEN_DATABASE_LOST)
    def embed_step(self, workflow_id: str, document_id: str, sha256: str, batch: int, batches: int,
                   size: int) -> Embedded:
        """Embed one batch (`size` blocks: the run's batch size, not this process's setting — a run resumed
        by another process must cut its batches where it began) of a document's blocks, retrying with
        backoff while the model server is down."""
        db, model = self.db, self.embedder.model
        store.log_step_run(db, workflow_id, "embed", f"{document_id}#{batch}")
        detail = f"batch {batch + 1} of {batches}"
        store.update_item(db, workflow_id, document_id, state="embedding", done=batch, total=batches, detail=detail)
        store.update_run(db, workflow_id, "embedding", batch, batches, detail)
        rows = embeddings.blocks_to_embed(db, document_id, sha256, batch * size, (batch + 1) * size, model)
        if not rows:
            return {"embedded": 0, "unavailable": False}
        for delay in (*EMBED_RETRY_DELAYS_S, None):
            try:
                vectors = self.embedder.embed([row.text for row in rows])
            except (ModelUnavailable, ModelError) as exc:
                if delay is None:
                    log.warning("embedding %s batch %d gave up for now: %s", document_id, batch, exc)
                    return {"embedded": 0, "unavailable": True}
                time.sleep(delay)
                continue
            ids = [row.id for row in rows]
            changed = embeddings.write_embeddings(db, ids, vectors, model)
            WORK.add("passages_embedded", len(ids))
            self.search.attach_vectors([str(i) for i in ids], vectors, changed)
            return {"embedded": len(rows), "unavailable": False}
        raise AssertionError("unreachable")

    @DBOS.step(name="document_ready_step", **RETRY_WHEN_DATABASE_LOST)
    def document_ready_step(self, workflow_id: str, document_id: str) -> None:
        """Mark one stored document ready once its embedding is over, while the run's others may still be read."""
        item = store.load_item(self.db, workflow_id, document_id)
        if item is not None and item["state"] in ("embedding", "storing") and item["blocks"]:
            self._mark_ready(workflow_id, document_id, item["blocks"])

    def _mark_ready(self, workflow_id: str, document_id: str, blocks: int) -> int:
        """Record a stored document as ready with its embedded count; returns how many blocks still lack a vector."""
        embedded = embeddings.embedded_count(self.db, document_id, self.embedder.model)
        if store.update_item(self.db, workflow_id, document_id, state="ready", embedded=embedded, done=0, total=0,
                             detail="ready"):  # False: the run was cancelled meanwhile
            store.set_document_status(self.db, document_id, "ready")
        return blocks - embedded

    @DBOS.step(name="finish_step", **RETRY_WHEN_DATABASE_LOST)
    def finish_step(self, workflow_id: str) -> RunTally:
        """Mark the stored documents not yet ready so, record per-document counts and clean up the staged chunks."""
        store.log_step_run(self.db, workflow_id, "finish")
        summary: RunTally = {"ready": 0, "skipped": 0, "failed": 0, "missing_embeddings": 0, "backfill": False}
        for item in store.load_items(self.db, workflow_id):
            state = item["state"]
            if state in ("embedding", "storing") and item["blocks"]:
                summary["ready"] += 1
                summary["missing_embeddings"] += self._mark_ready(workflow_id, item["document_id"], item["blocks"])
            elif state == "ready":  # marked as soon as its embedding was over (document_ready_step)
                summary["ready"] += 1
                summary["missing_embeddings"] += (item["blocks"] or 0) - (item["embedded"] or 0)
            elif state == "failed":
                summary["failed"] += 1
            else:
                summary["skipped"] += 1
        staging.drop_staging(self.db, workflow_id)
        store.update_run(self.db, workflow_id, "done", detail=_summary_text(summary))
        # Counted after this run's documents left 'ingesting': the backfill skipped their blocks until now.
        summary["backfill"] = embeddings.any_missing_embeddings(self.db, self.embedder.model)
        return summary
