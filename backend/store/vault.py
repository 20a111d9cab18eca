"""SQL for the vault panel: how much is stored (documents, blocks, vectors) and how big the database is."""

from __future__ import annotations

from typing import Any

from backend.store.db import Database, one


def counts(db: Database, embed_model: str) -> dict[str, Any]:
    with db.connection() as conn:
        docs = one(conn.execute(
            "SELECT count(*) FILTER (WHERE status <> 'trashed') AS documents,"
            " count(*) FILTER (WHERE status = 'ready') AS ready, count(*) FILTER (WHERE status = 'failed') AS failed,"
            " count(*) FILTER (WHERE status IN ('queued', 'ingesting')) AS ingesting,"
            " coalesce(sum(size_bytes) FILTER (WHERE status <> 'trashed'), 0) AS original_bytes,"
            " count(DISTINCT category) FILTER (WHERE status <> 'trashed') AS categories FROM documents"
        ))
        blocks = one(conn.execute(
            "SELECT count(*) AS blocks, count(*) FILTER (WHERE embed_model = %s) AS embedded FROM blocks"
            " WHERE is_live",
            (embed_model,),
        ))
    return {**docs, **blocks}


def database_size(db: Database) -> int:
    with db.connection() as conn:
        row = one(conn.execute("SELECT pg_database_size(current_database()) AS bytes"))
    return int(row["bytes"])
