"""Ingestion runs: a snapshot of one run, its live NDJSON progress stream, cancelling, and recent runs."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Path, Query
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from backend.api.deps import BackfillDep, DatabaseDep, SearchDep
from backend.ingest import progress, reconcile
from backend.ingest.progress import RunSnapshot, RunSummary

router = APIRouter(prefix="/api/ingest", tags=["ingest"])

WorkflowId = Annotated[str, Path(pattern=r"^[A-Za-z0-9._:-]{1,128}$", description="An ingestion workflow id")]


@router.get("", response_model=list[RunSummary])
def list_runs(db: DatabaseDep, limit: int = Query(20, ge=1, le=200)) -> list[RunSummary]:
    return progress.list_runs(db, limit)


@router.get("/{workflow_id}", response_model=RunSnapshot)
def get_run(workflow_id: WorkflowId, db: DatabaseDep) -> RunSnapshot:
    """DBOS status, the steps taken so far, each document's state and the fine-grained progress."""
    return progress.run_snapshot(db, workflow_id)


@router.post("/{workflow_id}/cancel", response_model=RunSnapshot)
def cancel_run(workflow_id: WorkflowId, db: DatabaseDep, backfill: BackfillDep, search: SearchDep,
               after: BackgroundTasks) -> RunSnapshot:
    """Stop an ingestion at its next step boundary; documents it made ready stay, no other file is added."""
    progress.run_snapshot(db, workflow_id)  # 404 for unknown runs
    withdrawn = reconcile.cancel_run(db, backfill, workflow_id)
    # This process's index drops the withdrawn passages right after the answer, as every other process's
    # does from the change feed: the answer does not wait on a long document's removal from the index.
    after.add_task(search.notify, withdrawn)
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
