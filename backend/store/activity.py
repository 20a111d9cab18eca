"""SQL for study activity events."""

from __future__ import annotations

from datetime import datetime

from backend.store.db import Database


def insert_event(db: Database, kind: str, ref: str | None, occurred_at: datetime | None) -> int:
    # Progress, not content: committed without waiting for the disk flush (see Database.bookkeeping), so
    # recording a chat question or a card review never queues behind an fsync.
    with db.bookkeeping() as conn:
        row = conn.execute(
            "INSERT INTO activity_events (kind, ref, occurred_at) VALUES (%s, %s, coalesce(%s, now())) RETURNING id",
            (kind, ref, occurred_at),
        ).fetchone()
    return int(row["id"])
