"""SQL for `documents`: listing with block statistics, lookups, metadata edits, the trash (move there,
restore, delete for good) and the index change feed.

Trashing and restoring are each one transaction that flips the document's blocks' `is_live` and
records an index change, so search follows at once and nothing is re-extracted or re-embedded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal
from uuid import UUID

import psycopg
from typing_extensions import TypedDict

from backend.store import originals
from backend.store.db import Connection, Database, fetch_row, fetch_rows
from backend.store.kinds import DocKind, DocumentStatus, PageWarningRow
from backend.store.registration import free_name

_LIST_COLUMNS = """
    d.id::text AS id, d.filename, d.category, d.kind, d.mime, d.size_bytes, d.pages, d.language, d.status,
    d.error, d.warnings, d.page_warnings, d.source_url, d.sha256, d.last_workflow_id, d.created_at, d.updated_at,
    coalesce(d.current_version, 0) AS current_version, d.trashed_at, d.source_kind,
    (SELECT count(*) FROM document_versions v WHERE v.document_id = d.id) AS versions,
    coalesce(s.blocks, 0) AS blocks, coalesce(s.embedded, 0) AS embedded
"""



class DocumentRow(TypedDict):
    """A document as `_LIST_COLUMNS` reads it, with its live blocks' counts."""

    id: str
    filename: str
    category: str | None
    kind: DocKind | None  # None until a first version is stored
    mime: str | None
    size_bytes: int | None
    pages: int | None
    language: str | None  # where the reading decided one: a recording's speech ("en", "de")
    status: DocumentStatus
    error: str | None
    warnings: list[str]
    page_warnings: list[PageWarningRow]
    source_url: str | None
    sha256: str | None
    last_workflow_id: str | None
    created_at: datetime
    updated_at: datetime
    current_version: int  # 0 until a first version is stored
    trashed_at: datetime | None
    source_kind: Literal["document", "note"]  # note: written in Quire (a Markdown original like any other)
    versions: int
    blocks: int  # live blocks
    embedded: int  # live blocks with a vector of the current embedding model


class DocumentName(TypedDict):
    id: str
    filename: str
    category: str | None


class CategoryRow(TypedDict):
    name: str
    documents: int  # not in the trash


_STATS_JOIN = """
    LEFT JOIN LATERAL (
        SELECT count(*) AS blocks, count(*) FILTER (WHERE b.embed_model = %(embed_model)s) AS embedded
        FROM blocks b WHERE b.document_id = d.id AND b.is_live
    ) s ON true
"""


def list_documents(
    db: Database, embed_model: str, *, status: DocumentStatus | None = None, category: str | None = None
) -> list[DocumentRow]:
    """Documents not in the trash, or only the trash with `status="trashed"`."""
    where = ["d.status = 'trashed'" if status == "trashed" else "d.status <> 'trashed'"]
    params: dict[str, str] = {"embed_model": embed_model}
    if status and status != "trashed":
        where.append("d.status = %(status)s")
        params["status"] = status
    if category:
        where.append("d.category = %(category)s")
        params["category"] = category
    conditions = " AND ".join(where)
    order = "d.trashed_at DESC" if status == "trashed" else "d.created_at DESC, d.filename"
    query = (f"SELECT {_LIST_COLUMNS} FROM documents d {_STATS_JOIN} WHERE {conditions}"  # noqa: S608 - fixed fragments
             f" ORDER BY {order}")
    return fetch_rows(db, DocumentRow, query, params)


def get_document(db: Database, document_id: UUID, embed_model: str, *,
                 with_trashed: bool = False) -> DocumentRow | None:
    visible = "" if with_trashed else " AND d.status <> 'trashed'"
    query = f"SELECT {_LIST_COLUMNS} FROM documents d {_STATS_JOIN} WHERE d.id = %(id)s{visible}"  # noqa: S608
    return fetch_row(db, DocumentRow, query, {"id": document_id, "embed_model": embed_model})


def existing_ids(db: Database, ids: list[UUID]) -> set[str]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id FROM documents WHERE id = ANY(%s) AND status <> 'trashed'", (ids,)
        ).fetchall()
    return {row["id"] for row in rows}


def document_names(db: Database) -> list[DocumentName]:
    """Every document not in the trash with its name and category (the search's name channel reads them)."""
    return fetch_rows(db, DocumentName, "SELECT id::text AS id, filename, category FROM documents"
                      " WHERE status <> 'trashed' ORDER BY id")


# Held from a transaction's first index change until it commits. Sequence numbers are drawn at insert
# but become visible at commit; without the lock a later number could commit first, a polling process
# would move its mark past the earlier one and never apply it. With it, numbers commit in order.
_INDEX_CHANGE_LOCK = 727_002


# The lock every transaction takes first that changes which of a document's blocks are live, or deletes
# or rewrites them: the store step's swap (its flip, then the document, run and item rows), the trash and
# its restore, a delete for good, a version restored or deleted, vectors written. Their row locks came in
# two orders: the swap flipped the blocks and then locked the document; a delete for good locked the
# document and then the blocks it cascades to. Met in the middle, each waited for the other and Postgres
# aborted one. Under this lock they take turns (a trash waits for the flip's seconds); a cancel takes no
# blocks and not this lock, so it still waits only for the swap's last statements.
_DOCUMENT_BLOCKS_LOCK = 727_003


def lock_documents_blocks(conn: Connection, document_ids: Sequence[UUID | str]) -> None:
    """Take the documents' blocks lock (see `_DOCUMENT_BLOCKS_LOCK`) until the transaction ends. Several
    are taken in the order of their keys, so two transactions locking overlapping sets never wait in a circle."""
    conn.execute("SELECT pg_advisory_xact_lock(%s, keys.key) FROM (SELECT DISTINCT hashtext(id::text) AS key"
                 " FROM unnest(%s::uuid[]) AS id ORDER BY key) AS keys",
                 (_DOCUMENT_BLOCKS_LOCK, [str(d) for d in document_ids]))


def record_index_change(conn: Connection, db: Database, document_id: UUID | str, reason: str) -> None:
    """Append to the change feed; `db.origin` tells other processes who already applied it.

    Call it last in a transaction (after its other writes): the feed lock it takes is held to the commit,
    and taking row locks after it could deadlock with a writer waiting for the feed lock."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (_INDEX_CHANGE_LOCK,))
    conn.execute("INSERT INTO index_changes (document_id, reason, origin) VALUES (%s, %s, %s)",
                 (document_id, reason, db.origin))


CategoryOutcome = Literal["updated", "not_found", "name_taken"]


def set_category(db: Database, document_id: UUID, category: str | None) -> CategoryOutcome:
    """Move a document to another category (metadata only), unless its name is taken there."""
    try:
        with db.transaction() as conn:
            cur = conn.execute(
                "UPDATE documents SET category = %s, updated_at = now() WHERE id = %s AND status <> 'trashed'",
                (category, document_id),
            )
            if cur.rowcount == 0:
                return "not_found"
            record_index_change(conn, db, document_id, "category")
    except psycopg.errors.UniqueViolation:
        return "name_taken"
    return "updated"


TRASH_MESSAGE = "The document was moved to the trash before this ingestion finished."


def trash_document(db: Database, document_id: UUID) -> bool:
    """Move to the trash: out of search at once (blocks not live), blocks and vectors kept for a restore.
    An ingestion still running for it stops at its next step (the generation changes)."""
    with db.transaction() as conn:
        lock_documents_blocks(conn, [document_id])
        row = conn.execute(
            "UPDATE documents SET status = 'trashed', trashed_at = now(), generation = generation + 1,"
            " updated_at = now() WHERE id = %s AND status <> 'trashed' RETURNING id",
            (document_id,),
        ).fetchone()
        if row is None:
            return False
        conn.execute("UPDATE blocks SET is_live = false WHERE document_id = %s AND is_live", (document_id,))
        conn.execute(
            "UPDATE ingest_items SET state = 'failed', error = %s, updated_at = now()"
            " WHERE document_id = %s AND state NOT IN ('ready', 'skipped', 'failed')",
            (TRASH_MESSAGE, document_id),
        )
        record_index_change(conn, db, document_id, "deleted")
    return True


RestoreOutcome = Literal["restored", "not_trashed", "not_found"]


@dataclass(frozen=True)
class RestoredDocument:
    outcome: RestoreOutcome
    filename: str | None = None


def restore_document(db: Database, document_id: UUID) -> RestoredDocument:
    """Bring a document back from the trash with its current version's blocks live again, in one
    transaction; it comes back as `Name (n).ext` if its name was taken in its category meanwhile."""
    with db.transaction() as conn:
        lock_documents_blocks(conn, [document_id])
        doc = conn.execute("SELECT status, filename, category, sha256, current_version FROM documents"
                           " WHERE id = %s FOR UPDATE", (document_id,)).fetchone()
        if doc is None:
            return RestoredDocument("not_found")
        if doc["status"] != "trashed":
            return RestoredDocument("not_trashed")
        name = free_name(conn, doc["category"], doc["filename"])
        has_version = doc["current_version"] is not None
        conn.execute(
            "UPDATE documents SET status = %s, filename = %s, trashed_at = NULL, generation = generation + 1,"
            " error = CASE WHEN %s THEN NULL ELSE coalesce(error, %s) END, updated_at = now() WHERE id = %s",
            ("ready" if has_version else "failed", name, has_version, TRASH_MESSAGE, document_id),
        )
        if has_version:
            conn.execute("UPDATE blocks SET is_live = true WHERE document_id = %s AND doc_sha256 = %s",
                         (document_id, doc["sha256"]))
        record_index_change(conn, db, document_id, "stored")
    return RestoredDocument("restored", name)


PurgeOutcome = Literal["deleted", "not_trashed", "not_found"]


def purge_document(db: Database, document_id: UUID) -> tuple[PurgeOutcome, list[str]]:
    """Delete a trashed document for good with its versions, blocks and the originals nothing else needs;
    returns the originals deleted (the caller removes their cached files after the commit)."""
    with db.transaction() as conn:
        lock_documents_blocks(conn, [document_id])
        doc = conn.execute("SELECT status FROM documents WHERE id = %s FOR UPDATE", (document_id,)).fetchone()
        if doc is None:
            return "not_found", []
        if doc["status"] != "trashed":
            return "not_trashed", []
        return "deleted", _purge(conn, [document_id])


def _purge(conn: Connection, document_ids: list[UUID]) -> list[str]:
    ids = [str(d) for d in document_ids]
    shas = [row["sha256"] for row in conn.execute(
        "SELECT sha256 FROM document_versions WHERE document_id = ANY(%s::uuid[])"
        " UNION SELECT sha256 FROM ingest_items WHERE document_id = ANY(%s::uuid[])", (ids, ids)).fetchall()]
    conn.execute("DELETE FROM ingest_chunks WHERE document_id = ANY(%s::uuid[])", (ids,))
    conn.execute("DELETE FROM documents WHERE id = ANY(%s::uuid[])", (ids,))  # cascades: blocks, versions, items
    return originals.delete_unreferenced(conn, shas)


def empty_trash(db: Database, older_than_days: float | None = None) -> tuple[int, list[str]]:
    """Delete every trashed document (or those trashed more than `older_than_days` ago) for good."""
    expired = ("SELECT id FROM documents WHERE status = 'trashed'"
               " AND (%(days)s::float8 IS NULL OR trashed_at < now() - %(days)s::float8 * interval '1 day')")
    with db.transaction() as conn:
        candidates = [row["id"] for row in conn.execute(expired, {"days": older_than_days}).fetchall()]
        if not candidates:
            return 0, []
        lock_documents_blocks(conn, candidates)
        rows = conn.execute(expired + " AND id = ANY(%(ids)s) ORDER BY id FOR UPDATE",
                            {"days": older_than_days, "ids": candidates}).fetchall()
        ids = [row["id"] for row in rows]
        return len(ids), _purge(conn, ids) if ids else []


def list_categories(db: Database) -> list[CategoryRow]:
    return fetch_rows(db, CategoryRow,
        "SELECT category AS name, count(*) AS documents FROM documents"
        " WHERE status <> 'trashed' AND category IS NOT NULL GROUP BY category ORDER BY lower(category)",
    )
