"""SQL that feeds the in-memory index: live blocks with their document's metadata, and the change feed."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from backend.store.db import Database

_LIVE_BLOCKS = """
    SELECT b.id::text AS id, b.document_id::text AS document_id, d.filename, d.category, b.ordinal, b.page,
           b.section, b.kind, b.text,
           CASE WHEN b.embed_model = %(model)s THEN b.embedding END AS embedding
    FROM blocks b JOIN documents d ON d.id = b.document_id
    WHERE b.is_live AND d.status <> 'deleted'
"""


def iter_live_blocks(db: Database, embed_model: str, batch_rows: int = 5000) -> Iterator[list[dict[str, Any]]]:
    """All live blocks in batches; binary transfer keeps 100k vectors fast to load."""
    with db.connection() as conn, conn.transaction():
        cursor = conn.cursor(name="live_blocks", binary=True)
        cursor.execute(_LIVE_BLOCKS + " ORDER BY b.document_id, b.ordinal", {"model": embed_model})
        while rows := cursor.fetchmany(batch_rows):
            yield rows


def live_blocks_of(db: Database, document_ids: Sequence[str], embed_model: str) -> list[dict[str, Any]]:
    with db.connection() as conn:
        cursor = conn.cursor(binary=True)
        cursor.execute(
            _LIVE_BLOCKS + " AND b.document_id = ANY(%(ids)s::uuid[]) ORDER BY b.document_id, b.ordinal",
            {"model": embed_model, "ids": list(document_ids)},
        )
        return cursor.fetchall()


def latest_change(db: Database) -> int:
    with db.connection() as conn:
        row = conn.execute("SELECT coalesce(max(seq), 0) AS seq FROM index_changes").fetchone()
    return int(row["seq"])


def changes_since(db: Database, seq: int, limit: int = 10_000) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT seq, document_id::text AS document_id, origin FROM index_changes WHERE seq > %s"
            " ORDER BY seq LIMIT %s",
            (seq, limit),
        ).fetchall()
