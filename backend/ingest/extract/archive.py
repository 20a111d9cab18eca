"""Zip safety for the Office formats (docx, pptx, xlsx are zip archives).

`check_zip_directory` reads only the central directory, before anything is decompressed, and refuses
archives whose declared sizes, ratios or member counts are out of bounds. `check_zip_contents` then
streams every member through the decompressor with a byte cap, so an archive whose headers lie about
its sizes is caught before a parser library inflates it. Both raise `ExtractionError("zip_bomb")`.

`office_stream` hands python-docx and python-pptx the package in a form they open: they refuse a
macro-enabled document, a template or a slide show by its main part's content type alone, although its
parts are those of a plain .docx or .pptx (their macros are never run).
"""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO

from backend.errors import ErrorCode
from backend.ingest.types import ExtractionError

MAX_TOTAL_BYTES = 300 * 1024 * 1024
MAX_MEMBERS = 10_000
MAX_RATIO = 200
RATIO_APPLIES_ABOVE = 10 * 1024 * 1024
_READ_SIZE = 1024 * 1024

_BOMB_MESSAGE = "This file expands to far more data than a document should; it was refused as unsafe."


OFFICE_LABELS = {"docx": "Word document", "pptx": "PowerPoint presentation", "xlsx": "Excel workbook"}


# The main part's content type python-docx and python-pptx accept, and the variants with the same parts that
# they refuse (.docm, .dotx, .dotm; .ppsx, .potx, .ppsm, .potm; python-pptx opens .pptm itself).
PLAIN_MAIN_TYPES: dict[str, tuple[bytes, tuple[bytes, ...]]] = {
    "docx": (b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml", (
        b"application/vnd.ms-word.document.macroEnabled.main+xml",
        b"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
        b"application/vnd.ms-word.template.macroEnabledTemplate.main+xml")),
    "pptx": (b"application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml", (
        b"application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml",
        b"application/vnd.openxmlformats-officedocument.presentationml.template.main+xml",
        b"application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml",
        b"application/vnd.ms-powerpoint.template.macroEnabled.main+xml")),
}
_CONTENT_TYPES = "[Content_Types].xml"


def office_stream(path: Path, kind: str) -> BinaryIO:
    """The package at `path` (already checked by `check_zip_contents`) as its reader opens it: the file
    itself, or for a variant its reader refuses (see PLAIN_MAIN_TYPES) a copy in memory whose
    `[Content_Types].xml` names the plain main type. Members are stored uncompressed: no CPU is spent
    compressing a copy that is read once."""
    plain, variants = PLAIN_MAIN_TYPES[kind]
    with open_zip(path, kind) as archive:
        try:
            declared = archive.read(_CONTENT_TYPES)
        except KeyError:
            return path.open("rb")  # the reader says the package is damaged
        if not any(variant in declared for variant in variants):
            return path.open("rb")
        for variant in variants:
            declared = declared.replace(variant, plain)
        copy = io.BytesIO()
        with zipfile.ZipFile(copy, "w", zipfile.ZIP_STORED) as target:
            for member in archive.infolist():
                data = declared if member.filename == _CONTENT_TYPES else archive.read(member)
                target.writestr(member.filename, data)
    copy.seek(0)
    return copy


_CORRUPT: dict[str, ErrorCode] = {"docx": "docx_corrupt", "pptx": "pptx_corrupt", "xlsx": "xlsx_corrupt"}


def corrupt_office_file(kind: str) -> ExtractionError:
    """The error for an Office file that cannot be read, e.g. ``docx_corrupt``."""
    label = OFFICE_LABELS.get(kind, "Office document")
    return ExtractionError(_CORRUPT.get(kind, "extract_failed"),
                           f"This .{kind} file is damaged or is not a real {label}.")


def open_zip(path: Path, kind: str) -> zipfile.ZipFile:
    """Open `path` as a zip or raise `corrupt_office_file(kind)`."""
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
        raise corrupt_office_file(kind) from exc


def check_zip_directory(archive: zipfile.ZipFile) -> None:
    """Refuse bombs by their central directory alone (nothing is decompressed)."""
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        raise ExtractionError("zip_bomb", _BOMB_MESSAGE)
    if sum(member.file_size for member in members) > MAX_TOTAL_BYTES:
        raise ExtractionError("zip_bomb", _BOMB_MESSAGE)
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > RATIO_APPLIES_ABOVE and ratio > MAX_RATIO:
            raise ExtractionError("zip_bomb", _BOMB_MESSAGE)


def check_zip_contents(path: Path, kind: str) -> None:
    """Check the directory, then inflate every member in bounded reads, counting real bytes.

    zipfile stops each member at its declared size and verifies the CRC, so a member that lies about
    its size surfaces here as a corrupt archive instead of as gigabytes inside a parser.
    """
    with open_zip(path, kind) as archive:
        check_zip_directory(archive)
        total = 0
        try:
            for member in archive.infolist():
                with archive.open(member) as stream:
                    while chunk := stream.read(_READ_SIZE):
                        total += len(chunk)
                        if total > MAX_TOTAL_BYTES:
                            raise ExtractionError("zip_bomb", _BOMB_MESSAGE)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
            # RuntimeError: zipfile's answer to encrypted members.
            raise corrupt_office_file(kind) from exc
