"""Extraction: turn one stored file into `ExtractedUnit`s in reading order, one module per format.

`extract_document` is the single entry point the ingestion workflow calls; it raises
`ExtractionError` for files that cannot be read and reports per-page progress where pages exist.
`scan_pictured` is the text pass of the kinds whose pictures are OCR'd (PICTURED_KINDS), which the
sandbox runs before it reads the pictures in parallel (see pictures.py).
"""

from __future__ import annotations

from pathlib import Path

from backend.ingest.extract.csv import extract_csv
from backend.ingest.extract.docx import extract_docx, scan_docx
from backend.ingest.extract.html import extract_html
from backend.ingest.extract.markdown import extract_markdown
from backend.ingest.extract.pdf import extract_pdf_pages
from backend.ingest.extract.pictures import PictureScan
from backend.ingest.extract.pptx import extract_pptx, scan_pptx
from backend.ingest.extract.text import extract_text
from backend.ingest.extract.xlsx import extract_xlsx
from backend.ingest.types import ExtractResult, ProgressCallback
from backend.store.kinds import DocKind

__all__ = ["PICTURED_KINDS", "extract_document", "scan_pictured"]

PICTURED_KINDS: tuple[DocKind, ...] = ("pptx", "docx")


def extract_document(
    path: Path,
    kind: DocKind,
    *,
    ocr_languages: str = "eng+deu",
    on_progress: ProgressCallback | None = None,
) -> ExtractResult:
    """Extract `path`, already validated as `kind`, into units."""
    if kind == "pdf":
        return extract_pdf_pages(path, ocr_languages=ocr_languages, on_progress=on_progress)
    if kind == "pptx":
        return extract_pptx(path, on_progress, ocr_languages=ocr_languages)
    if kind == "docx":
        return extract_docx(path, ocr_languages=ocr_languages)
    if kind == "xlsx":
        return extract_xlsx(path, on_progress)
    simple = {
        "csv": extract_csv,
        "md": extract_markdown,
        "txt": extract_text,
        "html": extract_html,
    }
    if kind not in simple:
        raise ValueError(f"unknown document kind {kind!r}")
    return simple[kind](path)


def scan_pictured(path: Path, kind: DocKind, on_progress: ProgressCallback | None = None) -> PictureScan:
    """The text pass of a file of PICTURED_KINDS: its text and the pictures to OCR."""
    if kind == "pptx":
        return scan_pptx(path, on_progress)
    if kind == "docx":
        return scan_docx(path)
    raise ValueError(f"{kind!r} files have no pictures to read")
