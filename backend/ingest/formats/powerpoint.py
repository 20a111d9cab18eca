"""PowerPoint presentations: each slide's text, notes, tables and charts, and the readable text of its
pictures (OCR'd in the sandbox); passages are placed by slide and shown in the slide viewer."""

from __future__ import annotations

from pathlib import Path

from backend.ingest import sandbox_reads
from backend.ingest.extract.pptx import extract_pptx
from backend.ingest.formats.base import NO_TEXT, OFFICE_MIME, Format
from backend.ingest.formats.checks import office_check
from backend.ingest.sniff import office_signature
from backend.ingest.types import ExtractResult, ProgressCallback
from backend.wording import plural


def _read(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    return extract_pptx(path, on_progress, ocr_languages=ocr_languages)


def _nothing_found(slides: int | None) -> str:
    if not slides:
        return f"{NO_TEXT}: the presentation has no slides."
    hold, them = ("holds", "it") if slides == 1 else ("hold", "them")
    return (f"{NO_TEXT}: its {plural(slides, 'slide')} {hold} no text (not in notes, tables or charts), and "
            f"no picture on {them} has readable text.")


FORMAT = Format(
    kind="pptx", label="a PowerPoint presentation", name="PowerPoint", viewer="slides", unit="slide",
    mime=OFFICE_MIME + "presentationml.presentation", extensions=("pptx", "pptm", "ppsx", "ppsm", "potx", "potm"),
    read=_read, sandboxed=sandbox_reads.pictured("pptx"), signature=office_signature("pptx"),
    check=office_check("pptx"), nothing_found=_nothing_found,
)
