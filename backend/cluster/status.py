"""What `GET /api/health` shows of the processes sharing this database: who is alive and busy with what."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from backend.store import processes as store
from backend.store.db import Database
from backend.store.processes import ProcessMode


class ProcessActivity(BaseModel):
    """What a process reported with its last heartbeat: its pending workflows, counted by name."""

    pending_workflows: int = 0
    by_workflow: dict[str, int] = {}


class ProcessStatus(BaseModel):
    """One Quire process (server or worker) sharing this database, as `/api/health` lists it."""

    executor_id: str
    mode: ProcessMode
    hostname: str
    pid: int
    address: str | None
    started_at: datetime
    last_seen: datetime
    alive: bool
    this_process: bool
    activity: ProcessActivity
    taken_over_by: str | None
    recovered_workflows: int


def list_processes(db: Database, executor_id: str, takeover_after_s: float) -> list[ProcessStatus]:
    """Every known process, newest records included; `alive` = heartbeating and neither stopped nor taken
    over (silent for less than `takeover_after_s`); `this_process` is the one with `executor_id`."""
    return [
        ProcessStatus(
            executor_id=row.executor_id, mode=row.mode, hostname=row.hostname, pid=row.pid, address=row.address,
            started_at=row.started_at, last_seen=row.last_seen,
            alive=(row.stopped_at is None and row.taken_over_by is None
                   and row.silent_s < takeover_after_s),
            this_process=row.executor_id == executor_id,
            activity=ProcessActivity.model_validate(row.activity),
            taken_over_by=row.taken_over_by, recovered_workflows=row.recovered_workflows,
        )
        for row in store.list_processes(db)
    ]
