"""Pictures uploaded on their own — a phone photo of a handout, a page scanned to PNG, JPEG or TIFF — are
read as the pages of a PDF made from them: each frame is a page (MuPDF's image documents turn a photo
upright by its EXIF orientation), and the PDF path OCRs those pages as it does a scanned PDF's, in
parallel, with its rotation and skew handling. The original is kept as uploaded; the PDF exists only
while the file is read.

Pillow checks the header first (at upload and again in the sandbox): a file that is not a picture Quire
reads, or one too large to decode safely, is refused with a message saying so.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
from PIL import Image

from backend.ingest.extract.pdf_notes import MUPDF_ERRORS
from backend.ingest.extract.pictures import PILLOW_ERRORS, READABLE_FORMATS
from backend.ingest.types import ExtractionError

# Per frame. Phone cameras take 12–50 megapixels; Pillow itself warns from about 89.
MAX_PIXELS = 80_000_000
UNREADABLE_MESSAGE = ("This picture could not be read; it may be damaged or in a variant Quire does not read. "
                      "Open it and save it again as PNG or JPEG, then upload that.")


def check_image(path: Path) -> None:
    """ExtractionError if the picture's header cannot be read or its size is over MAX_PIXELS. Only the
    header: it also runs in the server's own process, at upload (frames are counted by MuPDF, sandboxed)."""
    try:
        with Image.open(path, formats=READABLE_FORMATS) as image:
            width, height = image.size
    except Image.DecompressionBombError:
        raise _too_large(None) from None
    except PILLOW_ERRORS as exc:
        raise ExtractionError("image_unreadable", UNREADABLE_MESSAGE) from exc
    if width * height > MAX_PIXELS:
        raise _too_large((width, height))


def image_as_pdf(path: Path) -> bytes:
    """The picture as a PDF of one page per frame, each page upright and the size of its frame."""
    check_image(path)
    try:
        with pymupdf.open(path, filetype="image") as pictures:
            if not pictures.page_count:
                raise ExtractionError("image_unreadable", UNREADABLE_MESSAGE)
            pdf: bytes = pictures.convert_to_pdf()
            return pdf
    except (pymupdf.FileDataError, *MUPDF_ERRORS) as exc:
        raise ExtractionError("image_unreadable", UNREADABLE_MESSAGE) from exc


def _too_large(size: tuple[int, int] | None) -> ExtractionError:
    stated = f" ({size[0]:,} x {size[1]:,} pixels)" if size else ""
    return ExtractionError("image_too_large", f"This picture is too large to read safely{stated}: Quire reads "
                                              f"up to {MAX_PIXELS // 1_000_000} megapixels. Scale it down and upload "
                                              "it again.")
