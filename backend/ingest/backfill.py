"""Durable embedding backfill: embeds every live block that lacks a vector of the current model.

Runs after an ingestion that could not reach the embedder, at startup when vectors are missing, and
when the configured embedding model changes (a re-embed). While the model server is down it sleeps
durably (DBOS.sleep survives restarts) and tries again, so nothing waits on a human.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from dbos import DBOS, SetWorkflowID

from backend.context import get_context
from backend.durable import embed_queue
from backend.llm.errors import ModelError, ModelUnavailable
from backend.store import ingest as store

log = logging.getLogger(__name__)

_ACTIVE = ["PENDING", "ENQUEUED"]
_SLEEP_START_S = 5.0
_SLEEP_MAX_S = 300.0


@DBOS.step()
def backfill_batch_step() -> dict[str, Any]:
    """Embed the next batch of blocks missing a current-model vector; returns counts only."""
    ctx = get_context()
    rows = store.missing_embeddings(ctx.db, ctx.embedder.model, ctx.settings.embed_batch_size)
    if not rows:
        return {"embedded": 0, "remaining": 0, "unavailable": False}
    try:
        vectors = ctx.embedder.embed([row["text"] for row in rows])
    except (ModelUnavailable, ModelError) as exc:
        log.info("embedding backfill waiting for the model server: %s", exc)
        return {"embedded": 0, "remaining": len(rows), "unavailable": True}
    ids = [row["id"] for row in rows]
    changed = store.write_embeddings(ctx.db, ids, vectors, ctx.embedder.model)
    ctx.search.attach_vectors(ids, vectors, changed)
    return {"embedded": len(rows), "remaining": store.count_missing_embeddings(ctx.db, ctx.embedder.model),
            "unavailable": False}


@DBOS.workflow()
def embed_backfill_workflow() -> int:
    embedded, pause = 0, _SLEEP_START_S
    while True:
        result = backfill_batch_step()
        embedded += result["embedded"]
        if result["unavailable"]:
            DBOS.sleep(pause)
            pause = min(pause * 2, _SLEEP_MAX_S)
            continue
        pause = _SLEEP_START_S
        if result["remaining"] == 0:
            return embedded


def start_embed_backfill() -> str | None:
    """Start a backfill unless one is already running; safe to call from a workflow or at startup."""
    if DBOS.workflow_id is not None:
        return _start_from_workflow()
    active = DBOS.list_workflows(name="embed_backfill_workflow", status=_ACTIVE, load_input=False,
                                 load_output=False, limit=1)
    if active:
        return active[0].workflow_id
    with SetWorkflowID(f"embed-backfill-{int(time.time() * 1000)}"):
        return embed_queue().enqueue(embed_backfill_workflow).get_workflow_id()


def _start_from_workflow() -> str:
    # Inside a workflow, enqueueing a child is itself checkpointed; its id is derived from the parent's
    # so a replay attaches to the same child rather than starting a second one.
    with SetWorkflowID(f"embed-backfill-after-{DBOS.workflow_id}"):
        return embed_queue().enqueue(embed_backfill_workflow).get_workflow_id()
