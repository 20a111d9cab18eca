"""Value types shared by the extractors, the chunker and the ingestion workflow.

Extractors turn a file into `ExtractedUnit`s (a page, a slide, a section, a group of table rows);
the chunker turns units into `Chunk`s of roughly `chunk_size` characters, which become `blocks`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from backend.errors import ErrorCode
from backend.sandbox import JobError

BlockKind = Literal["text", "table", "slide", "ocr", "csv", "sheet", "html"]


@dataclass(frozen=True)
class ExtractedUnit:
    """One coherent piece of a document, in reading order.

    `page` is 1-based (PDF page, slide number, ...) or None where pages mean nothing; `page_label` is
    the page's printed label where the file defines one (PDF page labels such as ``iv`` or ``12``).
    `section` is a breadcrumb such as ``"Intro > Setup"`` or ``"Sheet: Budget"``.
    `atomic` units (a group of table rows with its header) are never merged with their neighbours.
    `header_lines` is how many leading lines of an atomic unit (``[Sheet: x]``, the header row) are
    repeated in every piece when the chunker must split it.
    """

    text: str
    kind: BlockKind = "text"
    page: int | None = None
    section: str | None = None
    atomic: bool = False
    header_lines: int = 1
    page_label: str | None = None


@dataclass(frozen=True)
class PageWarning:
    """A page (or slide) that could not be read reliably: kept as a warning on its place, never passed off
    as text; the upload card, the library and the viewer show it with a link to the page image."""

    page: int
    message: str


@dataclass(frozen=True, slots=True)
class PageWord:
    """A word OCR read on a page and its box in PDF points, on the page as it is shown (its /Rotate
    applied); `line` numbers the page's lines in reading order. The viewer boxes passages with them."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    line: int


@dataclass(frozen=True)
class ExtractResult:
    units: list[ExtractedUnit]
    pages: int | None = None
    warnings: list[str] = field(default_factory=list)
    ocr_pages: int = 0
    page_warnings: list[PageWarning] = field(default_factory=list)
    page_words: dict[int, list[PageWord]] = field(default_factory=dict)  # OCR'd pages' words, by page


@dataclass(frozen=True)
class Chunk:
    ordinal: int
    text: str
    kind: BlockKind
    page: int | None = None
    section: str | None = None
    page_label: str | None = None


@dataclass(frozen=True)
class ExtractProgress:
    """Fine-grained extraction progress, e.g. done=3, total=21, detail="page 3 of 21 (OCR)"."""

    done: int
    total: int
    detail: str


ProgressCallback = Callable[[ExtractProgress], None]


class ExtractionError(JobError):
    """A file that cannot be extracted; `message` is shown to the user as the document's error (raised in
    a sandbox worker, it reaches the server as it was raised)."""

    code: ErrorCode

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(code, message)


class RejectedFile(Exception):
    """A file refused at upload time (type, size, name, content); maps to an HTTP 4xx."""

    def __init__(self, code: ErrorCode, message: str, status: int = 415) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
