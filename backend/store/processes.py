"""SQL for `quire_processes`: the Quire processes sharing this database, their heartbeats and takeovers.

A process proves it is the only live holder of its executor id with a session-level advisory lock held
on its own connection for as long as it runs: Postgres releases the lock the moment that connection
ends, so a crashed process never blocks its own restart, and two live processes can never share an id.
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

ProcessMode = Literal["server", "worker"]

_EXECUTOR_LOCK_SPACE = 727_003  # first key of the two-key advisory lock; the second is the id's hash


@dataclass(frozen=True)
class ProcessRow:
    executor_id: str
    mode: ProcessMode
    hostname: str
    pid: int
    address: str | None
    started_at: datetime
    last_seen: datetime
    activity: dict[str, Any]
    stopped_at: datetime | None
    taken_over_by: str | None
    taken_over_at: datetime | None
    recovered_workflows: int
    silent_s: float


@dataclass(frozen=True)
class Registration:
    """Who the process is; written at start and refreshed by each heartbeat."""

    executor_id: str
    instance_id: uuid.UUID
    mode: ProcessMode
    hostname: str
    pid: int
    address: str | None


def open_lock_connection(url: str) -> Connection:
    return psycopg.connect(url, autocommit=True, row_factory=dict_row, connect_timeout=10)


def try_lock_executor(conn: Connection, executor_id: str) -> bool:
    """Take the executor id's session lock on `conn`; False if another live session holds it."""
    row = conn.execute(
        "SELECT pg_try_advisory_lock(%s, hashtext(%s)) AS locked", (_EXECUTOR_LOCK_SPACE, executor_id)
    ).fetchone()
    return bool(row and row["locked"])


def register(conn: Connection, me: Registration) -> None:
    """(Re)claim this executor id's row: a restart under the same id starts a fresh record."""
    conn.execute(
        "INSERT INTO quire_processes (executor_id, instance_id, mode, hostname, pid, address)"
        " VALUES (%s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (executor_id) DO UPDATE SET instance_id = excluded.instance_id, mode = excluded.mode,"
        " hostname = excluded.hostname, pid = excluded.pid, address = excluded.address, started_at = now(),"
        " last_seen = now(), activity = '{}', stopped_at = NULL, taken_over_by = NULL, taken_over_at = NULL,"
        " recovered_workflows = 0",
        (me.executor_id, me.instance_id, me.mode, me.hostname, me.pid, me.address),
    )


def heartbeat(conn: Connection, me: Registration, activity: dict[str, Any]) -> None:
    conn.execute(
        "UPDATE quire_processes SET last_seen = now(), activity = %s WHERE executor_id = %s AND instance_id = %s",
        (Jsonb(activity), me.executor_id, me.instance_id),
    )


def mark_stopped(conn: Connection, me: Registration) -> None:
    conn.execute(
        "UPDATE quire_processes SET stopped_at = now(), last_seen = now(), activity = '{}'"
        " WHERE executor_id = %s AND instance_id = %s",
        (me.executor_id, me.instance_id),
    )


def claim_silent(conn: Connection, me: str, silent_after_s: float) -> list[str]:
    """Claim every process silent for longer than `silent_after_s` that nobody has taken over yet.

    One UPDATE decides it: under concurrent claims Postgres re-checks `taken_over_by IS NULL` on the row
    after the first claimer commits, so each silent process is claimed by exactly one live process.
    A process that stopped cleanly is claimed too: its queued work may still be waiting for an owner.
    """
    rows = conn.execute(
        "UPDATE quire_processes SET taken_over_by = %s, taken_over_at = now()"
        " WHERE executor_id <> %s AND taken_over_by IS NULL"
        " AND last_seen < now() - make_interval(secs => %s) RETURNING executor_id",
        (me, me, silent_after_s),
    ).fetchall()
    return [row["executor_id"] for row in rows]


def release_claim(conn: Connection, executor_id: str) -> None:
    conn.execute("UPDATE quire_processes SET taken_over_by = NULL, taken_over_at = NULL WHERE executor_id = %s",
                 (executor_id,))


def unlock_executor(conn: Connection, executor_id: str) -> None:
    conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (_EXECUTOR_LOCK_SPACE, executor_id))


def forget_old(conn: Connection, days: int = 7) -> None:
    """Drop the records of processes taken over long ago (each data folder that ever ran leaves one)."""
    conn.execute("DELETE FROM quire_processes WHERE taken_over_at < now() - make_interval(days => %s)", (days,))


def record_recovered(conn: Connection, executor_id: str, workflows: int) -> None:
    conn.execute("UPDATE quire_processes SET recovered_workflows = %s WHERE executor_id = %s",
                 (workflows, executor_id))


def list_processes(db: Database) -> list[ProcessRow]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT executor_id, mode, hostname, pid, address, started_at, last_seen, activity, stopped_at,"
            " taken_over_by, taken_over_at, recovered_workflows,"
            " extract(epoch FROM now() - last_seen)::float8 AS silent_s"
            " FROM quire_processes ORDER BY started_at"
        ).fetchall()
    return [ProcessRow(**row) for row in rows]


def describe(conn: Connection, executor_id: str) -> dict[str, Any] | None:
    return conn.execute("SELECT mode, pid, hostname FROM quire_processes WHERE executor_id = %s",
                        (executor_id,)).fetchone()
