"""The ingestion workflow: scan → per document a child workflow (extract → store) → embed (per batch) → finish.

The body reads like the process and does no I/O itself; every side effect is a step in `steps.py`, so
after a crash DBOS replays the recorded steps' outputs and resumes at the first unfinished one.
Chunking happens inside the extract step (not in this body) so that no document text ever passes
through the DBOS ledger.
"""

from __future__ import annotations

import math

from dbos import DBOS, SetWorkflowID

from backend.durable import document_queue, ingest_queue
from backend.ingest import steps
from backend.ingest.backfill import start_embed_backfill


@DBOS.workflow()
def ingest_workflow(embed_batch_size: int) -> steps.RunTally:
    workflow_id = DBOS.workflow_id
    assert workflow_id is not None
    children = []
    for item in steps.scan_step(workflow_id):
        if item["decision"] == "unchanged":
            continue
        # One child per document on the shared queue: any Quire process of the database may read it.
        with SetWorkflowID(f"{workflow_id}-doc-{item['document_id']}"):
            children.append(document_queue().enqueue(ingest_document_workflow, workflow_id, item["document_id"]))
    # Waited for in a step, so that losing the database meanwhile retries the wait instead of ending the run.
    done = steps.await_documents_step([child.get_workflow_id() for child in children])
    stored = [result for result in done if result["blocks"]]
    # Embedding stays with the run: it is bound by the one model server, not by any process's CPU, and
    # one place that notices Ollama is down spares every later document its retries.
    embedder_down = False
    for result in stored:
        if embedder_down or not result["to_embed"]:
            continue
        sha256 = result["sha256"]
        assert sha256 is not None  # a document with blocks was stored
        batches = math.ceil(result["blocks"] / embed_batch_size)
        for batch in range(batches):
            embedded = steps.embed_step(workflow_id, result["document_id"], sha256, batch, batches, embed_batch_size)
            if embedded["unavailable"]:
                embedder_down = True
                break
    summary = steps.finish_step(workflow_id)
    if summary.get("backfill", True):  # a run whose finish was recorded before the field existed: check
        start_embed_backfill()
    return summary


@DBOS.workflow()
def ingest_document_workflow(workflow_id: str, document_id: str) -> steps.DocumentIngested:
    """Extract, chunk and store one document of a run; its blocks are searchable by keyword afterwards."""
    if not steps.extract_step(workflow_id, document_id)["ok"]:
        return {"document_id": document_id, "blocks": 0, "to_embed": 0, "sha256": None}
    return {"document_id": document_id, **steps.store_step(workflow_id, document_id)}


def start_ingest(workflow_id: str, embed_batch_size: int) -> str:
    """Enqueue the workflow under its content-derived id; a duplicate id attaches to the existing run."""
    with SetWorkflowID(workflow_id):
        handle = ingest_queue().enqueue(ingest_workflow, embed_batch_size)
    return handle.get_workflow_id()
