"""Extraction: turn one stored file into `ExtractedUnit`s in reading order, one module per format.

`extract_document` is the single entry point the ingestion workflow calls; it raises
`ExtractionError` for files that cannot be read and reports per-page progress where pages exist.
"""

from __future__ import annotations

from pathlib import Path

from backend.ingest.extract.csv import extract_csv
from backend.ingest.extract.docx import extract_docx
from backend.ingest.extract.html import extract_html
from backend.ingest.extract.markdown import extract_markdown
from backend.ingest.extract.pdf import extract_pdf_pages
from backend.ingest.extract.pptx import extract_pptx
from backend.ingest.extract.text import extract_text
from backend.ingest.extract.xlsx import extract_xlsx
from backend.ingest.types import ExtractResult, ProgressCallback
from backend.store.kinds import DocKind

__all__ = ["extract_document"]


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
    if kind == "xlsx":
        return extract_xlsx(path, on_progress)
    simple = {
        "docx": extract_docx,
        "csv": extract_csv,
        "md": extract_markdown,
        "txt": extract_text,
        "html": extract_html,
    }
    if kind not in simple:
        raise ValueError(f"unknown document kind {kind!r}")
    return simple[kind](path)
