"""SQL for the startup sweep of the upload staging folder: which staged files an ingestion run still names."""

from __future__ import annotations

from collections.abc import Sequence

from psycopg.rows import scalar_row

from backend.store.db import Database


def referenced_paths(db: Database, paths: Sequence[str]) -> set[str]:
    """The subset of `paths` that some ingestion run's item still names as its pending file."""
    if not paths:
        return set()
    with db.connection() as conn, conn.cursor(row_factory=scalar_row) as cur:
        cur.execute("SELECT DISTINCT pending_path FROM ingest_items WHERE pending_path = ANY(%s)", (list(paths),))
        return {str(path) for path in cur.fetchall()}
