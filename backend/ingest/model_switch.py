"""Switching the vault's embedding model: a durable workflow embeds every live passage with the target
model in the background, then makes it the active model in one transaction.

Until then searches and chat use the active model's vectors (the query embedded with that model), so there
is neither a gap nor a mix; the target's vectors are staged beside them (backend/store/embedding_model.py).
Passages stored during the switch are embedded with the active model by their ingestion and with the
target by this workflow, which embeds whatever live passage still lacks a target vector until none does;
the flip checks that under a lock. Each batch is one idempotent step returning counts; a kill resumes at
the first batch not recorded. While the target's model server is down the workflow waits durably, as the
embedding backfill does (backend/ingest/backfill.py), and ends early when this process stops.

A switch cancelled or replaced by another (the state's `switch_id` moved on) stops at its next step: its
writes check the switch is still the current one. Every process notices the new active model by itself
(backend/retrieval/model_watch.py); this one is told at once.
"""

from __future__ import annotations

import logging
import time
from typing import Literal, TypedDict

from dbos import DBOS, SetWorkflowID

from backend.durable import RETRY_WHEN_DATABASE_LOST
from backend.errors import QuireError
from backend.ingest.backfill import WAKE_TOPIC, stop_message, stop_pending, wait_or_stop
from backend.llm.client import LLMClient
from backend.llm.embedding_models import ActiveEmbedder, choices, kind_of
from backend.llm.errors import ModelError, ModelUnavailable
from backend.metrics import WORK
from backend.retrieval.model_watch import ModelWatch
from backend.store import embedding_model as store
from backend.store.db import Database
from backend.store.embedding_model import EmbeddingModelRow

log = logging.getLogger(__name__)

WORKFLOW_NAME = "embedding_switch_workflow"
_ACTIVE = ["PENDING", "ENQUEUED"]
_SLEEP_MAX_S = 300.0
SwitchEnd = Literal["switched", "cancelled", "stopped"]


class SwitchBatch(TypedDict):
    embedded: int
    remaining: bool  # whether any passage may still lack a target vector
    unavailable: bool  # the target's model could not embed: wait and try again
    cancelled: bool


class ModelSwitch:
    """The durable switch over the database, this process's embedder and its model watch."""

    def __init__(self, db: Database, llm: LLMClient, embedder: ActiveEmbedder, watch: ModelWatch, *,
                 batch_size: int, first_pause_s: float, executor_id: str) -> None:
        self.db = db
        self.llm = llm
        self.embedder = embedder
        self.watch = watch
        self.batch_size = batch_size
        self.first_pause_s = first_pause_s
        self.executor_id = executor_id

        @DBOS.workflow(name=WORKFLOW_NAME)
        def embedding_switch_workflow(switch_id: int, target: str) -> SwitchEnd:
            return self._run(switch_id, target)

        self._workflow = embedding_switch_workflow

    # -- what the API asks ------------------------------------------------------------------------
    def switch_to(self, target: str) -> EmbeddingModelRow:
        """Start switching to `target` (one of `choices`); the active model ends a switch under way. 422 for
        a model one cannot switch to, 503 while Ollama, which would say, is unreachable."""
        if kind_of(target) is None:
            raise QuireError("unknown_embedding_model", f"{target!r} names no embedding model Quire can run: "
                             "use a name from the list of models (e.g. `ollama:nomic-embed-text`).", 422)
        if target == store.current(self.db)["active"]:
            return self.cancel()
        offer = choices(self.llm, patient=True)
        if kind_of(target) == "ollama" and not offer.ollama_reachable:
            raise QuireError("model_unavailable", "Ollama is not running, so its models cannot be listed: "
                             "start it with `ollama serve` and choose again.", 503)
        offered = [choice.model for choice in offer.models]
        if target not in offered:
            raise QuireError("unknown_embedding_model", f"{target!r} is not an embedding model one can switch to "
                             f"here; choose one of: {', '.join(offered) or 'none'}.", 422)
        return self.begin(target)

    def begin(self, target: str) -> EmbeddingModelRow:
        """Record `target` and start its workflow (a second call for the same target attaches to it)."""
        row = store.begin_switch(self.db, target)
        if row["target"] is not None:
            self._start(row["switch_id"], row["target"], f"embedding-switch-{row['switch_id']}")
        self._wake_all()  # a replaced switch waiting for its model server ends now
        return row

    def cancel(self) -> EmbeddingModelRow:
        """End the switch under way (its staged vectors are dropped); searches go on with the active model."""
        row = store.cancel_switch(self.db)
        self._wake_all()
        return row

    def resume_if_pending(self) -> str | None:
        """At start: a switch recorded but run by no workflow (its process stopped while it waited for the
        model server) starts again where its staged vectors leave off."""
        row = store.current(self.db)
        target = row["target"]
        if target is None or self._pending():
            return None
        return self._start(row["switch_id"], target, f"embedding-switch-{row['switch_id']}-{time.time_ns()}")

    def stop(self) -> None:
        """Before DBOS shuts down: end the switches this process runs that wait for their model server (see
        `stop_pending`); the next start resumes them."""
        stop_pending(WORKFLOW_NAME, self.executor_id)

    def _start(self, switch_id: int, target: str, workflow_id: str) -> str:
        with SetWorkflowID(workflow_id):
            return DBOS.start_workflow(self._workflow, switch_id, target).get_workflow_id()

    def _pending(self) -> list[str]:
        found = DBOS.list_workflows(name=WORKFLOW_NAME, status=_ACTIVE, load_input=False, load_output=False)
        return [workflow.workflow_id for workflow in found]

    def _wake_all(self) -> None:
        for workflow_id in self._pending():
            DBOS.send(workflow_id, "changed", topic=WAKE_TOPIC)

    # -- the workflow --------------------------------------------------------------------------------
    @DBOS.step(name="switch_batch_step", **RETRY_WHEN_DATABASE_LOST)
    def switch_batch_step(self, switch_id: int, target: str) -> SwitchBatch:
        """Embed the next batch of live passages lacking a `target` vector and stage the vectors."""
        if not store.is_current(self.db, switch_id, target):
            return {"embedded": 0, "remaining": False, "unavailable": False, "cancelled": True}
        rows = store.to_stage(self.db, target, self.batch_size)
        if not rows:
            return {"embedded": 0, "remaining": False, "unavailable": False, "cancelled": False}
        try:
            vectors = self.embedder.for_model(target).embed([row.text for row in rows])
        except (ModelUnavailable, ModelError) as exc:
            log.info("embedding model switch waiting for %s: %s", target, exc)
            return {"embedded": 0, "remaining": True, "unavailable": True, "cancelled": False}
        if not store.stage(self.db, switch_id, target, [row.id for row in rows], vectors):
            return {"embedded": 0, "remaining": False, "unavailable": False, "cancelled": True}
        WORK.add("passages_embedded", len(rows))
        return {"embedded": len(rows), "remaining": True, "unavailable": False, "cancelled": False}

    @DBOS.step(name="switch_flip_step", **RETRY_WHEN_DATABASE_LOST)
    def switch_flip_step(self, switch_id: int, target: str) -> bool | None:
        """Make `target` active if it covers every live passage (see `store.flip`); tell this process."""
        flipped = store.flip(self.db, switch_id, target)
        if flipped:
            log.info("the vault's embedding model is now %s", target)
            self.watch.wake()
        return flipped

    def _run(self, switch_id: int, target: str) -> SwitchEnd:
        """The workflow's body: batches until none is left, then the flip (again if passages arrived)."""
        pause = self.first_pause_s
        while True:
            batch = self.switch_batch_step(switch_id, target)
            if batch["cancelled"]:
                return "cancelled"
            if batch["unavailable"]:
                if wait_or_stop(pause) == stop_message():
                    return "stopped"  # this process is stopping; the next start resumes the switch
                pause = min(pause * 2, _SLEEP_MAX_S)
                continue
            pause = self.first_pause_s
            if batch["remaining"]:
                continue
            flipped = self.switch_flip_step(switch_id, target)
            if flipped is None:
                return "cancelled"
            if flipped:
                return "switched"
