"""SQL for the log of outbound HTTP requests (explicit URL imports only)."""

from __future__ import annotations

from typing import Any

from backend.store.db import Database, one


def record(db: Database, url: str, host: str, status: int | None, received: int, ok: bool, error: str | None) -> None:
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO outbound_requests (url, host, status, bytes, ok, error) VALUES (%s, %s, %s, %s, %s, %s)",
            (url, host, status, received, ok, error),
        )


def summary(db: Database) -> dict[str, Any]:
    with db.connection() as conn:
        row = one(conn.execute(
            "SELECT count(*) AS requests, coalesce(sum(bytes), 0) AS bytes, max(created_at) AS last_at"
            " FROM outbound_requests"
        ))
        recent = conn.execute(
            "SELECT url, host, status, ok, created_at FROM outbound_requests ORDER BY id DESC LIMIT 10"
        ).fetchall()
    return {**row, "recent": recent}
