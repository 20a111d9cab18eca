"""OCR of pictures inside Office files (a screenshot or a scanned page on a slide or in a Word handout, a
labelled diagram, a photo of the board).

Decks (pptx.py) and Word documents (docx.py) are read in two passes, like a PDF: a text pass (a
`PictureScan`) lists the pictures worth OCR'ing by their zip member, they are then OCR'd a few at a time
(`ocr_members`: the sandbox reads them in parallel, once each however often the file shows them), and the
scan's `assemble` puts each picture's text where the picture sits, as a paragraph under PICTURE_LABEL.

Which pictures are read (measured on the corpus decks, docs/formats.md, "Text in pictures"):
- **Shown large enough** (slides only: python-docx's API does not tie a Word picture to its shown size).
  A picture covering less than MIN_PICTURE_SHARE of the slide is a logo or an icon: the corpus lecture
  deck's university and licence badges cover 0.7% and 0.9% of their slides and OCR'd to "UMSI", while a
  figure or screenshot meant to be read covers far more.
- **Enough pixels.** Fewer than MIN_PICTURE_PIXELS (e.g. 100 x 100) hold a word or two at most.
- **A format Pillow decodes for tesseract**: READABLE_FORMATS. Vector pictures (EMF, WMF, SVG) are not
  read; rasterising them would need another renderer.
- **Within the pixel cap** of a PDF page (`Limits.max_page_pixels`, 25 megapixels), checked from the image's
  header before it is decoded; a larger picture is skipped with a warning.

Reading follows a PDF page's OCR (ocr.py): transparency flattened onto white, grey, lighting evened,
straightened, read upright, and text that does not read as text (low confidence, or mostly not words of
the configured languages) is dropped, which is what a photo without text reads as. Small pictures
(screenshots) are enlarged 2x first: screen text 11-13 px high read with errors ("foxjumps overthe") at
its own size and cleanly at twice it.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from PIL import Image, UnidentifiedImageError

from backend.ingest.extract.ocr import missing_ocr, read_prepared
from backend.ingest.extract.ocr_image import Prepared, level
from backend.ingest.extract.ocr_words import word_list
from backend.ingest.types import ExtractResult

PICTURE_LABEL = "Text in picture:"

MIN_PICTURE_SHARE = 0.02
MIN_PICTURE_PIXELS = 10_000
READABLE_FORMATS = ("PNG", "JPEG", "GIF", "BMP", "TIFF")
UPSCALE_MAX_PIXELS = 1_000_000  # a 1280 x 720 screenshot is 0.92 Mpx
_READ_SIZE = 1024 * 1024
# Not Image.DecompressionBombError (over Pillow's own 179 Mpx limit): that one means too large, not unreadable.
PILLOW_ERRORS = (UnidentifiedImageError, OSError, ValueError, SyntaxError)


@dataclass(frozen=True)
class PictureOcr:
    """What OCR made of one picture: its text (empty when it holds none that reads reliably)."""

    text: str
    failed: bool = False  # its tesseract broke its CPU or memory limit
    too_large: bool = False  # more pixels than the cap: not decoded


@dataclass(frozen=True)
class PicturePart:
    """A picture to OCR where it sits in a scan's parts, by the zip member that holds it."""

    member: str


@dataclass(frozen=True)
class PictureScan(ABC):
    """The text pass of a file whose pictures are OCR'd in jobs of their own (picklable: it crosses from
    the sandbox's worker to the server, which assembles the file once the pictures are read)."""

    total: int  # what progress counts: a deck's slides, a Word document's pictures
    pictures: dict[str, list[int]]  # zip member -> the places counted in `total` that wait for it
    progress_noun: ClassVar[str]

    @abstractmethod
    def texts(self) -> Iterator[str]:
        """The file's text without its pictures' (for the limit on characters)."""

    @abstractmethod
    def assemble(self, read: dict[str, PictureOcr], ocr_missing: str | None) -> ExtractResult:
        """The file's units with the text of each picture `read` (by member) in place; `ocr_missing` says
        why no picture was read (see ocr.missing_ocr)."""


def extract_in_process(path: Path, scan: PictureScan, languages: str, max_pixels: int) -> ExtractResult:
    """The file of `scan`, its pictures OCR'd in this process (the sandbox reads them in parallel)."""
    missing = missing_ocr(languages) if scan.pictures else None
    read = {} if missing else ocr_members(path, list(scan.pictures), languages, max_pixels)
    return scan.assemble(read, missing)


def picture_paragraph(result: PictureOcr | None) -> str:
    """The picture's text as one paragraph under its label (single line breaks: a blank line would end it),
    or "" when it holds none."""
    if result is None or not result.text:
        return ""
    lines = [line.strip() for line in result.text.splitlines() if line.strip()]
    return "\n".join([PICTURE_LABEL, *lines])


def picture_warnings(pictures: Collection[str], read: dict[str, PictureOcr], ocr_missing: str | None,
                     where: Callable[[Collection[str]], str]) -> list[str]:
    """What the document says of pictures not read; `where` names the places of some members
    ("on slide(s) 2-4")."""
    warnings = []
    if ocr_missing and pictures:
        warnings.append(f"{len(pictures)} picture(s) {where(pictures)} were not read: {ocr_missing}. "
                        "Install it and re-ingest the document to read them.")
    too_large = [member for member, result in read.items() if result.too_large]
    if too_large:
        warnings.append(f"{len(too_large)} picture(s) {where(too_large)} have more pixels than OCR may read "
                        "safely; their text is missing.")
    failed = [member for member, result in read.items() if result.failed]
    if failed:
        warnings.append(f"OCR failed on {len(failed)} picture(s) {where(failed)}; their text is missing.")
    return warnings


def pixel_size(data: bytes) -> tuple[int, int] | None:
    """The picture's size in pixels from its header, or None when it is not in READABLE_FORMATS; raises
    Image.DecompressionBombError beyond Pillow's own limit."""
    try:
        with Image.open(io.BytesIO(data), formats=READABLE_FORMATS) as image:
            return image.size
    except PILLOW_ERRORS:
        return None


def worth_reading(data: bytes, share_of_slide: float | None) -> bool:
    """Whether a picture shown on `share_of_slide` of its slide (None: unknown) may hold text to read."""
    if share_of_slide is not None and share_of_slide < MIN_PICTURE_SHARE:
        return False
    try:
        size = pixel_size(data)
    except Image.DecompressionBombError:
        return True  # its OCR job reports it too large, and the document names its slide
    return size is not None and size[0] * size[1] >= MIN_PICTURE_PIXELS


def media_members(archive: zipfile.ZipFile) -> dict[str, str]:
    """The archive's binary members by the SHA-1 of their content, to find a picture's member by its bytes
    (python-pptx exposes a picture's bytes and their SHA-1, not the part they came from)."""
    members: dict[str, str] = {}
    for name in archive.namelist():
        if name.endswith((".xml", ".rels", "/")):
            continue
        digest = hashlib.sha1()  # noqa: S324 - a content key, not security
        with archive.open(name) as stream:
            while chunk := stream.read(_READ_SIZE):
                digest.update(chunk)
        members[digest.hexdigest()] = name
    return members


def ocr_members(path: Path, members: list[str], languages: str, max_pixels: int) -> dict[str, PictureOcr]:
    """OCR of the pictures stored as `members` of the Office file at `path`, their first readings in one
    tesseract run (one job of the sandbox's pool; ocr.py, "Several pages, one tesseract")."""
    read: dict[str, PictureOcr] = {}
    readable: dict[str, Prepared] = {}
    with zipfile.ZipFile(path) as archive:
        for member in members:
            grey = _decoded(archive.read(member), max_pixels)
            if isinstance(grey, PictureOcr):
                read[member] = grey
                continue
            if grey.width * grey.height <= UPSCALE_MAX_PIXELS:
                grey = grey.resize((grey.width * 2, grey.height * 2), Image.Resampling.LANCZOS)
            readable[member] = level(grey)
    judges = word_list(languages).judges
    for member, reading in zip(readable, read_prepared(list(readable.values()), languages), strict=True):
        if reading is None:  # its tesseract broke its CPU or memory limit
            read[member] = PictureOcr("", failed=True)
        elif not reading.readable(judges):
            read[member] = PictureOcr("")  # a photo without text reads as noise: nothing to add
        else:
            read[member] = PictureOcr(reading.text.strip())
    return {member: read[member] for member in members}


def _decoded(data: bytes, max_pixels: int) -> Image.Image | PictureOcr:
    """The picture in grey on white, or why it is not read (unreadable, or too large to decode)."""
    try:
        size = pixel_size(data)
        if size is None:
            return PictureOcr("")
        if size[0] * size[1] > max_pixels:
            return PictureOcr("", too_large=True)
        with Image.open(io.BytesIO(data), formats=READABLE_FORMATS) as image:
            return _on_white(image)
    except Image.DecompressionBombError:
        return PictureOcr("", too_large=True)
    except PILLOW_ERRORS:
        return PictureOcr("")


def _on_white(image: Image.Image) -> Image.Image:
    """The first frame in grey, transparent parts white (dark text on a transparent background would
    otherwise turn black on black)."""
    image.seek(0)
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("L")
    return image.convert("L")
