"""SQL for `documents`: listing with block statistics, lookups, metadata edits and deletion."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import psycopg

from backend.store.db import Database

_LIST_COLUMNS = """
    d.id::text AS id, d.filename, d.category, d.kind, d.mime, d.size_bytes, d.pages, d.status, d.error,
    d.warnings, d.source_url, d.sha256, d.stored_path, d.last_workflow_id, d.created_at, d.updated_at,
    coalesce(s.blocks, 0) AS blocks, coalesce(s.embedded, 0) AS embedded
"""

_STATS_JOIN = """
    LEFT JOIN LATERAL (
        SELECT count(*) AS blocks, count(*) FILTER (WHERE b.embed_model = %(embed_model)s) AS embedded
        FROM blocks b WHERE b.document_id = d.id AND b.is_live
    ) s ON true
"""


def list_documents(
    db: Database, embed_model: str, *, status: str | None = None, category: str | None = None
) -> list[dict[str, Any]]:
    where = ["d.status <> 'deleted'"]
    params: dict[str, Any] = {"embed_model": embed_model}
    if status:
        where.append("d.status = %(status)s")
        params["status"] = status
    if category:
        where.append("d.category = %(category)s")
        params["category"] = category
    conditions = " AND ".join(where)
    query = (f"SELECT {_LIST_COLUMNS} FROM documents d {_STATS_JOIN} WHERE {conditions}"  # noqa: S608 - fixed fragments
             " ORDER BY d.created_at DESC, d.filename")
    with db.connection() as conn:
        return conn.execute(query, params).fetchall()


def get_document(db: Database, document_id: UUID, embed_model: str) -> dict[str, Any] | None:
    query = f"SELECT {_LIST_COLUMNS} FROM documents d {_STATS_JOIN} WHERE d.id = %(id)s AND d.status <> 'deleted'"  # noqa: S608
    with db.connection() as conn:
        return conn.execute(query, {"id": document_id, "embed_model": embed_model}).fetchone()


def existing_ids(db: Database, ids: list[UUID]) -> set[str]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id FROM documents WHERE id = ANY(%s) AND status <> 'deleted'", (ids,)
        ).fetchall()
    return {row["id"] for row in rows}


# Held from a transaction's first index change until it commits. Sequence numbers are drawn at insert
# but become visible at commit; without the lock a later number could commit first, a polling process
# would move its mark past the earlier one and never apply it. With it, numbers commit in order.
_INDEX_CHANGE_LOCK = 727_002


def record_index_change(conn: psycopg.Connection, db: Database, document_id: UUID | str, reason: str) -> None:
    """Append to the change feed; `db.origin` tells other processes who already applied it.

    Call it last in a transaction (after its other writes): the feed lock it takes is held to the commit,
    and taking row locks after it could deadlock with a writer waiting for the feed lock."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (_INDEX_CHANGE_LOCK,))
    conn.execute("INSERT INTO index_changes (document_id, reason, origin) VALUES (%s, %s, %s)",
                 (document_id, reason, db.origin))


def set_category(db: Database, document_id: UUID, category: str | None) -> bool:
    with db.transaction() as conn:
        cur = conn.execute(
            "UPDATE documents SET category = %s, updated_at = now() WHERE id = %s AND status <> 'deleted'",
            (category, document_id),
        )
        if cur.rowcount == 0:
            return False
        record_index_change(conn, db, document_id, "category")
    return True


def mark_deleted(db: Database, document_id: UUID) -> str | None:
    """Delete a document's blocks and tombstone the row in one transaction; returns its stored path."""
    with db.transaction() as conn:
        row = conn.execute(
            "UPDATE documents SET status = 'deleted', generation = generation + 1, error = NULL,"
            " updated_at = now() WHERE id = %s AND status <> 'deleted' RETURNING stored_path",
            (document_id,),
        ).fetchone()
        if row is None:
            return None
        conn.execute("DELETE FROM blocks WHERE document_id = %s", (document_id,))
        record_index_change(conn, db, document_id, "deleted")
    return row["stored_path"] or ""


def list_categories(db: Database) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT category AS name, count(*) AS documents FROM documents"
            " WHERE status <> 'deleted' AND category IS NOT NULL GROUP BY category ORDER BY lower(category)"
        ).fetchall()
