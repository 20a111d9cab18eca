"""The ingestion workflow: scan → per document a child workflow (extract → store) → as each is stored, its
embedding (per batch) and its ready mark → finish.

The body reads like the process and does no I/O itself; every side effect is a step in `steps.py`, so
after a crash DBOS replays the recorded steps' outputs and resumes at the first unfinished one.
Chunking happens inside the extract step (not in this body) so that no document text ever passes
through the DBOS ledger.

`IngestRuns` is built once per process, before `DBOS.launch()`, over the steps and the backfill, and
registers the two workflows then. DBOS finds a workflow to recover by the name it recorded, and calls a
configured instance's method only for rows that name the instance too; earlier builds recorded these
workflows as plain functions, so they are registered as plain functions (closures over this object)
under the very names they recorded: a run any earlier build left pending resumes here unchanged.
"""

from __future__ import annotations

import math

from dbos import DBOS, SetWorkflowID

from backend.durable import document_queue, ingest_queue
from backend.ingest import recordings
from backend.ingest.backfill import EmbedBackfill
from backend.ingest.recording_steps import RecordingSteps
from backend.ingest.steps import DocumentIngested, Extracted, IngestSteps, RunTally

# The run embeds each document as soon as it is stored and marks it ready, instead of waiting for all of
# the run's documents first. A breaking change to the step sequence, so behind DBOS.patch: a run recorded
# by an earlier build past that point keeps the old path when it is recovered. Once no such run can be
# pending, the old path goes (after a release that calls DBOS.deprecate_patch with this name).
EMBED_EACH_WHEN_STORED = "embed-each-document-when-stored"
WORKFLOW_NAME = "ingest_workflow"


def document_workflow_id(workflow_id: str, document_id: str) -> str:
    return f"{workflow_id}-doc-{document_id}"


class IngestRuns:
    """Starts ingestion runs and runs them: the run's workflow and each document's child workflow."""

    def __init__(self, steps: IngestSteps, backfill: EmbedBackfill, embed_batch_size: int) -> None:
        self.steps = steps
        self.recording = RecordingSteps(steps)
        self.backfill = backfill
        self.embed_batch_size = embed_batch_size

        @DBOS.workflow(name=WORKFLOW_NAME)
        def ingest_workflow(embed_batch_size: int) -> RunTally:
            return self._run(embed_batch_size)

        @DBOS.workflow(name="ingest_document_workflow")
        def ingest_document_workflow(workflow_id: str, document_id: str) -> DocumentIngested:
            return self._document(workflow_id, document_id)

        self._workflow = ingest_workflow
        self._document_workflow = ingest_document_workflow

    def start(self, workflow_id: str) -> str:
        """Enqueue the workflow under its content-derived id; a duplicate id attaches to the existing run.
        The batch size goes with the run: a run resumed by another process cuts its batches the same way."""
        with SetWorkflowID(workflow_id):
            handle = ingest_queue().enqueue(self._workflow, self.embed_batch_size)
        self.steps.reader.warm_up()  # the run's files will most likely be read here: readers ready meanwhile
        return handle.get_workflow_id()

    def _run(self, embed_batch_size: int) -> RunTally:
        workflow_id = DBOS.workflow_id
        assert workflow_id is not None
        children = []
        for item in self.steps.scan_step(workflow_id):
            if item["decision"] == "unchanged":
                continue
            # One child per document on the shared queue: any Quire process of the database may read it.
            with SetWorkflowID(document_workflow_id(workflow_id, item["document_id"])):
                children.append(document_queue().enqueue(self._document_workflow, workflow_id, item["document_id"]))
        child_ids = [child.get_workflow_id() for child in children]
        if DBOS.patch(EMBED_EACH_WHEN_STORED):
            self._embed_each_when_stored(workflow_id, child_ids, embed_batch_size)
        else:
            self._embed_after_all(workflow_id, child_ids, embed_batch_size)
        summary = self.steps.finish_step(workflow_id)
        if summary.get("backfill", True):  # a run whose finish was recorded before the field existed: check
            self.backfill.start()
        return summary

    def _embed_each_when_stored(self, workflow_id: str, child_ids: list[str], embed_batch_size: int) -> None:
        """Embed each document as soon as its workflow has stored it, and mark it ready: a page of notes
        uploaded beside a long scan is ready in seconds, not when the scan is done."""
        remaining = list(child_ids)
        # Embedding stays with the run: it is bound by the one model server, not by any process's CPU, and
        # one place that notices Ollama is down spares every later document its retries.
        embedder_down = False
        while remaining:
            # Waited for in a step, so that losing the database meanwhile retries the wait instead of ending the run.
            result = self.steps.await_next_document_step(remaining)
            remaining.remove(document_workflow_id(workflow_id, result["document_id"]))
            if not result["blocks"]:
                continue
            if not embedder_down:
                embedder_down = not self._embed(workflow_id, result, embed_batch_size)
            self.steps.document_ready_step(workflow_id, result["document_id"])

    def _embed_after_all(self, workflow_id: str, child_ids: list[str], embed_batch_size: int) -> None:
        """The path of runs recorded before EMBED_EACH_WHEN_STORED: wait for every document, then embed them."""
        done = self.steps.await_documents_step(child_ids)
        embedder_down = False
        for result in done:
            if result["blocks"] and not embedder_down:
                embedder_down = not self._embed(workflow_id, result, embed_batch_size)

    def _embed(self, workflow_id: str, result: DocumentIngested, embed_batch_size: int) -> bool:
        """Embed a stored document's new blocks batch by batch; False if the model server stayed down."""
        if not result["to_embed"]:
            return True
        sha256 = result["sha256"]
        assert sha256 is not None  # a document with blocks was stored
        batches = math.ceil(result["blocks"] / embed_batch_size)
        for batch in range(batches):
            embedded = self.steps.embed_step(workflow_id, result["document_id"], sha256, batch, batches,
                                             embed_batch_size)
            if embedded["unavailable"]:
                return False
        return True

    def _document(self, workflow_id: str, document_id: str) -> DocumentIngested:
        """Extract, chunk and store one document of a run; its blocks are searchable by keyword afterwards."""
        extracted = self.steps.extract_step(workflow_id, document_id)
        if extracted["ok"] and "recording" in extracted:
            extracted = self._transcribe(workflow_id, document_id, extracted["recording"])
        if not extracted["ok"]:
            return {"document_id": document_id, "blocks": 0, "to_embed": 0, "sha256": None}
        return {"document_id": document_id, **self.steps.store_step(workflow_id, document_id)}

    def _transcribe(self, workflow_id: str, document_id: str, recording: recordings.RecordingPlan) -> Extracted:
        """A recording, piece by piece (one step each, so a crash resumes at the first piece not done), then
        cut into passages. Only an extract step of this build says `recording` (no earlier build read
        recordings), so runs recorded before keep their step sequence and recover as they were."""
        for number in range(len(recording["pieces"])):
            if not self.recording.transcribe_piece_step(workflow_id, document_id, number, recording)["ok"]:
                return {"ok": False, "reason": "stopped"}
        return self.recording.passages_step(workflow_id, document_id)
