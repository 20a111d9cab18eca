"""Pictures on their own (a photo or scan of pages: PNG, JPEG, TIFF, GIF, BMP): each frame a page read by
OCR in the sandbox, shown like a PDF's pages with the recognised passage beside it."""

from __future__ import annotations

from pathlib import Path

from backend.ingest import sandbox_reads
from backend.ingest.extract.image import check_image
from backend.ingest.formats import checks
from backend.ingest.formats.base import Format
from backend.ingest.sniff import image_signature
from backend.ingest.types import ExtractionError, ExtractResult, ProgressCallback, RejectedFile


def _check(path: Path, extension: str, signed: bool) -> None:
    """Read the picture's header: one Quire cannot read, or too large to decode safely, is refused now."""
    if not signed:
        raise checks.mismatch(extension)
    try:
        check_image(path)
    except ExtractionError as exc:
        raise RejectedFile(exc.code, exc.message, 413 if exc.code == "image_too_large" else 422) from exc


def _read(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    raise ValueError("a picture is read through the sandbox (sandbox_reads.image)")


FORMAT = Format(
    kind="image", label="a picture", name="pictures (PNG, JPEG, TIFF, GIF, BMP)",
    mime="application/octet-stream", viewer="pdf",
    extensions=("png", "jpg", "jpeg", "jpe", "jfif", "tif", "tiff", "gif", "bmp"), read=_read,
    sandboxed=sandbox_reads.image, signature=image_signature, check=_check,
)
