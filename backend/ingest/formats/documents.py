"""The document formats: PDF, Word, PowerPoint, Excel, CSV, Markdown, plain text, web pages and pictures.

One declaration each (backend/ingest/formats/base.py says what the fields mean). The readers themselves
live in backend/ingest/extract/ (one module per format); the jobs that run them in the sandbox in
backend/ingest/sandbox_reads.py. A new format is one more module beside this one (recording.py is the
worked example: docs/notes/formats.md).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from backend.ingest import sandbox_reads as reads
from backend.ingest.extract.csv import extract_csv
from backend.ingest.extract.html import extract_html
from backend.ingest.extract.image import check_image
from backend.ingest.extract.markdown import extract_markdown
from backend.ingest.extract.pdf import extract_pdf_pages, open_pdf
from backend.ingest.extract.pptx import extract_pptx
from backend.ingest.extract.text import extract_text
from backend.ingest.extract.xlsx import extract_xlsx
from backend.ingest.formats import checks
from backend.ingest.formats.base import Check, Format, Reader
from backend.ingest.sniff import image_signature, office_signature, pdf_header_at_start
from backend.ingest.types import ExtractionError, ExtractResult, ProgressCallback, RejectedFile
from backend.wording import plural

_OFFICE = "application/vnd.openxmlformats-officedocument."
_MESSAGE = "No text could be found in this file"


def _plain(extract: Callable[[Path], ExtractResult]) -> Reader:
    """A reader that needs neither OCR languages nor progress (one pass over a small text file)."""

    def read(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
        return extract(path)

    return read


def _check_pdf(path: Path, extension: str, signed: bool) -> None:
    """Open the PDF once: an encrypted or unreadable one is refused now, not later in the workflow."""
    if not signed:
        raise checks.mismatch(extension)
    try:
        open_pdf(path).close()
    except ExtractionError as exc:
        raise RejectedFile(exc.code, exc.message, 422) from exc


def _check_image(path: Path, extension: str, signed: bool) -> None:
    """Read the picture's header: one Quire cannot read, or too large to decode safely, is refused now."""
    if not signed:
        raise checks.mismatch(extension)
    try:
        check_image(path)
    except ExtractionError as exc:
        raise RejectedFile(exc.code, exc.message, 413 if exc.code == "image_too_large" else 422) from exc


def _slides_empty(pages: int | None) -> str:
    if not pages:
        return f"{_MESSAGE}: the presentation has no slides."
    hold, them = ("holds", "it") if pages == 1 else ("hold", "them")
    return (f"{_MESSAGE}: its {plural(pages, 'slide')} {hold} no text (not in notes, tables or charts), and "
            f"no picture on {them} has readable text.")


def _read_pdf(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    return extract_pdf_pages(path, ocr_languages=ocr_languages, on_progress=on_progress)


def _read_pptx(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    return extract_pptx(path, on_progress, ocr_languages=ocr_languages)


def _read_docx(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    from backend.ingest.extract.docx import extract_docx

    return extract_docx(path, ocr_languages=ocr_languages)


def _read_xlsx(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    return extract_xlsx(path, on_progress)


def _read_image(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    raise ValueError("a picture is read through the sandbox (sandbox_reads.image)")


def _text(html: bool = False) -> Check:
    def check(path: Path, extension: str, _signed: bool) -> None:
        checks.check_text(path, extension, html=html)

    return check


def _office(kind: str) -> Check:
    def check(path: Path, extension: str, signed: bool) -> None:
        if not signed:  # when it is, the signature has already opened the package and found its main part
            checks.check_office(path, kind, extension)

    return check


PDF = Format(
    kind="pdf", label="a PDF", name="PDF", extensions=("pdf",), mime="application/pdf", viewer="pdf", inline=True,
    read=_read_pdf, sandboxed=reads.pdf, signature=lambda head, _path: pdf_header_at_start(head), check=_check_pdf,
)
WORD = Format(
    kind="docx", label="a Word document", name="Word", mime=_OFFICE + "wordprocessingml.document", viewer="text",
    # Macro-enabled files and templates have the parts of the plain format (their macros are never run).
    extensions=("docx", "docm", "dotx", "dotm"), read=_read_docx, sandboxed=reads.pictured("docx"),
    signature=office_signature("docx"), check=_office("docx"),
    nothing_found=lambda _pages: (f"{_MESSAGE}: the Word document is empty or holds only pictures without "
                                  "readable text (headers, footers and comments are not read)."),
)
SLIDES = Format(
    kind="pptx", label="a PowerPoint presentation", name="PowerPoint", viewer="slides", unit="slide",
    mime=_OFFICE + "presentationml.presentation", extensions=("pptx", "pptm", "ppsx", "ppsm", "potx", "potm"),
    read=_read_pptx, sandboxed=reads.pictured("pptx"), signature=office_signature("pptx"), check=_office("pptx"),
    nothing_found=_slides_empty,
)
WORKBOOK = Format(
    kind="xlsx", label="an Excel workbook", name="Excel", viewer="sheet", unit="sheet",
    mime=_OFFICE + "spreadsheetml.sheet", extensions=("xlsx", "xlsm", "xltx", "xltm"), read=_read_xlsx,
    signature=office_signature("xlsx"), check=_office("xlsx"),
    nothing_found=lambda pages: (f"{_MESSAGE}: the workbook's {plural(pages or 0, 'sheet')} "
                                 f"{'is' if pages == 1 else 'are'} empty."),
)
CSV = Format(kind="csv", label="a CSV table", name="CSV", extensions=("csv", "tsv"), mime="text/csv",
             viewer="sheet", read=_plain(extract_csv), check=_text())
MARKDOWN = Format(kind="md", label="Markdown", name="Markdown", extensions=("md", "markdown"), mime="text/markdown",
                  viewer="text", read=_plain(extract_markdown), check=_text())
TEXT = Format(kind="txt", label="plain text", name="text", extensions=("txt", "text"), mime="text/plain",
              viewer="text", read=_plain(extract_text), check=_text())
WEB_PAGE = Format(
    kind="html", label="a web page", name="HTML", extensions=("html", "htm"), mime="text/html", viewer="text",
    read=_plain(extract_html), check=_text(html=True),
    nothing_found=lambda _pages: (f"{_MESSAGE}: the web page shows no text (its title, scripts and styles "
                                  "are not read)."),
)
PICTURE = Format(
    kind="image", label="a picture", name="pictures (PNG, JPEG, TIFF, GIF, BMP)",
    mime="application/octet-stream", viewer="pdf",
    extensions=("png", "jpg", "jpeg", "jpe", "jfif", "tif", "tiff", "gif", "bmp"), read=_read_image,
    sandboxed=reads.image, signature=image_signature, check=_check_image,
)
FORMATS = (PDF, WORD, SLIDES, WORKBOOK, CSV, MARKDOWN, TEXT, WEB_PAGE, PICTURE)
