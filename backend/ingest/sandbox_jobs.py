"""The jobs a worker of the extraction sandbox runs (backend/ingest/sandbox.py hands them to the pool).

Each job is a module-level function (the pool sends it to the worker by reference) taking plain,
picklable arguments (paths as strings) and, last, a progress callback that sends `ExtractProgress` to the
server; it returns a picklable result or raises `ExtractionError`, which reaches the server as raised.
The readers are imported inside the jobs: the server imports this module through the sandbox, and only
the workers (whose forkserver preloads the readers) need PyMuPDF, python-pptx, Pillow and friends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from backend.ingest.extract.common import too_large
from backend.ingest.types import ExtractedUnit, ExtractResult, ProgressCallback
from backend.store.kinds import DocKind


def check_size(units: list[ExtractedUnit], max_chars: int) -> None:
    """Refuse text beyond `max_chars`: each block costs memory in every server's index and an embedding."""
    if sum(len(unit.text) for unit in units) > max_chars:
        raise too_large(f"it holds more than {max_chars:,} characters of text")


def document(path: str, kind: DocKind, languages: str, max_chars: int, report: ProgressCallback) -> ExtractResult:
    """A whole file of any kind but PDF and those with pictures to OCR (PPTX, DOCX), in one job."""
    from backend.ingest.extract import extract_document

    result = extract_document(Path(path), kind, ocr_languages=languages, on_progress=report)
    check_size(result.units, max_chars)
    return result


def pdf_scan(path: str, max_chars: int, report: ProgressCallback) -> Any:
    """A PDF's text pass: every page's text and which pages need OCR."""
    from backend.ingest.extract.pdf import scan_pdf

    scan = scan_pdf(Path(path), report)
    check_size(scan.units, max_chars)
    return scan


def image_pdf(path: str, out: str, _report: ProgressCallback) -> None:
    """A picture uploaded on its own, written to `out` as a PDF of its frames (then read as a PDF)."""
    from backend.ingest.extract.image import image_as_pdf

    Path(out).write_bytes(image_as_pdf(Path(path)))


def ocr_pages(path: str, numbers: list[int], languages: str, max_pixels: int, _report: ProgressCallback) -> Any:
    """Some pages of a PDF, rendered and OCR'd (in one tesseract run), by page number."""
    from backend.ingest.extract.pdf import ocr_pdf_pages

    return dict(zip(numbers, ocr_pdf_pages(Path(path), numbers, languages, max_pixels), strict=True))


def picture_scan(path: str, kind: DocKind, max_chars: int, report: ProgressCallback) -> Any:
    """A deck's or Word document's text pass: its text and which pictures are worth OCR'ing."""
    from backend.ingest.extract import scan_pictured

    scan = scan_pictured(Path(path), kind, report)
    check_size([ExtractedUnit(text) for text in scan.texts()], max_chars)
    return scan


def ocr_pictures(path: str, members: list[str], languages: str, max_pixels: int, _report: ProgressCallback) -> Any:
    """Some pictures of a deck or Word document (their zip members), decoded and OCR'd, by member."""
    from backend.ingest.extract.pictures import ocr_members

    return ocr_members(Path(path), members, languages, max_pixels)
