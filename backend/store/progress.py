"""SQL for progress: the activity events sessions are derived from, badge awards, and the few study
facts badges count (perfect quiz attempts, completed workshops)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from typing_extensions import TypedDict

from backend.store.db import Database, fetch_rows, one, rows_as


class EventRow(TypedDict):
    """One activity event (`kind` is one of progress.events.ActivityKind)."""

    id: int
    kind: str
    ref: str | None
    occurred_at: datetime


class SpanRow(TypedDict):
    """One study session as Postgres derives it: start, end, event count and active seconds."""

    start: datetime
    end: datetime
    events: int
    seconds: int


class AwardRow(TypedDict):
    code: str
    earned_at: datetime
    value: float


def events(db: Database, since: datetime | None = None, until: datetime | None = None) -> list[EventRow]:
    """Events in [since, until), oldest first (all of them when unbounded)."""
    return fetch_rows(db, EventRow,
        "SELECT id, kind, ref, occurred_at FROM activity_events"
        " WHERE (%(since)s::timestamptz IS NULL OR occurred_at >= %(since)s)"
        " AND (%(until)s::timestamptz IS NULL OR occurred_at < %(until)s) ORDER BY occurred_at, id",
        {"since": since, "until": until},
    )


_SESSION_SPANS = """
    WITH ordered AS (
        SELECT id, occurred_at,
               CASE WHEN occurred_at - lag(occurred_at) OVER w <= make_interval(secs => %(gap)s) THEN 0 ELSE 1 END
                   AS starts
        FROM activity_events WINDOW w AS (ORDER BY occurred_at, id)
    ), numbered AS (
        SELECT id, occurred_at, sum(starts) OVER (ORDER BY occurred_at, id) AS session FROM ordered
    ), credited AS (
        SELECT session, occurred_at,
               coalesce(floor(extract(epoch FROM lead(occurred_at) OVER (PARTITION BY session ORDER BY occurred_at, id)
                                                 - occurred_at)), %(last)s) AS credit
        FROM numbered
    )
    SELECT min(occurred_at) AS start, max(occurred_at) AS "end", count(*) AS events, sum(credit)::bigint AS seconds
    FROM credited GROUP BY session ORDER BY start
"""


def session_spans(db: Database, idle_gap_s: int, last_event_s: int) -> list[SpanRow]:
    """Every study session's start, end, event count and active seconds, computed by Postgres — the
    same rules as `progress.sessions.derive_sessions`, without shipping every event to Python."""
    return fetch_rows(db, SpanRow, _SESSION_SPANS, {"gap": idle_gap_s, "last": last_event_s})


def kind_counts(db: Database) -> dict[str, int]:
    with db.connection() as conn:
        rows = conn.execute("SELECT kind, count(*) AS n FROM activity_events GROUP BY kind").fetchall()
    return {row["kind"]: int(row["n"]) for row in rows}


def study_facts(db: Database) -> dict[str, int]:
    """The study facts badges count besides events, in one query: lessons read (distinct), finished quiz
    attempts with every question right, and workshops with every lesson completed."""
    with db.connection() as conn:
        row = one(conn.execute(
            "SELECT (SELECT count(DISTINCT ref) FROM activity_events WHERE kind = 'lesson_read' AND ref IS NOT NULL)"
            " AS lessons_read,"
            " (SELECT count(*) FROM quiz_attempts a WHERE a.finished_at IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM quiz_answers x WHERE x.attempt_id = a.id AND NOT x.correct)"
            " AND EXISTS (SELECT 1 FROM quiz_answers x WHERE x.attempt_id = a.id)) AS perfect_quizzes,"
            " (SELECT count(*) FROM workshops w WHERE EXISTS (SELECT 1 FROM workshop_lessons l"
            " WHERE l.workshop_id = w.id) AND NOT EXISTS (SELECT 1 FROM workshop_lessons l"
            " WHERE l.workshop_id = w.id AND (l.completed_at IS NULL OR l.content IS NULL))) AS workshops_completed"
        ))
    return {key: int(value) for key, value in row.items()}


def awards(db: Database) -> dict[str, AwardRow]:
    with db.connection() as conn:
        rows = rows_as(AwardRow, conn.execute("SELECT code, earned_at, value FROM badge_awards").fetchall())
    return {row["code"]: row for row in rows}


def award(db: Database, earned: Sequence[tuple[str, datetime, float]]) -> list[str]:
    """Record badges earned (each only once); returns the codes that were new."""
    new = []
    with db.transaction() as conn:
        for code, earned_at, value in earned:
            if conn.execute(
                "INSERT INTO badge_awards (code, earned_at, value) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (code, earned_at, value),
            ).rowcount:
                new.append(code)
    return new
