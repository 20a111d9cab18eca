"""The DBOS steps of the ingestion workflow. Each does one idempotent job and returns only ids and
counts, so the DBOS ledger stays small: extracted text goes to `ingest_chunks`, vectors to `blocks`.

The steps are methods of `IngestSteps`, built once per process over the services they use; reading a
document (sandbox, progress, cancel, failure wording) is `DocumentReader`'s (reading.py). DBOS records
a step under its name and checks it when a workflow is replayed, so each keeps the name earlier builds
recorded (`name=`): a run recorded by one of them resumes here.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from typing import NotRequired, TypedDict

from dbos import DBOS, WorkflowHandle

from backend.config import Settings
from backend.durable import RETRY_WHEN_DATABASE_LOST, RETRY_WHEN_SYSTEM_DATABASE_LOST
from backend.ingest import files, recordings
from backend.ingest.chunk import iter_chunks
from backend.ingest.formats import format_of
from backend.ingest.reading import DocumentReader, nothing_found
from backend.llm.embedders import Embedder
from backend.llm.embedding_models import pinned
from backend.llm.errors import ModelError, ModelUnavailable
from backend.metrics import WORK
from backend.process import release_free_memory
from backend.retrieval.service import SearchService
from backend.store import embeddings, page_words, staging, versions
from backend.store import ingest as store
from backend.store.db import Database
from backend.wording import plural

log = logging.getLogger(__name__)

# Chunks staged, and blocks analysed and inserted, per transaction: a batch takes a fraction of a second,
# so a cancel is seen within one, and a long document never sits in memory or in one transaction whole.
BATCH_ROWS = 1000
EMBED_RETRY_DELAYS_S = (1.0, 2.0, 4.0)
_AWAIT_POLL_S = 0.2  # how often a run looks whether another of its documents is stored (one query)


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
        self.reader = DocumentReader(db, settings)

    @contextlib.contextmanager
    def _logged(self, workflow_id: str, step: str, key: str = "") -> Iterator[None]:
        """Log a step's execution in `ingest_step_runs`: its start, and its end unless it raised (a crash or a
        lost database leaves it unfinished, and DBOS runs it again)."""
        run_id = store.log_step_run(self.db, workflow_id, step, key)
        yield
        store.finish_step_run(self.db, run_id)

    @DBOS.step(name="scan_step", **RETRY_WHEN_DATABASE_LOST)
    def scan_step(self, workflow_id: str) -> list[ScanDecision]:
        """Decide for every file of the run: new, changed or unchanged (its original is already stored and
        was verified against its SHA-256 when it was accepted)."""
        with self._logged(workflow_id, "scan"):
            store.update_run(self.db, workflow_id, "scanning")
            items = store.load_items(self.db, workflow_id)
            decisions = [(item["document_id"], item["decision"] or _decide(item)) for item in items]
            store.record_decisions(self.db, workflow_id, decisions)
            return [{"document_id": doc, "decision": decision} for doc, decision in decisions]

    @DBOS.step(name="extract_step", **RETRY_WHEN_DATABASE_LOST)
    def extract_step(self, workflow_id: str, document_id: str) -> Extracted:
        """Extract and chunk one document into `ingest_chunks`; a bad file fails only this document."""
        with self._logged(workflow_id, "extract", document_id):
            extracted = self._extract_and_stage(workflow_id, document_id)
        if extracted.get("chunks", 0) >= BATCH_ROWS:
            release_free_memory()  # the long document's text, freed now, stayed resident otherwise
        return extracted

    def _extract_and_stage(self, workflow_id: str, document_id: str) -> Extracted:
        db = self.db
        item = store.load_item(db, workflow_id, document_id)
        if item is None or not store.item_is_current(item) or not store.mark_ingesting(db, workflow_id, document_id):
            return {"ok": False, "reason": "superseded"}
        store.update_item(db, workflow_id, document_id, state="extracting", detail="opening file")
        if format_of(item["kind"]).pieces:
            return self._plan_recording(item)
        result = self.reader.read_document(item)
        if isinstance(result, str):
            return {"ok": False, "reason": result}
        # Chunks are cut and staged a batch at a time: a long document's chunks never sit in memory at once.
        chunks = iter_chunks(result.units, self.settings.tuning.chunk_size, self.settings.tuning.chunk_overlap)
        staged = staging.stage_chunks(db, workflow_id, document_id, chunks, batch_rows=BATCH_ROWS,
                                      stopped=lambda: self.reader.no_longer_wanted(workflow_id, document_id))
        if staged is None:
            return {"ok": False, "reason": "cancelled"}
        if not staged:
            self.reader.fail_document(item, nothing_found(item["kind"], result.pages))
            return {"ok": False, "reason": "empty"}
        page_words.write_page_words(db, document_id, item["sha256"], result.page_words)
        WORK.add("documents_read")
        WORK.add("pages_read", result.pages or 0)
        store.update_item(db, workflow_id, document_id, state="storing", pages=result.pages,
                          detail=plural(staged, "passage"), warnings=result.warnings,
                          page_warnings=[{"page": w.page, "message": w.message} for w in result.page_warnings])
        return {"ok": True, "pages": result.pages, "chunks": staged, "warnings": len(result.warnings)}

    def _plan_recording(self, item: store.IngestItemWithDocument) -> Extracted:
        """A recording's plan (recording_steps.py transcribes it piece by piece, each piece a step)."""
        recording = self.reader.plan_recording(item)
        if isinstance(recording, str):
            return {"ok": False, "reason": recording}
        store.update_item(self.db, item["workflow_id"], item["document_id"], state="extracting",
                          pages=round(recording["duration_s"]), language=recording["language"],
                          detail=recordings.planned(recording))
        return {"ok": True, "pages": round(recording["duration_s"]), "recording": recording}

    @DBOS.step(name="store_step", **RETRY_WHEN_DATABASE_LOST)
    def store_step(self, workflow_id: str, document_id: str) -> Stored:
        """Make the staged chunks the document's blocks, batch by batch, then live as a new version (one short
        transaction)."""
        with self._logged(workflow_id, "store", document_id):
            return self._store(workflow_id, document_id)

    def _store(self, workflow_id: str, document_id: str) -> Stored:
        db = self.db
        item = store.load_item(db, workflow_id, document_id)
        if item is None:  # deleted for good (from the trash) while the run went on
            return {"blocks": 0, "to_embed": 0, "sha256": ""}
        sha = item["sha256"]
        inserting = not versions.version_blocks_kept(db, document_id, sha)
        if inserting and not self._insert_blocks(item):
            versions.drop_unlive_blocks(db, workflow_id, document_id, sha)  # cancelled mid-way: nothing half-stored
            return {"blocks": 0, "to_embed": 0, "sha256": sha}
        stored = versions.store_version(db, item, self.embedder.model, files.mime_for(item["kind"]))
        if stored.skipped:
            if inserting:  # blocks kept from an earlier version with these bytes stay
                versions.drop_unlive_blocks(db, workflow_id, document_id, sha)
            return {"blocks": 0, "to_embed": 0, "sha256": sha}
        store.update_item(db, workflow_id, document_id, state="embedding", blocks=stored.blocks, done=0,
                          total=0, detail=f"{plural(stored.blocks, 'passage')} stored, waiting for embedding")
        self.search.notify([document_id])
        return {"blocks": stored.blocks, "to_embed": stored.to_embed, "sha256": sha}

    def _insert_blocks(self, item: store.IngestItemWithDocument) -> bool:
        """The staged chunks as blocks (not live yet) with their BM25 terms (cached with each block so the
        index's startup build can skip the analysis), BATCH_ROWS at a time, each batch its own short
        transaction; False as soon as the document is no longer wanted (its run was cancelled)."""
        workflow_id, document_id = item["workflow_id"], item["document_id"]
        analyzer = self.search.analyzer
        done = 0
        for batch in staging.staged_batches(self.db, workflow_id, document_id, BATCH_ROWS):
            if self.reader.no_longer_wanted(workflow_id, document_id):
                return False
            analysed = [analyzer.term_counts(chunk.text) for chunk in batch]
            versions.insert_blocks(self.db, workflow_id, document_id, item["sha256"], versions.AnalysedTerms(
                analyzer.fingerprint, [chunk.ordinal for chunk in batch], [terms for terms, _ in analysed],
                [counts for _, counts in analysed]), self.embedder.model)
            done += len(batch)
            store.update_item(self.db, workflow_id, document_id, state="storing",
                              detail=f"{done:,} passages stored")
        return True

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
        with self._logged(workflow_id, "embed", f"{document_id}#{batch}"):
            return self._embed_batch(workflow_id, document_id, sha256, batch, batches, size)

    def _embed_batch(self, workflow_id: str, document_id: str, sha256: str, batch: int, batches: int,
                     size: int) -> Embedded:
        embedder = pinned(self.embedder)  # one model for the batch, should the vault's switch meanwhile
        db, model = self.db, embedder.model
        detail = f"batch {batch + 1} of {batches}"
        store.update_item(db, workflow_id, document_id, state="embedding", done=batch, total=batches, detail=detail)
        store.update_run(db, workflow_id, "embedding", batch, batches, detail)
        rows = embeddings.blocks_to_embed(db, document_id, sha256, batch * size, (batch + 1) * size, model)
        if not rows:
            return {"embedded": 0, "unavailable": False}
        for delay in (*EMBED_RETRY_DELAYS_S, None):
            try:
                vectors = embedder.embed([row.text for row in rows])
            except (ModelUnavailable, ModelError) as exc:
                if delay is None:
                    log.warning("embedding %s batch %d gave up for now: %s", document_id, batch, exc)
                    return {"embedded": 0, "unavailable": True}
                time.sleep(delay)
                continue
            ids = [row.id for row in rows]
            changed = embeddings.write_embeddings(db, ids, vectors, model)
            WORK.add("passages_embedded", len(ids))
            self.search.attach_vectors([str(i) for i in ids], vectors, changed, model)
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
        store.mark_ready(self.db, workflow_id, document_id, embedded)  # not if the run was cancelled meanwhile
        return blocks - embedded

    @DBOS.step(name="finish_step", **RETRY_WHEN_DATABASE_LOST)
    def finish_step(self, workflow_id: str) -> RunTally:
        """Mark the stored documents not yet ready so, record per-document counts and clean up the staged chunks."""
        with self._logged(workflow_id, "finish"):
            return self._finish(workflow_id)

    def _finish(self, workflow_id: str) -> RunTally:
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
