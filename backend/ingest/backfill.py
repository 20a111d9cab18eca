"""Durable embedding backfill: embeds every live block that lacks a vector of the current model.

Runs after an ingestion that could not reach the embedder, at startup when vectors are missing, and
when the configured embedding model changes (a re-embed). While the model server is down it waits
durably (the wait survives restarts) and tries again, so nothing waits on a human.

The wait is a `DBOS.recv` with a timeout rather than `DBOS.sleep`, whose plain sleep no shutdown can cut
short: stopping Quire while Ollama was down waited out the current pause (up to five minutes) and then
failed in the workflow's thread. On shutdown the app sends each waiting backfill this process's run id;
the backfill ends there, and the next start begins a new one for whatever is still missing.

`EmbedBackfill` is built once per process over the services it uses and registers the workflow with
DBOS then (before `DBOS.launch()`), under the name earlier builds recorded, so a backfill one of them left
pending resumes here.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import TypedDict

from dbos import DBOS, SetWorkflowID

from backend.durable import RETRY_WHEN_DATABASE_LOST, embed_queue
from backend.llm.embedders import Embedder
from backend.llm.embedding_models import pinned
from backend.llm.errors import ModelError, ModelUnavailable
from backend.metrics import WORK
from backend.retrieval.service import SearchService
from backend.store import embeddings as store
from backend.store.db import Database

log = logging.getLogger(__name__)

WORKFLOW_NAME = "embed_backfill_workflow"
_ACTIVE = ["PENDING", "ENQUEUED"]
_SLEEP_MAX_S = 300.0
WAKE_TOPIC = "wake"
_STOP_WAIT_S = 10.0
# Tells this process's shutdown from an earlier one's: a stop message left unread by a backfill that was
# busy when its process stopped only wakes it early once it runs again (see `wait_or_stop`).
_RUN_ID = uuid.uuid4().hex


class BatchOutcome(TypedDict):
    embedded: int
    remaining: int  # 0 once no block is left to embed (1: some are; counting them all was quadratic)
    unavailable: bool


class EmbedBackfill:
    """The durable backfill over the database, the embedder and the index it keeps current."""

    def __init__(self, db: Database, embedder: Embedder, search: SearchService, *, batch_size: int,
                 first_pause_s: float, executor_id: str) -> None:
        self.db = db
        self.embedder = embedder
        self.search = search
        self.batch_size = batch_size
        self.first_pause_s = first_pause_s
        self.executor_id = executor_id

        @DBOS.workflow(name=WORKFLOW_NAME)
        def embed_backfill_workflow() -> int:
            return self._run()

        self._workflow = embed_backfill_workflow

    @DBOS.step(name="backfill_batch_step", **RETRY_WHEN_DATABASE_LOST)
    def backfill_batch_step(self) -> BatchOutcome:
        """Embed the next batch of blocks missing a current-model vector; returns counts only."""
        embedder = pinned(self.embedder)  # one model for the batch, should the vault's switch meanwhile
        model = embedder.model
        rows = store.missing_embeddings(self.db, model, self.batch_size)
        if not rows:
            return {"embedded": 0, "remaining": 0, "unavailable": False}
        try:
            vectors = embedder.embed([row.text for row in rows])
        except (ModelUnavailable, ModelError) as exc:
            log.info("embedding backfill waiting for the model server: %s", exc)
            return {"embedded": 0, "remaining": len(rows), "unavailable": True}
        ids = [row.id for row in rows]
        changed = store.write_embeddings(self.db, ids, vectors, model)
        WORK.add("passages_embedded", len(ids))
        self.search.attach_vectors([str(i) for i in ids], vectors, changed, model)
        # Whether any is left, not how many: counting every missing block after each batch made a re-embed of
        # a large vault quadratic.
        return {"embedded": len(rows), "remaining": int(store.any_missing_embeddings(self.db, model)),
                "unavailable": False}

    def _run(self) -> int:
        """The workflow's body."""
        embedded, pause = 0, self.first_pause_s
        while True:
            result = self.backfill_batch_step()
            embedded += int(result["embedded"])
            if result["unavailable"]:
                if wait_or_stop(pause) == stop_message():
                    return embedded  # this process is stopping
                pause = min(pause * 2, _SLEEP_MAX_S)
                continue
            pause = self.first_pause_s
            if result["remaining"] == 0:
                return embedded

    def start_if_missing(self) -> str | None:
        """Start a backfill if live blocks lack a current-model vector (blocks made live again may carry
        vectors of an older embedding model)."""
        return self.start() if store.any_missing_embeddings(self.db, self.embedder.model) else None

    def start(self) -> str:
        """Start a backfill unless one is already running; safe to call from a workflow or at startup."""
        if DBOS.workflow_id is not None:
            # Inside a workflow, enqueueing a child is itself checkpointed; its id is derived from the
            # parent's so a replay attaches to the same child rather than starting a second one.
            with SetWorkflowID(f"embed-backfill-after-{DBOS.workflow_id}"):
                return embed_queue().enqueue(self._workflow).get_workflow_id()
        active = DBOS.list_workflows(name=WORKFLOW_NAME, status=_ACTIVE, load_input=False, load_output=False,
                                     limit=1)
        if active:
            return active[0].workflow_id
        with SetWorkflowID(f"embed-backfill-{int(time.time() * 1000)}"):
            return embed_queue().enqueue(self._workflow).get_workflow_id()

    def stop(self) -> None:
        """Before DBOS shuts down: end the backfills this process runs (see `stop_pending`)."""
        stop_pending(WORKFLOW_NAME, self.executor_id)


def stop_pending(workflow_name: str, executor_id: str) -> None:
    """Before DBOS shuts down: end the workflows named `workflow_name` that this process runs, waking those
    that wait for the model server (`wait_or_stop`), and give them up to `_STOP_WAIT_S` to record their end
    (one busy embedding a batch finishes the batch first). The embedding backfill and the model switch."""
    running = [workflow.workflow_id for workflow in DBOS.list_workflows(
        name=workflow_name, status="PENDING", load_input=False, load_output=False, executor_id=executor_id)]
    for workflow_id in running:
        DBOS.send(workflow_id, _RUN_ID, topic=WAKE_TOPIC)
    deadline = time.monotonic() + _STOP_WAIT_S
    for workflow_id in running:
        while time.monotonic() < deadline and _is_pending(workflow_id):
            time.sleep(0.05)


def stop_message() -> str:
    """What this process sends a waiting workflow when it stops (see `wait_or_stop`)."""
    return _RUN_ID


def wait_or_stop(seconds: float) -> str | None:
    """Wait durably for `seconds`, or until a message arrives on the wake topic (returned: a stopping
    process's `stop_message()`, or what else woke it)."""
    sender: str | None = DBOS.recv(WAKE_TOPIC, timeout_seconds=seconds)
    return sender


def _is_pending(workflow_id: str) -> bool:
    status = DBOS.get_workflow_status(workflow_id)
    return status is not None and status.status == "PENDING"
