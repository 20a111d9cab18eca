"""The ingestion workflow: scan → extract (per document) → store (per document) → embed (per batch) → finish.

The body reads like the process and does no I/O itself; every side effect is a step in `steps.py`, so
after a crash DBOS replays the recorded steps' outputs and resumes at the first unfinished one.
Chunking happens inside the extract step (not in this body) so that no document text ever passes
through the DBOS ledger.
"""

from __future__ import annotations

import math
from typing import Any

from dbos import DBOS, SetWorkflowID

from backend.durable import ingest_queue
from backend.ingest import steps
from backend.ingest.backfill import start_embed_backfill


@DBOS.workflow()
def ingest_workflow(embed_batch_size: int) -> dict[str, Any]:
    workflow_id = DBOS.workflow_id
    assert workflow_id is not None
    stored: list[tuple[str, dict[str, Any]]] = []
    for item in steps.scan_step(workflow_id):
        if item["decision"] == "unchanged":
            continue
        if steps.extract_step(workflow_id, item["document_id"])["ok"]:
            result = steps.store_step(workflow_id, item["document_id"])
            if result["blocks"]:
                stored.append((item["document_id"], result))
    embedder_down = False
    for document_id, result in stored:
        if embedder_down or not result["to_embed"]:
            continue
        batches = math.ceil(result["blocks"] / embed_batch_size)
        for batch in range(batches):
            if steps.embed_step(workflow_id, document_id, result["sha256"], batch, batches)["unavailable"]:
                embedder_down = True
                break
    summary = steps.finish_step(workflow_id)
    if summary["missing_embeddings"]:
        start_embed_backfill()
    return summary


def start_ingest(workflow_id: str, embed_batch_size: int) -> str:
    """Enqueue the workflow under its content-derived id; a duplicate id attaches to the existing run."""
    with SetWorkflowID(workflow_id):
        handle = ingest_queue().enqueue(ingest_workflow, embed_batch_size)
    return handle.get_workflow_id()
