"""Word documents: their text and tables, and the readable text of their pictures (OCR'd in the sandbox),
shown as text. Macro-enabled files and templates have the parts of the plain format; macros never run."""

from __future__ import annotations

from pathlib import Path

from backend.ingest import sandbox_reads
from backend.ingest.formats.base import NO_TEXT, OFFICE_MIME, Format
from backend.ingest.formats.checks import office_check
from backend.ingest.sniff import office_signature
from backend.ingest.types import ExtractResult, ProgressCallback


def _read(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    from backend.ingest.extract.docx import extract_docx

    return extract_docx(path, ocr_languages=ocr_languages)


def _nothing_found(_pages: int | None) -> str:
    return (f"{NO_TEXT}: the Word document is empty or holds only pictures without readable text (headers, "
            "footers and comments are not read).")


FORMAT = Format(
    kind="docx", label="a Word document", name="Word", mime=OFFICE_MIME + "wordprocessingml.document", viewer="text",
    extensions=("docx", "docm", "dotx", "dotm"), read=_read, sandboxed=sandbox_reads.pictured("docx"),
    signature=office_signature("docx"), check=office_check("docx"), nothing_found=_nothing_found,
)
