"""SQL for the words OCR read on a document's pages, with their boxes (`page_words`): written by the extract
step, read by the viewer to box a passage on a scanned page. Rows are keyed by the version's bytes, like
blocks, so every version keeps its own and a replayed step writes the same rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol
from uuid import UUID

from psycopg.types.json import Jsonb

from backend.store.db import Database, first_row

# A word as stored: x0, y0, x1, y1 (PDF points, the page as shown), the word, its line on the page.
StoredWord = tuple[float, float, float, float, str, int]


class Word(Protocol):
    """A placed word as the store sees it (`backend.ingest.types.PageWord`; the store does not import ingest)."""

    @property
    def text(self) -> str: ...
    @property
    def x0(self) -> float: ...
    @property
    def y0(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def y1(self) -> float: ...
    @property
    def line(self) -> int: ...


def write_page_words(db: Database, document_id: str, sha256: str, pages: Mapping[int, Sequence[Word]]) -> None:
    """Keep the words of the OCR'd `pages` of the document's version with these bytes (idempotent)."""
    if not pages:
        return
    rows = [(document_id, sha256, page, Jsonb([[w.x0, w.y0, w.x1, w.y1, w.text, w.line] for w in words]))
            for page, words in pages.items()]
    with db.transaction() as conn, conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO page_words (document_id, doc_sha256, page, words) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (document_id, doc_sha256, page) DO UPDATE SET words = excluded.words",
            rows,
        )


def live_page_words(db: Database, document_id: UUID, page: int) -> list[StoredWord] | None:
    """The OCR'd words of the document's current version on `page`; None when OCR did not read that page."""
    row = first_row(db,
        "SELECT w.words FROM page_words w JOIN documents d ON d.id = w.document_id AND d.sha256 = w.doc_sha256"
        " WHERE w.document_id = %s AND w.page = %s",
        (document_id, page),
    )
    if row is None:
        return None
    return [(float(x0), float(y0), float(x1), float(y1), str(text), int(line))
            for x0, y0, x1, y1, text, line in row["words"]]
