"""SQL for the source viewer: a document's live blocks by page, by position and around one block, and
its section starts (the outline). Every read is bounded by a limit the caller passes."""

from __future__ import annotations

from uuid import UUID

from typing_extensions import TypedDict

from backend.store.db import Database, fetch_row, fetch_rows, first_row


class BlockRow(TypedDict):
    id: str
    ordinal: int
    page: int | None
    section: str | None
    kind: str
    text: str


class SectionRow(TypedDict):
    """Where a section starts: the outline's entries (the viewer's `Section`)."""

    title: str
    block_id: str
    ordinal: int
    page: int | None


class BlockPlace(TypedDict):
    ordinal: int
    page: int | None
    is_live: bool


_BLOCK_COLUMNS = "b.id::text AS id, b.ordinal, b.page, b.section, b.kind, b.text"


def count_live_blocks(db: Database, document_id: UUID) -> int:
    row = first_row(db, "SELECT count(*) AS n FROM blocks WHERE document_id = %s AND is_live", (document_id,))
    return int(row["n"]) if row else 0


def section_starts(db: Database, document_id: UUID, limit: int) -> list[SectionRow]:
    """The first live block of each run of blocks sharing a section, in reading order."""
    query = """
        SELECT title, block_id, ordinal, page FROM (
            SELECT b.section AS title, b.id::text AS block_id, b.ordinal, b.page,
                   lag(b.section) OVER (ORDER BY b.ordinal) AS previous
            FROM blocks b WHERE b.document_id = %(id)s AND b.is_live
        ) s
        WHERE title IS NOT NULL AND title IS DISTINCT FROM previous
        ORDER BY ordinal LIMIT %(limit)s
    """
    return fetch_rows(db, SectionRow, query, {"id": document_id, "limit": limit})


def block_place(db: Database, document_id: UUID, block_id: UUID) -> BlockPlace | None:
    """Where a block sits (any version of the document), or None when it is not this document's."""
    return fetch_row(db, BlockPlace,
        "SELECT ordinal, page, is_live FROM blocks WHERE id = %s AND document_id = %s",
        (block_id, document_id),
    )


def blocks_on_page(db: Database, document_id: UUID, page: int, limit: int) -> list[BlockRow]:
    query = (f"SELECT {_BLOCK_COLUMNS} FROM blocks b WHERE b.document_id = %s AND b.is_live"  # noqa: S608
             " AND b.page = %s ORDER BY b.ordinal LIMIT %s")
    return fetch_rows(db, BlockRow, query, (document_id, page, limit))


def blocks_from(db: Database, document_id: UUID, start_ordinal: int, limit: int) -> list[BlockRow]:
    """Up to `limit` live blocks in reading order, from ordinal `start_ordinal` on."""
    query = (f"SELECT {_BLOCK_COLUMNS} FROM blocks b WHERE b.document_id = %s AND b.is_live"  # noqa: S608
             " AND b.ordinal >= %s ORDER BY b.ordinal LIMIT %s")
    return fetch_rows(db, BlockRow, query, (document_id, start_ordinal, limit))


def ordinal_before(db: Database, document_id: UUID, ordinal: int, count: int) -> int:
    """The ordinal `count` live blocks before `ordinal` (or the first live block's)."""
    query = """
        SELECT coalesce(min(ordinal), %(ordinal)s) AS start FROM (
            SELECT ordinal FROM blocks WHERE document_id = %(id)s AND is_live AND ordinal < %(ordinal)s
            ORDER BY ordinal DESC LIMIT %(count)s
        ) earlier
    """
    row = first_row(db, query, {"id": document_id, "ordinal": ordinal, "count": count})
    return int(row["start"]) if row else ordinal


def live_ordinal_bounds(db: Database, document_id: UUID) -> tuple[int, int] | None:
    row = first_row(db,
        "SELECT min(ordinal) AS first, max(ordinal) AS last FROM blocks"
        " WHERE document_id = %s AND is_live",
        (document_id,),
    )
    if not row or row["first"] is None:
        return None
    return int(row["first"]), int(row["last"])


def block_text(db: Database, document_id: UUID, block_id: UUID) -> str | None:
    row = first_row(db, "SELECT text FROM blocks WHERE id = %s AND document_id = %s", (block_id, document_id))
    return str(row["text"]) if row else None
