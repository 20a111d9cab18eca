"""SQL for `quire_processes`: the Quire processes sharing this database, their heartbeats, takeovers and fences.

A process proves it is the only live holder of its executor id with a session-level advisory lock held
on its own connection for as long as it runs: Postgres releases the lock the moment that connection
ends, so a crashed process never blocks its own restart, and two live processes can never share an id.
Every session a process opens carries `application_name` = `session_name(instance)`, so a live process
can end all sessions of a hung one (`end_sessions`, `pg_terminate_backend`: allowed for sessions of the
same role without superuser rights).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from backend.store.db import Connection, Database
from backend.store.liveness import CONNECT_TIMEOUT_S

ProcessMode = Literal["server", "worker"]

_EXECUTOR_LOCK_SPACE = 727_003  # first key of the two-key advisory lock; the second is the id's hash
# pg_terminate_backend waits this long (ms) for each ended session to be gone, so its locks are free after.
_TERMINATE_WAIT_MS = 5000
_KEEP_DAYS = 7


def session_name(instance_id: uuid.UUID) -> str:
    """The `application_name` of every session of one process instance (at most 63 characters)."""
    return f"quire:{instance_id}"


@dataclass(frozen=True)
class Registration:
    """Who the process is; written at start and refreshed by each heartbeat."""

    executor_id: str
    instance_id: uuid.UUID
    mode: ProcessMode
    hostname: str
    pid: int
    address: str | None


@dataclass(frozen=True)
class ProcessRow(Registration):
    """A process's row: who it is (as it registered) and what it last reported, as `list_processes` reads it."""

    started_at: datetime
    last_seen: datetime
    activity: dict[str, Any]
    stopped_at: datetime | None
    taken_over_by: str | None
    taken_over_at: datetime | None
    recovered_workflows: int
    recovered_at: datetime | None
    fenced_at: datetime | None
    sessions_ended: int
    silent_s: float


@dataclass(frozen=True)
class Takeover:
    """One takeover: `sessions_ended` > 0 means the process was hung (fenced), 0 that it was gone."""

    at: datetime
    executor_id: str
    mode: ProcessMode
    taken_over_by: str
    silent_s: float
    sessions_ended: int
    workflows: int


@dataclass(frozen=True)
class Silent:
    """A process claimed for takeover: silent for `silent_s` seconds (database time)."""

    executor_id: str
    instance_id: uuid.UUID
    mode: ProcessMode
    silent_s: float


@dataclass(frozen=True)
class FenceNotice:
    """Why this instance may no longer work: fenced (or replaced by a newer start under its id)."""

    fenced_by: str | None
    fenced_at: datetime | None
    replaced: bool


def open_lock_connection(url: str, application_name: str) -> Connection:
    return psycopg.connect(url, autocommit=True, row_factory=dict_row, connect_timeout=CONNECT_TIMEOUT_S,
                           application_name=application_name)


def try_lock_executor(conn: Connection, executor_id: str) -> bool:
    """Take the executor id's session lock on `conn`; False if another live session holds it."""
    row = conn.execute(
        "SELECT pg_try_advisory_lock(%s, hashtext(%s)) AS locked", (_EXECUTOR_LOCK_SPACE, executor_id)
    ).fetchone()
    return bool(row and row["locked"])


def unlock_executor(conn: Connection, executor_id: str) -> None:
    conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (_EXECUTOR_LOCK_SPACE, executor_id))


def end_own_stale_lock(conn: Connection, executor_id: str, application_name: str) -> bool:
    """End a session of this very instance that still holds its lock (a connection the network dropped
    but the server has not noticed yet); True if one was ended."""
    row = conn.execute(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(a.pid, %s)) AS ended FROM pg_stat_activity a"
        " WHERE a.application_name = %s AND a.pid <> pg_backend_pid() AND a.pid IN ("
        # the sessions holding the id's lock: a two-key advisory lock is (classid, objid, objsubid 2)
        "SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2"
        " AND l.classid = %s::oid AND l.objid = (hashtext(%s)::bigint & 4294967295)::oid"
        " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))",
        (_TERMINATE_WAIT_MS, application_name, _EXECUTOR_LOCK_SPACE, executor_id),
    ).fetchone()
    return bool(row and row["ended"])


def end_sessions(conn: Connection, victim: Silent) -> int:
    """End every session of the victim's instance, and whatever session still holds its id's lock;
    returns how many were ended (0: it had none left, it was dead)."""
    row = conn.execute(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(a.pid, %s)) AS ended FROM pg_stat_activity a"
        " WHERE a.pid <> pg_backend_pid() AND (a.application_name = %s OR a.pid IN ("
        "SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2"
        " AND l.classid = %s::oid AND l.objid = (hashtext(%s)::bigint & 4294967295)::oid"
        " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())))",
        (_TERMINATE_WAIT_MS, session_name(victim.instance_id), _EXECUTOR_LOCK_SPACE, victim.executor_id),
    ).fetchone()
    return int(row["ended"]) if row else 0


def previous_instance(conn: Connection, executor_id: str) -> uuid.UUID | None:
    row = conn.execute("SELECT instance_id FROM quire_processes WHERE executor_id = %s", (executor_id,)).fetchone()
    return row["instance_id"] if row else None


def end_instance_sessions(conn: Connection, instance_id: uuid.UUID) -> int:
    """End the sessions an earlier instance under this id may still have (see `Membership.register`)."""
    row = conn.execute(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, %s)) AS ended FROM pg_stat_activity"
        " WHERE application_name = %s AND pid <> pg_backend_pid()",
        (_TERMINATE_WAIT_MS, session_name(instance_id)),
    ).fetchone()
    return int(row["ended"]) if row else 0


def register(conn: Connection, me: Registration) -> None:
    """(Re)claim this executor id's row: a restart under the same id starts a fresh record."""
    conn.execute(
        "INSERT INTO quire_processes (executor_id, instance_id, mode, hostname, pid, address)"
        " VALUES (%s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (executor_id) DO UPDATE SET instance_id = excluded.instance_id, mode = excluded.mode,"
        " hostname = excluded.hostname, pid = excluded.pid, address = excluded.address, started_at = now(),"
        " last_seen = now(), beating_since = now(), activity = '{}', stopped_at = NULL, taken_over_by = NULL,"
        " taken_over_instance = NULL, taken_over_at = NULL, recovered_workflows = 0, recovered_at = NULL,"
        " fenced_at = NULL, sessions_ended = 0",
        (me.executor_id, me.instance_id, me.mode, me.hostname, me.pid, me.address),
    )


def heartbeat(conn: Connection, me: Registration, gap_s: float) -> bool:
    """Record that this instance is alive; False if it may no longer work (fenced, or replaced).

    A beat after a gap longer than `gap_s` restarts `beating_since`: the process was away itself."""
    cursor = conn.execute(
        "UPDATE quire_processes SET last_seen = now(), beating_since = CASE"
        " WHEN last_seen < now() - make_interval(secs => %s) THEN now() ELSE beating_since END"
        " WHERE executor_id = %s AND instance_id = %s AND fenced_at IS NULL",
        (gap_s, me.executor_id, me.instance_id),
    )
    return cursor.rowcount == 1


def report_activity(conn: Connection, me: Registration, activity: dict[str, Any]) -> None:
    conn.execute("UPDATE quire_processes SET activity = %s WHERE executor_id = %s AND instance_id = %s",
                 (Jsonb(activity), me.executor_id, me.instance_id))


def fence_notice(conn: Connection, me: Registration) -> FenceNotice | None:
    """None while this instance may work; otherwise who fenced it (or that a newer start replaced it)."""
    row = conn.execute("SELECT instance_id, fenced_at, taken_over_by FROM quire_processes WHERE executor_id = %s",
                       (me.executor_id,)).fetchone()
    if row is None or row["instance_id"] != me.instance_id:
        return FenceNotice(None, None, replaced=True)
    if row["fenced_at"] is None:
        return None
    return FenceNotice(row["taken_over_by"], row["fenced_at"], replaced=False)


def mark_stopped(conn: Connection, me: Registration) -> None:
    conn.execute(
        "UPDATE quire_processes SET stopped_at = now(), last_seen = now(), activity = '{}'"
        " WHERE executor_id = %s AND instance_id = %s",
        (me.executor_id, me.instance_id),
    )


def claim_silent(conn: Connection, me: Registration, silent_after_s: float) -> list[Silent]:
    """Claim every process silent for longer than `silent_after_s` that nobody has taken over yet.

    One UPDATE decides it: under concurrent claims Postgres re-checks the condition on the row after the
    first claimer commits, so each silent process is claimed by exactly one live process. A process that
    stopped cleanly is claimed too: its queued work may still be waiting for an owner. A claim whose
    claimer was itself fenced (or replaced) before it finished is claimed again.
    """
    rows = conn.execute(
        "UPDATE quire_processes p SET taken_over_by = %s, taken_over_instance = %s, taken_over_at = now()"
        " WHERE p.executor_id <> %s AND p.last_seen < now() - make_interval(secs => %s)"
        " AND (p.taken_over_by IS NULL OR (p.recovered_at IS NULL AND NOT EXISTS ("
        "   SELECT 1 FROM quire_processes c WHERE c.executor_id = p.taken_over_by"
        "   AND c.instance_id = p.taken_over_instance AND c.fenced_at IS NULL)))"
        " RETURNING p.executor_id, p.instance_id, p.mode, extract(epoch FROM now() - p.last_seen)::float8 AS silent_s",
        (me.executor_id, me.instance_id, me.executor_id, silent_after_s),
    ).fetchall()
    return [Silent(**row) for row in rows]


def release_claim(conn: Connection, victim: Silent, me: Registration) -> None:
    """Give a claim back (the process is silent but not yet to be fenced); a fence already made stays."""
    conn.execute("UPDATE quire_processes SET taken_over_by = NULL, taken_over_instance = NULL, taken_over_at = NULL"
                 " WHERE executor_id = %s AND instance_id = %s AND taken_over_instance = %s",
                 (victim.executor_id, victim.instance_id, me.instance_id))


def beating_steadily(conn: Connection, me: Registration, for_s: float, gap_s: float) -> bool:
    """Whether this instance has itself beaten without a gap longer than `gap_s` for `for_s`, up to now (see
    migration 0028): after a database outage, or a pause of its own, it may judge no other process until then.

    Its last beat must be recent too: `beating_since` is restarted only by the first beat after a gap, so
    just after an outage, before this process's heartbeat has reconnected, the row still shows the steady
    beating of before (another thread reaching the database first once fenced a living process for it)."""
    row = conn.execute(
        "SELECT beating_since <= now() - make_interval(secs => %s)"
        " AND last_seen >= now() - make_interval(secs => %s) AS steady FROM quire_processes"
        " WHERE executor_id = %s AND instance_id = %s AND fenced_at IS NULL",
        (for_s, gap_s, me.executor_id, me.instance_id),
    ).fetchone()
    return bool(row and row["steady"])


def fence(conn: Connection, victim: Silent, me: Registration) -> bool:
    """Mark the claimed victim as fenced: from this commit on, no new session of it may work."""
    cursor = conn.execute(
        "UPDATE quire_processes SET fenced_at = coalesce(fenced_at, now())"
        " WHERE executor_id = %s AND instance_id = %s AND taken_over_instance = %s",
        (victim.executor_id, victim.instance_id, me.instance_id),
    )
    return cursor.rowcount == 1


def record_takeover(conn: Connection, victim: Silent, me: Registration, sessions: int, workflows: int) -> None:
    with conn.transaction():
        conn.execute(
            "UPDATE quire_processes SET recovered_workflows = %s, sessions_ended = %s, recovered_at = now()"
            " WHERE executor_id = %s AND instance_id = %s",
            (workflows, sessions, victim.executor_id, victim.instance_id),
        )
        conn.execute(
            "INSERT INTO quire_takeovers (executor_id, instance_id, mode, taken_over_by, silent_s, sessions_ended,"
            " workflows) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (victim.executor_id, victim.instance_id, victim.mode, me.executor_id, victim.silent_s, sessions,
             workflows),
        )


def forget_old(conn: Connection, days: int = _KEEP_DAYS) -> None:
    """Drop the records of processes taken over long ago (each data folder that ever ran leaves one)."""
    conn.execute("DELETE FROM quire_processes WHERE recovered_at < now() - make_interval(days => %s)", (days,))
    conn.execute("DELETE FROM quire_takeovers WHERE at < now() - make_interval(days => %s)", (days,))


def list_processes(db: Database) -> list[ProcessRow]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT executor_id, instance_id, mode, hostname, pid, address, started_at, last_seen, activity,"
            " stopped_at, taken_over_by, taken_over_at, recovered_workflows, recovered_at, fenced_at,"
            " sessions_ended, extract(epoch FROM now() - last_seen)::float8 AS silent_s"
            " FROM quire_processes ORDER BY started_at"
        ).fetchall()
    return [ProcessRow(**row) for row in rows]


def recent_takeovers(db: Database, limit: int = 10) -> list[Takeover]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT at, executor_id, mode, taken_over_by, silent_s, sessions_ended, workflows FROM quire_takeovers"
            " ORDER BY at DESC LIMIT %s", (limit,),
        ).fetchall()
    return [Takeover(**row) for row in rows]


def describe(conn: Connection, executor_id: str) -> dict[str, Any] | None:
    return conn.execute("SELECT mode, pid, hostname FROM quire_processes WHERE executor_id = %s",
                        (executor_id,)).fetchone()
