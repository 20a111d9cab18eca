"""SQL for notes: documents written in Quire, marked as such (their originals, versions and blocks are
those of any Markdown document)."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from backend.store.db import Database, fetch_row


class NoteRow(TypedDict):
    id: str
    filename: str
    category: str | None
    source_kind: Literal["document", "note"]
    status: str
    current_version: int | None


def mark_note(db: Database, document_id: str) -> None:
    with db.connection() as conn:
        conn.execute("UPDATE documents SET source_kind = 'note' WHERE id = %s", (document_id,))


def get(db: Database, document_id: str) -> NoteRow | None:
    """The document (a note or not: the caller tells them apart), unless it is in the trash."""
    return fetch_row(db, NoteRow,
        "SELECT id::text AS id, filename, category, source_kind, status, current_version FROM documents"
        " WHERE id = %s AND status <> 'trashed'",
        (document_id,),
    )
