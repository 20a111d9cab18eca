"""Extraction: turn one stored file into `ExtractedUnit`s in reading order, one module per format.

`extract_document` reads a file in this process with its format's reader (backend/ingest/formats/); the
ingestion workflow reads through the sandbox instead (backend/ingest/sandbox.py), which runs the same
readers in child processes. `scan_pictured` is the text pass of the kinds whose pictures are OCR'd, which
the sandbox runs before it reads the pictures in parallel (see pictures.py).
"""

from __future__ import annotations

from pathlib import Path

from backend.ingest.extract.docx import scan_docx
from backend.ingest.extract.pictures import PictureScan
from backend.ingest.extract.pptx import scan_pptx
from backend.ingest.types import ExtractResult, ProgressCallback
from backend.store.kinds import DocKind

__all__ = ["extract_document", "scan_pictured"]


def extract_document(
    path: Path,
    kind: DocKind,
    *,
    ocr_languages: str = "eng+deu",
    on_progress: ProgressCallback | None = None,
) -> ExtractResult:
    """Extract `path`, already validated as `kind`, into units."""
    from backend.ingest.formats import format_of  # the registry imports the readers of this package

    read = format_of(kind).read
    if read is None:
        raise ValueError(f"{kind!r} files are read in pieces by the ingestion workflow, not in one pass")
    return read(path, ocr_languages=ocr_languages, on_progress=on_progress)


def scan_pictured(path: Path, kind: DocKind, on_progress: ProgressCallback | None = None) -> PictureScan:
    """The text pass of a Word document or a deck: its text and the pictures to OCR."""
    if kind == "pptx":
        return scan_pptx(path, on_progress)
    if kind == "docx":
        return scan_docx(path)
    raise ValueError(f"{kind!r} files have no pictures to read")
