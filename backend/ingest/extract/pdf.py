"""PDF files: text page by page with PyMuPDF, OCR (tesseract) for pages that carry no text layer.

PyMuPDF over pypdf: on a generated 200-page text PDF (~3,200 characters a page) PyMuPDF read about
550-600 pages/s and pypdf about 60 pages/s on the same 2 cores. Each page becomes one unit (kind
``text``, or ``ocr`` when recognised from an image) whose text keeps the page's blocks as paragraphs.
Pages with fewer than OCR_MIN_CHARS characters that show an image are rendered and OCR'd.
A page's section is the bookmark (outline) path in force on it, when the PDF has bookmarks.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
import pytesseract
from PIL import Image

from backend.ingest.types import (
    BlockKind,
    ExtractedUnit,
    ExtractionError,
    ExtractProgress,
    ExtractResult,
    ProgressCallback,
)

# Damaged uploads are expected; MuPDF's own stderr chatter about them would only be noise in the log.
pymupdf.TOOLS.mupdf_display_errors(False)

OCR_MIN_CHARS = 50
# A near-empty page drawn with at least this many vector paths may be text exported as outlines (a
# line of text is dozens of glyph paths; a rule or a frame is a handful).
OUTLINE_MIN_PATHS = 20
OCR_DPI = 144
OCR_TIMEOUT_S = 120  # per page; a pathological image must not stall the whole ingestion queue
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_DEHYPHENATE
# MuPDF reports damaged objects as its own error classes; PyMuPDF wraps some in RuntimeError.
_MUPDF_ERRORS = (pymupdf.mupdf.FzErrorBase, RuntimeError)

ENCRYPTED_MESSAGE = "This PDF is password-protected; remove the password and upload it again."
CORRUPT_MESSAGE = "This PDF is damaged and could not be opened; try saving or exporting it again."


def open_pdf(path: Path) -> pymupdf.Document:
    """Open a PDF for reading, or raise `pdf_encrypted` / `pdf_corrupt` as an ExtractionError."""
    try:
        document = pymupdf.open(path, filetype="pdf")
    except (pymupdf.FileDataError, pymupdf.EmptyFileError, *_MUPDF_ERRORS) as exc:
        raise ExtractionError("pdf_corrupt", CORRUPT_MESSAGE) from exc
    # `needs_pass`, not `is_encrypted`: a PDF with only an owner password opens and reads normally.
    if document.needs_pass:
        document.close()
        raise ExtractionError("pdf_encrypted", ENCRYPTED_MESSAGE)
    if document.page_count == 0:
        document.close()
        raise ExtractionError("pdf_corrupt", CORRUPT_MESSAGE)
    return document


@dataclass
class _Ocr:
    """OCR for one document: checks tesseract once, counts the pages it had to skip."""

    languages: str
    skipped: int = 0
    failed: list[int] = field(default_factory=list)
    _missing: str | None = field(default=None, init=False)
    _checked: bool = field(default=False, init=False)

    def read(self, page: pymupdf.Page) -> str | None:
        """The recognised text, or None when OCR cannot run (the page is then counted as skipped)."""
        if not self._ready():
            self.skipped += 1
            return None
        pixmap = page.get_pixmap(dpi=OCR_DPI, colorspace=pymupdf.csGRAY)
        image = Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
        try:
            text = pytesseract.image_to_string(image, lang=self.languages, timeout=OCR_TIMEOUT_S)
        except (pytesseract.TesseractError, RuntimeError):
            # RuntimeError: pytesseract's timeout; one unreadable page must not sink the document.
            self.failed.append(page.number + 1)
            return None
        return text

    def _ready(self) -> bool:
        if not self._checked:
            self._checked = True
            self._missing = _missing_ocr(self.languages)
        return self._missing is None

    def warnings(self) -> list[str]:
        found = []
        if self.skipped:
            found.append(
                f"{self.skipped} page(s) without a text layer were skipped: {self._missing}. "
                "Install it and re-ingest the document to read them."
            )
        if self.failed:
            pages = ", ".join(str(number) for number in self.failed)
            found.append(f"OCR failed on page(s) {pages}; their text is missing.")
        return found


def _missing_ocr(languages: str) -> str | None:
    """What OCR lacks (tesseract itself or language packs), or None when it can run."""
    if shutil.which("tesseract") is None:
        return "OCR needs tesseract, which is not installed"
    try:
        installed = set(pytesseract.get_languages(config=""))
    except (pytesseract.TesseractError, pytesseract.TesseractNotFoundError, OSError):
        return "OCR needs tesseract, which could not be started"
    missing = [language for language in languages.split("+") if language and language not in installed]
    if missing:
        return "OCR needs the tesseract language pack(s) " + ", ".join(missing)
    return None


def extract_pdf_pages(
    path: Path, *, ocr_languages: str = "eng+deu", on_progress: ProgressCallback | None = None
) -> ExtractResult:
    """One unit per page with text (1-based pages), OCR for pages under OCR_MIN_CHARS characters."""
    document = open_pdf(path)
    try:
        return _extract_pages(document, ocr_languages, on_progress)
    finally:
        document.close()


def _extract_pages(
    document: pymupdf.Document, ocr_languages: str, on_progress: ProgressCallback | None
) -> ExtractResult:
    total = document.page_count
    sections = _bookmark_sections(document)
    ocr = _Ocr(ocr_languages)
    units: list[ExtractedUnit] = []
    unreadable: list[int] = []
    for number in range(1, total + 1):
        try:
            text, kind = _read_page(document.load_page(number - 1), ocr)
        except _MUPDF_ERRORS:
            text, kind = "", "text"
            unreadable.append(number)
        if text:
            units.append(ExtractedUnit(text=text, kind=kind, page=number, section=sections.get(number),
                                       page_label=page_label(document, number)))
        if on_progress is not None:
            detail = f"page {number} of {total}" + (" (OCR)" if kind == "ocr" else "")
            on_progress(ExtractProgress(done=number, total=total, detail=detail))
    warnings = ocr.warnings()
    if unreadable:
        warnings.append(f"Page(s) {', '.join(map(str, unreadable))} are damaged and were skipped.")
    ocr_pages = sum(unit.kind == "ocr" for unit in units)
    return ExtractResult(units=units, pages=total, warnings=warnings, ocr_pages=ocr_pages)


def _read_page(page: pymupdf.Page, ocr: _Ocr) -> tuple[str, BlockKind]:
    """The page's text and its kind: ``ocr`` when it had to be recognised from the rendered page.

    Only pages that show something beyond their text layer are OCR'd: an image (a scan), or many vector
    paths (text exported as outlines). Rendering a page without either reveals nothing the text layer
    lacks, and title or blank pages would each cost a second of tesseract.
    """
    text = page_text(page)
    chars = _visible_chars(text)
    if chars >= OCR_MIN_CHARS or not (page.get_image_info() or len(page.get_cdrawings()) >= OUTLINE_MIN_PATHS):
        return text, "text"
    recognised = ocr.read(page)
    if recognised is None or _visible_chars(recognised) <= chars:
        return text, "text"
    return recognised.strip(), "ocr"


def page_label(document: pymupdf.Document, number: int) -> str | None:
    """The printed label of 1-based page `number` ("iv", "12", "A-3"), or None when the PDF defines none."""
    try:
        label = document[number - 1].get_label()
    except _MUPDF_ERRORS:
        return None
    return label.strip() or None


def _visible_chars(text: str) -> int:
    return sum(not char.isspace() for char in text)


def page_text(page: pymupdf.Page) -> str:
    """The page's text blocks in content order, separated by blank lines (paragraph breaks)."""
    blocks = page.get_text("blocks", flags=_TEXT_FLAGS)
    return "\n\n".join(block[4].strip() for block in blocks if block[6] == 0 and block[4].strip())


def _bookmark_sections(document: pymupdf.Document) -> dict[int, str]:
    """For each page, the bookmark path (``Part I > Chapter 2``) of the last bookmark at or before it.

    A page on which a section starts mid-way is labelled with the new section: bookmarks carry no
    position finer than the page without layout analysis.
    """
    toc = document.get_toc(simple=True)
    if not toc:
        return {}
    starts: dict[int, str] = {}
    path: list[tuple[int, str]] = []
    for level, title, page in toc:
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, " ".join(str(title).split())))
        if page >= 1:
            starts[page] = " > ".join(name for _, name in path)
    sections: dict[int, str] = {}
    current: str | None = None
    for number in range(1, document.page_count + 1):
        current = starts.get(number, current)
        if current is not None:
            sections[number] = current
    return sections
