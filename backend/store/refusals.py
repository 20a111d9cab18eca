"""SQL for refusals: files refused at upload or URL import, kept (with the reason) until dismissed, so
the library can list them after a reload or a restart."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from backend.errors import ErrorCode
from backend.store.db import Database


@dataclass(frozen=True)
class NewRefusal:
    filename: str
    code: ErrorCode
    message: str


@dataclass(frozen=True)
class Refusal:
    id: str
    filename: str
    category: str | None
    code: str  # as stored: a refusal an earlier build recorded keeps the code it had then
    message: str
    created_at: datetime


def record(db: Database, refusals: Sequence[NewRefusal], category: str | None) -> None:
    if not refusals:
        return
    with db.transaction() as conn, conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO upload_refusals (id, filename, category, code, message) VALUES (%s, %s, %s, %s, %s)",
            [(uuid.uuid4(), r.filename, category, r.code, r.message) for r in refusals],
        )


def open_refusals(db: Database, limit: int = 500) -> list[Refusal]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id, filename, category, code, message, created_at FROM upload_refusals"
            " WHERE dismissed_at IS NULL ORDER BY created_at DESC LIMIT %s",
            (limit,),
        ).fetchall()
    return [Refusal(**row) for row in rows]


def dismiss(db: Database, refusal_id: uuid.UUID | None = None) -> int:
    """Dismiss one refusal (or all with None); returns how many were dismissed."""
    with db.connection() as conn:
        cur = conn.execute(
            "UPDATE upload_refusals SET dismissed_at = now() WHERE dismissed_at IS NULL"
            " AND (%s::uuid IS NULL OR id = %s::uuid)",
            (refusal_id, refusal_id),
        )
    return cur.rowcount
