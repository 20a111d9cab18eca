"""Cancelling a run, and the check (at each start, and after a cancel) for documents left behind by an
ingestion that can no longer finish.

DBOS resumes interrupted workflows by itself; this only catches the rest — a workflow that ended in
ERROR or was cancelled — so that no document stays "queued" or "ingesting" forever. A cancelled run's
versions stored but not yet ready are withdrawn first (`versions.withdraw_unfinished`). Then a document
with a live previous version goes back to ready (with a warning), one without becomes failed; Retry (or
uploading the file again) ingests it again from its stored original.
"""

from __future__ import annotations

import logging

from dbos import DBOS

from backend.ingest.backfill import EmbedBackfill
from backend.store import ingest as store
from backend.store import versions
from backend.store.db import Database

log = logging.getLogger(__name__)

_STILL_RUNNING: frozenset[str | None] = frozenset({"PENDING", "ENQUEUED", "DELAYED"})
STOPPED_MESSAGE = "Ingestion stopped unexpectedly; use Retry to ingest the file again."
CANCELLED_MESSAGE = "Ingestion was cancelled; upload the file again to add it."


def cancel_run(db: Database, backfill: EmbedBackfill, workflow_id: str) -> list[str]:
    """Stop an ingestion at its next step boundary. Documents it made ready stay; every other one ends as
    it was before the run, one stored but not ready yet (waiting for or getting its vectors) included, so
    nothing of a cancelled file stays half-added. Returns the documents whose live blocks changed, for
    the caller's search index."""
    store.mark_cancelled(db, workflow_id)  # from here on, no store step of the run makes a version current
    DBOS.cancel_workflow(workflow_id, cancel_children=True)  # its documents run as child workflows
    withdrawn = reconcile_stuck_documents(db)
    backfill.start_if_missing()  # documents made ready before the cancel may still lack vectors
    return withdrawn


def reconcile_stuck_documents(db: Database) -> list[str]:
    """Take the documents of runs that can no longer finish out of them. A run that was cancelled withdraws
    the versions it stored but did not make ready (here too at a start: the process that answered the
    cancel may have ended before it had); returns those documents, whose live blocks changed."""
    stuck = store.documents_in_flight(db)
    if not stuck:
        return []
    workflow_ids = sorted({row["last_workflow_id"] for row in stuck if row["last_workflow_id"]})
    statuses = {
        status.workflow_id: status.status
        for status in DBOS.list_workflows(workflow_ids=workflow_ids, load_input=False, load_output=False)
    }
    # A document without a workflow id has no run that could still finish it.
    abandoned = [row for row in stuck if statuses.get(row["last_workflow_id"] or "") not in _STILL_RUNNING]
    cancelled = sorted({run for row in abandoned
                        if (run := row["last_workflow_id"]) is not None and statuses.get(run) == "CANCELLED"})
    withdrawn = [document for run in cancelled for document in versions.withdraw_unfinished(db, run, CANCELLED_MESSAGE)]
    for row in abandoned:  # a withdrawn document is no longer in flight: this leaves it as it is
        message = CANCELLED_MESSAGE if row["last_workflow_id"] in cancelled else STOPPED_MESSAGE
        store.abandon_document(db, row["id"], row["last_workflow_id"], row["has_live_blocks"], message)
    if abandoned:
        log.warning("marked %d documents whose ingestion cannot finish", len(abandoned))
    return withdrawn
