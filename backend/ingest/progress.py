"""What an ingestion run is doing: DBOS's status and step list plus our fine-grained progress,
as one snapshot (`GET /api/ingest/{id}`) or as an NDJSON stream of snapshots until the run ends. The
records here are what the API answers, declared once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Literal

from dbos import DBOS
from starlette.concurrency import run_in_threadpool
from typing_extensions import TypedDict

from backend.errors import NotFound
from backend.ingest.validate import read_as
from backend.store import ingest as store
from backend.store.db import Database
from backend.store.kinds import DocKind, PageWarningRow

TERMINAL_STATUSES = {"SUCCESS", "ERROR", "CANCELLED", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"}
POLL_INTERVAL_S = 0.25
HEARTBEAT_S = 10.0
# A cancelled run is CANCELLED in DBOS a moment before the cancel request has marked its unfinished
# documents; the stream waits up to this long for them, so that its last snapshot is not one in which
# the run has ended and its files are still "extracting". (A run that crashed keeps such documents until
# the next start reconciles them: after the wait the stream ends anyway.)
SETTLE_S = 5.0
_FINISHED_ITEMS = frozenset({"ready", "skipped", "failed"})


StepStatus = Literal["running", "finished", "error"]
# A document's steps as people know them: reading the file (extract + chunk), storing its passages, and
# embedding them (every batch folded into one).
DocumentStepName = Literal["read", "store", "embed"]
_STEP_NAMES: dict[str, DocumentStepName] = {"extract": "read", "store": "store", "embed": "embed"}


class RunStep(TypedDict):
    name: str
    status: StepStatus
    started_at: str | None
    finished_at: str | None


class DocumentStep(TypedDict):
    """One of a document's steps: read (extract and chunk), store, embed (all its batches)."""

    name: DocumentStepName
    status: StepStatus
    started_at: str
    finished_at: str | None
    seconds: float | None  # finished - started: wall time, waits between embedding batches included
    executions: int  # times it (each batch, for embed) started: more than `parts` means it was resumed
    parts: int  # embedding batches; 1 for read and store


class Progress(TypedDict):
    done: int
    total: int
    detail: str


class RunProgress(Progress):
    phase: store.RunPhase


class RunDocument(TypedDict):
    """One document of a run as the snapshot shows it (its item; `status` is the item's state)."""

    id: str
    filename: str
    kind: DocKind  # how the file is read (its content decided): says what `pages` count (pages, slides)
    status: store.ItemState
    decision: store.Decision | None
    error: str | None
    warnings: list[str]
    page_warnings: list[PageWarningRow]
    read_as: str | None  # set when the content, not the name, decided the kind (validate.read_as)
    progress: Progress
    pages: int | None
    blocks: int | None
    embedded: int | None
    steps: list[DocumentStep]


class RunSnapshot(TypedDict):
    workflow_id: str
    status: str  # DBOS's workflow status
    source: str
    created_at: str
    documents: list[RunDocument]
    steps: list[RunStep]
    executions: dict[str, int]  # how many times each step started (more than once = resumed)
    progress: RunProgress


class RunSummary(TypedDict):
    """A run in the list of recent runs."""

    workflow_id: str
    source: str
    status: str  # DBOS's workflow status
    phase: store.RunPhase
    done: int
    total: int
    detail: str
    documents: int
    created_at: str
    updated_at: str


def _iso(epoch_ms: int | None) -> str | None:
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).isoformat() if epoch_ms else None


def _steps(workflow_id: str) -> list[RunStep]:
    steps: list[RunStep] = []
    for step in DBOS.list_workflow_steps(workflow_id) or []:
        finished = step.get("completed_at_epoch_ms")
        status: StepStatus = "error" if step.get("error") is not None else ("finished" if finished else "running")
        steps.append({
            "name": step["function_name"],
            "status": status,
            "started_at": _iso(step.get("started_at_epoch_ms")),
            "finished_at": _iso(finished),
        })
    return steps


def _document_steps(rows: list[store.DocumentStepRow]) -> dict[str, list[DocumentStep]]:
    steps: dict[str, list[DocumentStep]] = {}
    for row in rows:
        finished = row["finished_at"]
        steps.setdefault(row["document_id"], []).append({
            "name": _STEP_NAMES[row["step"]],
            "status": "finished" if finished is not None else "running",
            "started_at": row["started_at"].isoformat(),
            "finished_at": finished.isoformat() if finished is not None else None,
            "seconds": round((finished - row["started_at"]).total_seconds(), 3) if finished is not None else None,
            "executions": row["executions"],
            "parts": row["parts"],
        })
    return steps


def _document(item: store.IngestItemRow, steps: list[DocumentStep]) -> RunDocument:
    return {
        "id": item["document_id"],
        "filename": item["filename"],
        "kind": item["kind"],
        "status": item["state"],
        "decision": item["decision"],
        "error": item["error"],
        "warnings": item["warnings"],
        "page_warnings": item["page_warnings"],
        "read_as": read_as(item["filename"], item["kind"]),
        "progress": {"done": item["done"], "total": item["total"], "detail": item["detail"]},
        "pages": item["pages"],
        "blocks": item["blocks"],
        "embedded": item["embedded"],
        "steps": steps,
    }


def run_snapshot(db: Database, workflow_id: str) -> RunSnapshot:
    run = store.run_row(db, workflow_id)
    if run is None:
        raise NotFound("Ingestion run", workflow_id)
    status = DBOS.get_workflow_status(workflow_id)
    steps = _document_steps(store.document_step_times(db, workflow_id))
    return {
        "workflow_id": workflow_id,
        "status": status.status if status is not None else "ENQUEUED",
        "source": run["source"],
        "created_at": run["created_at"].isoformat(),
        "documents": [_document(item, steps.get(item["document_id"], []))
                      for item in store.load_items(db, workflow_id)],
        "steps": _steps(workflow_id),
        "executions": store.step_run_counts(db, workflow_id),
        "progress": {"phase": run["phase"], "done": run["done"], "total": run["total"], "detail": run["detail"]},
    }


def list_runs(db: Database, limit: int) -> list[RunSummary]:
    runs = store.recent_runs(db, limit)
    statuses = {s.workflow_id: s.status for s in DBOS.list_workflows(
        workflow_ids=[r["workflow_id"] for r in runs], load_input=False, load_output=False)} if runs else {}
    return [
        RunSummary(workflow_id=run["workflow_id"], source=run["source"],
                status=statuses.get(run["workflow_id"], "ENQUEUED"), phase=run["phase"], done=run["done"],
                total=run["total"], detail=run["detail"], documents=run["documents"],
                created_at=run["created_at"].isoformat(), updated_at=run["updated_at"].isoformat())
        for run in runs
    ]


async def run_events(db: Database, workflow_id: str) -> AsyncIterator[bytes]:
    """Yield a snapshot line whenever something changed, a heartbeat now and then, and stop at the end."""
    last, quiet, settling = "", 0.0, 0.0
    while True:
        snapshot = await run_in_threadpool(run_snapshot, db, workflow_id)
        encoded = json.dumps({"type": "progress", "data": snapshot}, default=str)
        if encoded != last or quiet >= HEARTBEAT_S:
            last, quiet = encoded, 0.0
            yield (encoded + "\n").encode()
        if snapshot["status"] in TERMINAL_STATUSES:
            settled = all(doc["status"] in _FINISHED_ITEMS for doc in snapshot["documents"])
            if settled or settling >= SETTLE_S:
                yield (json.dumps({"type": "end", "data": {"status": snapshot["status"]}}) + "\n").encode()
                return
            settling += POLL_INTERVAL_S
        await asyncio.sleep(POLL_INTERVAL_S)
        quiet += POLL_INTERVAL_S
