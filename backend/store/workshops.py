"""SQL for workshops and their lessons (outline, content written on first open, completion)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Connection, Database, fetch_row, fetch_rows

_WORKSHOP = """
    SELECT w.id::text AS id, w.title, w.summary, w.difficulty, w.objectives, w.key_points, w.scope, w.sources,
           w.recap_quiz_id::text AS recap_quiz_id, w.created_at,
           count(l.n) AS lesson_count,
           -- a lesson counts once read, and only a written one can be read
           count(l.completed_at) FILTER (WHERE l.content IS NOT NULL) AS completed_lessons,
           coalesce(sum(l.estimated_minutes), 0) AS total_minutes
    FROM workshops w LEFT JOIN workshop_lessons l ON l.workshop_id = w.id
"""
_LESSON = """
    SELECT workshop_id::text AS workshop_id, n, title, estimated_minutes, summary, content, sources, version,
           written_at, completed_at
    FROM workshop_lessons
"""


class WorkshopRow(TypedDict):
    """A workshop with its lesson counts, as `_WORKSHOP` reads it."""

    id: str
    title: str
    summary: str
    difficulty: str
    objectives: list[str]
    key_points: list[str]
    scope: dict[str, Any]
    sources: list[dict[str, Any]]
    recap_quiz_id: str | None
    created_at: datetime
    lesson_count: int
    completed_lessons: int
    total_minutes: int


class LessonRow(TypedDict):
    """A lesson as `_LESSON` reads it; `content` is None until the lesson is first opened."""

    workshop_id: str
    n: int
    title: str
    estimated_minutes: int
    summary: str
    content: str | None
    sources: list[dict[str, Any]]
    version: int
    written_at: datetime | None
    completed_at: datetime | None


def insert_workshop(conn: Connection, workshop: dict[str, Any], lessons: Sequence[dict[str, Any]]) -> None:
    conn.execute(
        "INSERT INTO workshops (id, title, summary, difficulty, objectives, key_points, scope, sources, job_id)"
        " VALUES (%(id)s, %(title)s, %(summary)s, %(difficulty)s, %(objectives)s, %(key_points)s, %(scope)s,"
        " %(sources)s, %(job_id)s) ON CONFLICT (id) DO NOTHING",
        {**workshop, **{k: Jsonb(workshop[k]) for k in ("objectives", "key_points", "scope", "sources")}},
    )
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO workshop_lessons (workshop_id, n, title, estimated_minutes, summary)"
            " VALUES (%(workshop_id)s, %(n)s, %(title)s, %(estimated_minutes)s, %(summary)s)"
            " ON CONFLICT DO NOTHING",
            [{**lesson, "workshop_id": workshop["id"]} for lesson in lessons],
        )


def list_workshops(db: Database) -> list[WorkshopRow]:
    return fetch_rows(db, WorkshopRow, f"{_WORKSHOP} GROUP BY w.id ORDER BY w.created_at DESC")


def get_workshop(db: Database, workshop_id: str) -> WorkshopRow | None:
    return fetch_row(db, WorkshopRow, f"{_WORKSHOP} WHERE w.id = %s GROUP BY w.id", (workshop_id,))


def delete_workshop(db: Database, workshop_id: str) -> bool:
    with db.connection() as conn:
        return conn.execute("DELETE FROM workshops WHERE id = %s", (workshop_id,)).rowcount > 0


def lessons(db: Database, workshop_id: str) -> list[LessonRow]:
    return fetch_rows(db, LessonRow, f"{_LESSON} WHERE workshop_id = %s ORDER BY n", (workshop_id,))


def lesson(db: Database, workshop_id: str, n: int) -> LessonRow | None:
    return fetch_row(db, LessonRow, f"{_LESSON} WHERE workshop_id = %s AND n = %s", (workshop_id, n))


def bump_version(db: Database, workshop_id: str, n: int, current: int) -> bool:
    """Move the lesson to its next writing version unless another request just did."""
    with db.connection() as conn:
        return conn.execute(
            "UPDATE workshop_lessons SET version = version + 1 WHERE workshop_id = %s AND n = %s AND version = %s",
            (workshop_id, n, current),
        ).rowcount > 0


def save_lesson(conn: Connection, workshop_id: str, n: int, version: int, content: str,
                sources: list[dict[str, Any]]) -> None:
    """Store a written lesson; a writing for a version superseded by "regenerate" is discarded."""
    conn.execute(
        "UPDATE workshop_lessons SET content = %s, sources = %s, written_at = now()"
        " WHERE workshop_id = %s AND n = %s AND version = %s",
        (content, Jsonb(sources), workshop_id, n, version),
    )


CompleteOutcome = Literal["done", "no_lesson", "not_written"]


def set_completed(db: Database, workshop_id: str, n: int, completed: bool) -> CompleteOutcome:
    """Mark a lesson read (or not); a lesson never written cannot be marked read."""
    with db.connection() as conn:
        row = conn.execute(
            "UPDATE workshop_lessons SET completed_at = CASE WHEN %s THEN coalesce(completed_at, now()) END"
            " WHERE workshop_id = %s AND n = %s AND (content IS NOT NULL OR NOT %s) RETURNING n",
            (completed, workshop_id, n, completed),
        ).fetchone()
        if row is not None:
            return "done"
        exists = conn.execute("SELECT 1 FROM workshop_lessons WHERE workshop_id = %s AND n = %s",
                              (workshop_id, n)).fetchone()
    return "not_written" if exists else "no_lesson"


def set_recap(conn: Connection, workshop_id: str, quiz_id: str) -> None:
    conn.execute("UPDATE workshops SET recap_quiz_id = %s WHERE id = %s", (quiz_id, workshop_id))
