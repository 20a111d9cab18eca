"""PDF: read page by page (its text layer, then OCR for the scanned pages, in parallel in the sandbox) and
shown in the page viewer with the cited passage boxed; the original opens in the browser."""

from __future__ import annotations

from pathlib import Path

from backend.ingest import sandbox_reads
from backend.ingest.extract.pdf import extract_pdf_pages, open_pdf
from backend.ingest.formats import checks
from backend.ingest.formats.base import Format
from backend.ingest.sniff import pdf_header_at_start
from backend.ingest.types import ExtractionError, ExtractResult, ProgressCallback, RejectedFile


def _check(path: Path, extension: str, signed: bool) -> None:
    """Open the PDF once: an encrypted or unreadable one is refused now, not later in the workflow."""
    if not signed:
        raise checks.mismatch(extension)
    try:
        open_pdf(path).close()
    except ExtractionError as exc:
        raise RejectedFile(exc.code, exc.message, 422) from exc


def _read(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    return extract_pdf_pages(path, ocr_languages=ocr_languages, on_progress=on_progress)


FORMAT = Format(
    kind="pdf", label="a PDF", name="PDF", extensions=("pdf",), mime="application/pdf", viewer="pdf", inline=True,
    read=_read, sandboxed=sandbox_reads.pdf, signature=lambda head, _path: pdf_header_at_start(head), check=_check,
)
