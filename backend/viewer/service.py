"""What the viewer shows of a document: its outline (kind, page or slide count, sections), bounded
windows of its extracted blocks (by page or slide, around a cited block, or from a position), PDF page
images and passage boxes. Table blocks come back as cells so sheets render as tables. The PDF itself is
opened only in the viewer's sandbox workers (backend/viewer/page_workers.py), never in this process.
`Viewer` is built once per process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated
from uuid import UUID

from pydantic import Field

from backend.errors import QuireError
from backend.ingest.library import Library
from backend.store import page_words
from backend.store import viewer as store
from backend.store.db import Database
from backend.store.kinds import PageWarningRow
from backend.viewer import page_workers, pdf_pages
from backend.viewer.page_cache import PAGES, PageKey
from backend.viewer.tables import TABLE_KINDS, TableRows, parse_table

MAX_SECTIONS = 1000
MAX_BLOCKS = 200
# Pages and slides carry a handful of blocks each; this only bounds a pathological one.
MAX_BLOCKS_PER_PAGE = 200


# The viewer's records, declared once: the API answers them as they are (backend/api/viewer.py).
Section = store.SectionRow


@dataclass(frozen=True)
class Outline:
    id: str
    filename: str
    kind: str | None
    status: str
    pages: Annotated[int | None, Field(description="PDF pages, slides or a workbook's sheets; null for formats "
                                                   "without them")]
    language: Annotated[str | None, Field(description="The language it was read in, where the reading decided one "
                                                      "(a recording's speech: en, de)")]
    blocks: int
    sections: list[Section]
    page_warnings: Annotated[list[PageWarningRow], Field(description="Pages that could not be read reliably: shown "
                                                                     "as images, their text left out")]


class ViewerBlock(store.BlockRow):
    """A live block as the viewer shows it: its row, and a table block's cells."""

    table: Annotated[TableRows | None, Field(description="Cells of a table block (sheet, CSV or DOCX table rows)")]


@dataclass(frozen=True)
class BlockWindow:
    blocks: list[ViewerBlock]
    total: int
    target: Annotated[str | None, Field(description="The block asked for with `around`, when it is live")]
    has_before: bool
    has_after: bool
    notice: str | None = None


def _block(row: store.BlockRow) -> ViewerBlock:
    table = parse_table(row["text"]) if row["kind"] in TABLE_KINDS else None
    return {**row, "table": table}


class Viewer:
    """The viewer's reads over the database and the library (documents and their originals)."""

    def __init__(self, db: Database, library: Library) -> None:
        self.db = db
        self.library = library

    def original_path(self, document_id: UUID) -> Path:
        """The local path of the document's original file (the one place the viewer asks where it lives)."""
        return self.library.original_file(document_id).path

    def outline(self, document_id: UUID) -> Outline:
        document = self.library.get_document(document_id)
        sections = store.section_starts(self.db, document_id, MAX_SECTIONS)
        return Outline(id=document["id"], filename=document["filename"], kind=document["kind"],
                       status=document["status"], pages=document["pages"], language=document["language"],
                       blocks=document["blocks"], sections=sections, page_warnings=document["page_warnings"])

    def _window(self, document_id: UUID, rows: list[store.BlockRow], target: str | None,
                notice: str | None = None) -> BlockWindow:
        bounds = store.live_ordinal_bounds(self.db, document_id)
        total = store.count_live_blocks(self.db, document_id)
        has_before = bool(rows and bounds and rows[0]["ordinal"] > bounds[0])
        has_after = bool(rows and bounds and rows[-1]["ordinal"] < bounds[1])
        return BlockWindow(blocks=[_block(row) for row in rows], total=total, target=target,
                           has_before=has_before, has_after=has_after, notice=notice)

    def blocks_on_page(self, document_id: UUID, page: int) -> BlockWindow:
        self.library.get_document(document_id)
        rows = store.blocks_on_page(self.db, document_id, page, MAX_BLOCKS_PER_PAGE)
        return self._window(document_id, rows, None)

    def blocks_from(self, document_id: UUID, start: int, limit: int) -> BlockWindow:
        self.library.get_document(document_id)
        rows = store.blocks_from(self.db, document_id, start, min(limit, MAX_BLOCKS))
        return self._window(document_id, rows, None)

    def blocks_around(self, document_id: UUID, block_id: UUID, limit: int) -> BlockWindow:
        """A window of `limit` blocks with the cited block about a third of the way in (context above it)."""
        self.library.get_document(document_id)
        limit = min(limit, MAX_BLOCKS)
        place = store.block_place(self.db, document_id, block_id)
        if place is None:
            raise QuireError("block_not_found", "That passage is not part of this document.", 404)
        if not place["is_live"]:
            # The document was replaced by a newer version since the passage was cited: open where it was.
            rows = (store.blocks_on_page(self.db, document_id, place["page"], MAX_BLOCKS_PER_PAGE)
                    if place["page"] is not None else [])
            rows = rows or store.blocks_from(self.db, document_id, 0, limit)
            return self._window(document_id, rows, None,
                           "This passage comes from an earlier version of the document; it has changed since.")
        start = store.ordinal_before(self.db, document_id, place["ordinal"], limit // 3)
        rows = store.blocks_from(self.db, document_id, start, limit)
        return self._window(document_id, rows, str(block_id))

    def _require_page(self, document_id: UUID, page: int) -> tuple[Path, str, pdf_pages.PagedType]:
        """The original's path, SHA-256 and MuPDF file type, once the document is known to be a PDF or a
        picture with this page."""
        document = self.library.get_document(document_id)
        kind = document["kind"]
        if kind not in ("pdf", "image"):
            raise QuireError("not_a_pdf", "Only PDF documents and pictures have page images; use the blocks instead.",
                             409)
        pages = document["pages"]
        if pages is not None and page > pages:
            noun = "This PDF has" if kind == "pdf" else "This picture has"
            raise QuireError("page_out_of_range", f"{noun} pages 1 to {pages}.", 404, {"pages": pages})
        return self.original_path(document_id), str(document["sha256"]), kind

    def page_png(self, document_id: UUID, page: int, scale: float) -> bytes:
        """The page drawn in a viewer worker, or from this process's cache; a page that broke the worker's
        limits lately is refused again without drawing it."""
        path, sha256, filetype = self._require_page(document_id, page)
        key = PageKey(sha256, page, round(scale, 4))
        if (png := PAGES.png(key)) is not None:
            return png
        if (reason := PAGES.refusal(sha256, page)) is not None:
            raise page_workers.PageTooComplex(page, reason)
        try:
            png = page_workers.run_page_job(pdf_pages.render_job, str(path), page, scale, filetype)
        except page_workers.PageTooComplex as exc:
            PAGES.keep_refusal(sha256, page, exc.details["reason"])
            raise
        PAGES.keep_png(key, png)
        return bytes(png)

    def page_highlights(self, document_id: UUID, page: int, *, block: UUID | None,
                        text: str | None) -> pdf_pages.PageHighlights:
        """Where the passage (block `block`'s text, else `text`) sits on the page."""
        if block is not None:
            text = store.block_text(self.db, document_id, block)
            if text is None:
                raise QuireError("block_not_found", "That passage is not part of this document.", 404)
        if not text or not text.strip():
            raise QuireError("missing_passage", "Say which passage to find: `block` or `q`.", 422)
        path, _, filetype = self._require_page(document_id, page)
        ocr_words = page_words.live_page_words(self.db, document_id, page)
        found: pdf_pages.PageHighlights = page_workers.run_page_job(pdf_pages.passage_job, str(path), page, text,
                                                                     filetype, ocr_words)
        return found

    def page_word_highlights(self, document_id: UUID, page: int, words: list[str]) -> pdf_pages.PageHighlights:
        """Where each of a search's words stands on the page."""
        path, _, filetype = self._require_page(document_id, page)
        ocr_words = page_words.live_page_words(self.db, document_id, page)
        found: pdf_pages.PageHighlights = page_workers.run_page_job(pdf_pages.words_job, str(path), page, words,
                                                                     filetype, ocr_words)
        return found

    def document_sha(self, document_id: UUID) -> str:
        return str(self.library.get_document(document_id)["sha256"])
