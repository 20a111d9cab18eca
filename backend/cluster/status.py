"""What `GET /api/health` (and the dashboard's processes panel) shows of the processes sharing this
database: who is alive and busy with what, who fell silent, who was fenced or taken over, and the
recent takeovers."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from backend.cluster.takeover import fence_after_s
from backend.store import processes as store
from backend.store.db import Database
from backend.store.processes import ProcessMode, ProcessRow, Takeover

# alive: beating. silent: not beating for longer than the takeover time, its work not yet taken over (if
# its session is still open it is hung, and is fenced once silent for the fence bound). fenced: it was
# hung and a live process ended its sessions and took its work over. taken_over: it was dead (no session
# left) and its work was taken over. stopped: it stopped cleanly.
ProcessState = Literal["alive", "silent", "fenced", "taken_over", "stopped"]


class ProcessActivity(BaseModel):
    """What a process reported with its last heartbeat: its pending workflows, counted by name."""

    pending_workflows: int = 0
    by_workflow: dict[str, int] = {}
    # Since the process started: pages_read, documents_read, passages_embedded (backend/metrics.py).
    work: dict[str, int] = {}


class ProcessStatus(BaseModel):
    """One Quire process (server or worker) sharing this database, as `/api/health` lists it."""

    executor_id: str
    mode: ProcessMode
    hostname: str
    pid: int
    address: str | None
    started_at: datetime
    last_seen: datetime
    silent_s: float
    state: ProcessState
    alive: bool
    this_process: bool
    activity: ProcessActivity
    taken_over_by: str | None
    taken_over_at: datetime | None
    recovered_workflows: int
    sessions_ended: int


class Cluster(BaseModel):
    processes: list[ProcessStatus]
    takeovers: list[Takeover]
    hints: list[str]  # one per silent process, naming it


def _state(row: ProcessRow, takeover_after_s: float) -> ProcessState:
    if row.stopped_at is not None:
        return "stopped"
    if row.fenced_at is not None and row.recovered_at is not None:
        return "fenced" if row.sessions_ended else "taken_over"
    if row.silent_s >= takeover_after_s or row.fenced_at is not None:
        return "silent"
    return "alive"


def _silent_hint(process: ProcessStatus, takeover_after_s: float) -> str:
    return (f"Quire {process.mode} {process.executor_id!r} (pid {process.pid} on {process.hostname}) has been silent "
            f"for {process.silent_s:.0f} s; its unfinished work is taken over once it is found gone, or fenced and "
            f"taken over after {fence_after_s(takeover_after_s):.0f} s of silence if it still holds its session.")


def cluster_status(db: Database, executor_id: str, takeover_after_s: float) -> Cluster:
    processes = [
        ProcessStatus(
            executor_id=row.executor_id, mode=row.mode, hostname=row.hostname, pid=row.pid, address=row.address,
            started_at=row.started_at, last_seen=row.last_seen, silent_s=max(0.0, row.silent_s),
            state=(state := _state(row, takeover_after_s)), alive=state == "alive",
            this_process=row.executor_id == executor_id,
            activity=ProcessActivity.model_validate(row.activity),
            taken_over_by=row.taken_over_by if row.recovered_at is not None else None,
            taken_over_at=row.taken_over_at if row.recovered_at is not None else None,
            recovered_workflows=row.recovered_workflows, sessions_ended=row.sessions_ended,
        )
        for row in store.list_processes(db)
    ]
    takeovers = store.recent_takeovers(db)
    hints = [_silent_hint(p, takeover_after_s) for p in processes if p.state == "silent"]
    return Cluster(processes=processes, takeovers=takeovers, hints=hints)
