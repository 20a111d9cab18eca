"""Ingestion runs: a snapshot of one run, its live NDJSON progress stream, cancelling, and recent runs."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from backend.api.deps import BackfillDep, DatabaseDep
from backend.api.documents import PageWarningOut
from backend.ingest import progress, reconcile
from backend.ingest.progress import DocumentStepName, StepStatus
from backend.store.ingest import Decision, ItemState, RunPhase
from backend.store.kinds import DocKind

router = APIRouter(prefix="/api/ingest", tags=["ingest"])

WorkflowId = Annotated[str, Path(pattern=r"^[A-Za-z0-9._:-]{1,128}$", description="An ingestion workflow id")]


class Progress(BaseModel):
    done: int
    total: int
    detail: str


class RunProgress(Progress):
    phase: RunPhase


class RunDocumentStep(BaseModel):
    """One of a document's steps: read (extract and chunk), store, embed (all its batches)."""

    name: DocumentStepName
    status: StepStatus
    started_at: str
    finished_at: str | None
    seconds: float | None
    executions: int
    parts: int


class RunDocument(BaseModel):
    id: str
    filename: str
    kind: DocKind  # how the file is read; `pages` counts slides for a deck
    status: ItemState
    decision: Decision | None  # None until the scan decided
    error: str | None
    warnings: list[str]
    page_warnings: list[PageWarningOut] = []
    read_as: str | None = None  # set when the content, not the name, decided how the file is read
    progress: Progress
    pages: int | None
    blocks: int | None
    embedded: int | None
    steps: list[RunDocumentStep] = []


class RunStep(BaseModel):
    name: str
    status: StepStatus
    started_at: str | None
    finished_at: str | None


class RunSnapshot(BaseModel):
    workflow_id: str
    status: str  # DBOS: PENDING | ENQUEUED | SUCCESS | ERROR | CANCELLED | ...
    source: str
    created_at: str
    documents: list[RunDocument]
    steps: list[RunStep]
    executions: dict[str, int]  # how many times each step started (more than once = resumed)
    progress: RunProgress


class RunSummary(BaseModel):
    workflow_id: str
    source: str
    status: str  # DBOS: PENDING | ENQUEUED | SUCCESS | ERROR | CANCELLED | ...
    phase: RunPhase
    done: int
    total: int
    detail: str
    documents: int
    created_at: str
    updated_at: str


@router.get("", response_model=list[RunSummary])
def list_runs(db: DatabaseDep, limit: int = Query(20, ge=1, le=200)) -> list[progress.RunInfo]:
    return progress.list_runs(db, limit)


@router.get("/{workflow_id}", response_model=RunSnapshot)
def get_run(workflow_id: WorkflowId, db: DatabaseDep) -> progress.Snapshot:
    """DBOS status, the steps taken so far, each document's state and the fine-grained progress."""
    return progress.run_snapshot(db, workflow_id)


@router.post("/{workflow_id}/cancel", response_model=RunSnapshot)
def cancel_run(workflow_id: WorkflowId, db: DatabaseDep, backfill: BackfillDep) -> progress.Snapshot:
    """Stop an ingestion at its next step boundary; documents already stored stay in the vault."""
    progress.run_snapshot(db, workflow_id)  # 404 for unknown runs
    reconcile.cancel_run(db, backfill, workflow_id)
    return progress.run_snapshot(db, workflow_id)


@router.get("/{workflow_id}/events", response_class=StreamingResponse)
async def run_events(workflow_id: WorkflowId, db: DatabaseDep) -> StreamingResponse:
    """NDJSON: a `progress` line (a RunSnapshot) whenever it changes, then an `end` line with the status."""
    await run_in_threadpool(progress.run_snapshot, db, workflow_id)  # 404 before the stream starts
    return StreamingResponse(
        progress.run_events(db, workflow_id),
        media_type="application/x-ndjson",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
