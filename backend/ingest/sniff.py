"""What a file's bytes say it is, whatever its name says.

Only signatures that cannot be mistaken count: a PDF header in the first kilobyte, an Office Open XML
package whose `[Content_Types].xml` declares a Word document, PowerPoint presentation or Excel workbook
that Quire's readers open, the OLE signature of an old binary (or password-protected) Office file, and
a doctype or `<html>` tag at the very start of a web page, and the signatures of the picture formats
Quire reads (PNG, JPEG, GIF, TIFF, and BMP with the rest of its header checked). Plain text has no
signature: whether a file is text is decided by decoding it (backend/ingest/validate.py). Zip bombs are
refused from the central directory before any member is read. The formats (backend/ingest/formats/)
declare these as their signatures; `formats.sniff` asks them in turn.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from backend.ingest.extract.archive import PLAIN_MAIN_TYPES, check_zip_directory
from backend.ingest.types import ExtractionError, RejectedFile

PDF_HEADER_WINDOW = 1024
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGIC = b"PK\x03\x04"
_CONTENT_TYPES = "[Content_Types].xml"
_MAX_CONTENT_TYPES_BYTES = 1024 * 1024  # a real one is a few KB
# The main parts Quire's readers open: python-docx's and python-pptx's, with the macro-enabled documents,
# templates and slide shows they are handed as plain ones (archive.office_stream), and openpyxl's.
_MAIN_PARTS: dict[Literal["docx", "pptx", "xlsx"], tuple[str, tuple[bytes, ...]]] = {
    "docx": ("word/", (PLAIN_MAIN_TYPES["docx"][0], *PLAIN_MAIN_TYPES["docx"][1])),
    "pptx": ("ppt/", (PLAIN_MAIN_TYPES["pptx"][0], *PLAIN_MAIN_TYPES["pptx"][1],
                      b"application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml")),
    "xlsx": ("xl/", (b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                     b"application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
                     b"application/vnd.ms-excel.sheet.macroEnabled.main+xml",
                     b"application/vnd.ms-excel.template.macroEnabled.main+xml")),
}
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"II*\x00", b"MM\x00*")
_HTML_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<(?:!doctype\s+html|html)[\s>]", re.IGNORECASE)


def pdf_header_at_start(head: bytes) -> bool:
    """Whether `head` (the first KB and a few bytes) opens a PDF: readers accept a header anywhere in the
    first KB, but here only whitespace and a BOM may precede it."""
    position = head.find(b"%PDF-")
    return 0 <= position <= PDF_HEADER_WINDOW and not head[:position].lstrip(b"\xef\xbb\xbf \t\r\n\f\x00")


def pdf_header_after_junk(path: Path) -> bool:
    """Whether a PDF header stands in the first KB after other bytes (a mail gateway's or an old tool's
    junk line): PDF readers open such a file, so one *named* .pdf is read as a PDF. Not a signature on its
    own: a text file may quote "%PDF-" near its start."""
    with path.open("rb") as handle:
        head = handle.read(PDF_HEADER_WINDOW + len(b"%PDF-"))
    return 0 <= head.find(b"%PDF-") <= PDF_HEADER_WINDOW


def ole_signature(head: bytes) -> bool:
    """An old binary (or password-protected) Office file: refused with what to do instead."""
    return head.startswith(OLE_MAGIC)


def html_start(head: bytes) -> bool:
    """A doctype or `<html>` tag at the very start: a web page, for a file whose name has no extension."""
    return _HTML_START.match(head) is not None


def image_signature(head: bytes, path: Path) -> bool:
    return head.startswith(_IMAGE_MAGIC) or _is_bmp(head, path.stat().st_size)


def office_signature(kind: Literal["docx", "pptx", "xlsx"]) -> Callable[[bytes, Path], bool]:
    """The signature of an Office Open XML package whose main part is `kind`'s (RejectedFile for a bomb)."""

    def signed(head: bytes, path: Path) -> bool:
        return head.startswith(_ZIP_MAGIC) and _office_package(path) == kind

    return signed


def _is_bmp(head: bytes, size: int) -> bool:
    """"BM" alone starts many a text file; a BMP's header goes on with four zero reserved bytes, a known
    header size and where its pixels begin, within the length it states and the file's."""
    if len(head) < 26 or not head.startswith(b"BM") or head[6:10] != b"\0\0\0\0":
        return False
    stated = int.from_bytes(head[2:6], "little")
    pixels_at = int.from_bytes(head[10:14], "little")
    header = int.from_bytes(head[14:18], "little")
    return header in (12, 40, 52, 56, 64, 108, 124) and 26 <= pixels_at <= stated and stated > 0 and size > pixels_at


def _office_package(path: Path) -> Literal["docx", "pptx", "xlsx"] | None:
    try:
        with zipfile.ZipFile(path) as archive:
            check_zip_directory(archive)
            names = archive.namelist()
            if _CONTENT_TYPES not in names or archive.getinfo(_CONTENT_TYPES).file_size > _MAX_CONTENT_TYPES_BYTES:
                return None
            with archive.open(_CONTENT_TYPES) as stream:
                declared = stream.read(_MAX_CONTENT_TYPES_BYTES)
    except ExtractionError as exc:
        raise RejectedFile("zip_bomb", exc.message, 413) from exc
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError, ValueError, RuntimeError, EOFError,
            NotImplementedError):
        return None  # not a zip Quire can open (or an encrypted member): no format is claimed for it
    for kind, (prefix, main_types) in _MAIN_PARTS.items():
        if any(main in declared for main in main_types) and any(name.startswith(prefix) for name in names):
            return kind
    return None
