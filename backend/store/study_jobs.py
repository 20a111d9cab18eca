"""SQL for background study generation jobs (one row per DBOS workflow, same id).

A job row is the status the UI polls. Its terminal success is written by the generator inside the
same transaction that stores the artifact (`finish`), so a job never reports success for something
that was not stored, and a half-generated artifact is never visible.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.errors import ErrorCode
from backend.store.db import Connection, Database, fetch_row, fetch_rows, one_as

JobKind = Literal["quiz", "deck", "workshop", "mindmap", "lesson", "recap", "weak_spots", "guide", "optimize",
                  "audio_overview"]
JobState = Literal["queued", "running", "succeeded", "failed"]


class StudyJobRow(TypedDict):
    id: str  # also the job's DBOS workflow id
    kind: JobKind
    request_key: str
    attempt: int
    params: dict[str, Any]
    state: JobState
    result_id: str | None
    error_code: str | None
    error_message: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    draft: str | None
    report: dict[str, Any] | None

_COLUMNS = "id, kind, request_key, attempt, params, state, result_id::text AS result_id, error_code," \
           " error_message, created_at, started_at, finished_at, draft, report"


def latest_for_key(db: Database, request_key: str) -> StudyJobRow | None:
    return fetch_row(db, StudyJobRow,
        f"SELECT {_COLUMNS} FROM study_jobs WHERE request_key = %s ORDER BY attempt DESC LIMIT 1",  # noqa: S608
        (request_key,),
    )


def insert(db: Database, job_id: str, kind: JobKind, request_key: str, attempt: int,
           params: dict[str, Any]) -> StudyJobRow:
    """Create the job unless a concurrent identical request already did; returns the stored row."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO study_jobs (id, kind, request_key, attempt, params) VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            (job_id, kind, request_key, attempt, Jsonb(params)),
        )
        return one_as(StudyJobRow, conn.execute(f"SELECT {_COLUMNS} FROM study_jobs WHERE id = %s",  # noqa: S608
                                                 (job_id,)))


def recent(db: Database, states: list[str], limit: int) -> list[StudyJobRow]:
    return fetch_rows(db, StudyJobRow,
        f"SELECT {_COLUMNS} FROM study_jobs WHERE state = ANY(%s) ORDER BY created_at DESC LIMIT %s",  # noqa: S608
        (states, limit),
    )


def get(db: Database, job_id: str) -> StudyJobRow | None:
    return fetch_row(db, StudyJobRow, f"SELECT {_COLUMNS} FROM study_jobs WHERE id = %s", (job_id,))  # noqa: S608


def mark_running(db: Database, job_id: str) -> None:
    with db.connection() as conn:
        conn.execute(
            "UPDATE study_jobs SET state = 'running', started_at = coalesce(started_at, now())"
            " WHERE id = %s AND state = 'queued'",
            (job_id,),
        )


def fail(db: Database, job_id: str, code: ErrorCode, message: str) -> None:
    with db.connection() as conn:
        conn.execute(
            "UPDATE study_jobs SET state = 'failed', error_code = %s, error_message = %s, finished_at = now(),"
            " draft = NULL"
            " WHERE id = %s AND state IN ('queued', 'running')",
            (code, message, job_id),
        )


def finish(conn: Connection, job_id: str, result_id: str) -> None:
    """Mark success; call inside the transaction that stored the artifact."""
    conn.execute(
        "UPDATE study_jobs SET state = 'succeeded', result_id = %s, finished_at = now(), draft = NULL WHERE id = %s",
        (result_id, job_id),
    )


def set_draft(db: Database, job_id: str, text: str) -> None:
    """The text written so far by a running job (progress: committed without waiting for the disk)."""
    with db.bookkeeping() as conn:
        conn.execute("UPDATE study_jobs SET draft = %s WHERE id = %s AND state = 'running'", (text, job_id))


def set_report(db: Database, job_id: str, report: dict[str, Any]) -> None:
    """What the job's generation asked for and kept (backend/study/repairs.py `Report`)."""
    with db.connection() as conn:
        conn.execute("UPDATE study_jobs SET report = %s WHERE id = %s", (Jsonb(report), job_id))
