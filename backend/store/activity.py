"""SQL for study activity events."""

from __future__ import annotations

from datetime import datetime

from backend.store.db import Connection, Cursor, Database


def insert_event(db: Database, kind: str, ref: str | None, occurred_at: datetime | None,
                 unless_within_s: int = 0) -> int | None:
    """Store one event; with `unless_within_s`, not if the same kind and ref was recorded that many
    seconds before it (returns None then)."""
    # Progress, not content: committed without waiting for the disk flush (see Database.bookkeeping), so
    # recording a card review or a quiz answer never queues behind an fsync.
    with db.bookkeeping() as conn:
        row = add_event(conn, kind, ref, occurred_at, unless_within_s).fetchone()
    return int(row["id"]) if row else None


def add_event(conn: Connection, kind: str, ref: str | None, occurred_at: datetime | None,
              unless_within_s: int = 0) -> Cursor:
    """Queue the insert of one event in the caller's transaction; the cursor returns its id (no row when
    it was a repeat). The chat stores a question's event with the question itself."""
    return conn.execute(
        "WITH e AS (SELECT %(kind)s AS kind, %(ref)s::text AS ref, coalesce(%(at)s, now()) AS at)"
        " INSERT INTO activity_events (kind, ref, occurred_at) SELECT kind, ref, at FROM e"
        " WHERE NOT EXISTS (SELECT 1 FROM activity_events a, e WHERE a.kind = e.kind AND a.ref = e.ref"
        " AND a.occurred_at > e.at - make_interval(secs => %(within)s) AND a.occurred_at <= e.at)"
        " RETURNING id",
        {"kind": kind, "ref": ref, "at": occurred_at, "within": unless_within_s},
    )
