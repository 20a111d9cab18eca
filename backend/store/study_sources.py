"""SQL that feeds study generation: the documents a scope covers and an even spread of their blocks.

Only the scoped documents' blocks are read (never the whole vault's vectors), and a long document
contributes at most `per_document` blocks, picked evenly across its length in SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from backend.store.db import Database, one

_SCOPED = """
    d.status = 'ready'
    AND ((cardinality(%(ids)s::uuid[]) = 0 AND cardinality(%(cats)s::text[]) = 0)
         OR d.id = ANY(%(ids)s::uuid[]) OR d.category = ANY(%(cats)s::text[]))
    AND EXISTS (SELECT 1 FROM blocks b WHERE b.document_id = d.id AND b.is_live)
"""


def scope_documents(db: Database, document_ids: Sequence[str], categories: Sequence[str],
                    limit: int) -> list[dict[str, Any]]:
    """Ready documents with live blocks in the scope (empty scope = whole vault), newest first."""
    query = f"SELECT d.id::text AS id, d.filename FROM documents d WHERE {_SCOPED}" \
            " ORDER BY d.created_at DESC, d.filename LIMIT %(limit)s"  # noqa: S608 - fixed fragment
    with db.connection() as conn:
        return conn.execute(query, {"ids": list(document_ids), "cats": list(categories), "limit": limit}).fetchall()


def scope_blocks(db: Database, document_ids: Sequence[str], embed_model: str, per_document: int,
                 phase: float = 0.0) -> list[dict[str, Any]]:
    """Up to `per_document` live blocks of each document, one from each of `per_document` equal slices of
    it; `phase` (0 ≤ phase < 1) shifts which block of each slice is taken."""
    with db.connection() as conn:
        cursor = conn.cursor(binary=True)
        cursor.execute(
            """
            SELECT id, document_id, filename, ordinal, page, section, text, embedding FROM (
                SELECT b.id::text AS id, b.document_id::text AS document_id, d.filename, b.ordinal, b.page,
                       b.section, b.text,
                       CASE WHEN b.embed_model = %(model)s THEN b.embedding END AS embedding,
                       row_number() OVER w AS rn, count(*) OVER (PARTITION BY b.document_id) AS n
                FROM blocks b JOIN documents d ON d.id = b.document_id
                WHERE b.is_live AND b.document_id = ANY(%(ids)s::uuid[])
                WINDOW w AS (PARTITION BY b.document_id ORDER BY b.ordinal)
            ) spread
            -- keep row rn where floor(rn * per / n + phase) steps up: exactly `per` rows, evenly spaced
            WHERE n <= %(per)s
               OR floor((rn - 1)::float8 * %(per)s / n + %(phase)s) <> floor(rn::float8 * %(per)s / n + %(phase)s)
            ORDER BY document_id, ordinal
            """,
            {"model": embed_model, "ids": list(document_ids), "per": per_document, "phase": phase},
        )
        return cursor.fetchall()


def count_scope_blocks(db: Database, document_ids: Sequence[str], categories: Sequence[str]) -> int:
    query = f"SELECT count(*) AS n FROM documents d JOIN blocks b ON b.document_id = d.id AND b.is_live" \
            f" WHERE {_SCOPED}"  # noqa: S608 - fixed fragment
    with db.connection() as conn:
        row = one(conn.execute(query, {"ids": list(document_ids), "cats": list(categories)}))
    return int(row["n"])


def blocks_by_ids(db: Database, block_ids: Sequence[str], embed_model: str) -> list[dict[str, Any]]:
    """These blocks (live or not, as long as they still exist) with their document's filename."""
    with db.connection() as conn:
        cursor = conn.cursor(binary=True)
        cursor.execute(
            "SELECT b.id::text AS id, b.document_id::text AS document_id, d.filename, b.ordinal, b.page,"
            " b.section, b.text, CASE WHEN b.embed_model = %(model)s THEN b.embedding END AS embedding"
            " FROM blocks b JOIN documents d ON d.id = b.document_id"
            " WHERE b.id = ANY(%(ids)s::uuid[]) AND d.status <> 'trashed' ORDER BY b.document_id, b.ordinal",
            {"model": embed_model, "ids": list(block_ids)},
        )
        return cursor.fetchall()
