"""The upload checks formats share: a file whose content is not what its name claims, text that is really
binary, a web page that is not one, an Office package without its main part. Each raises RejectedFile
with what to do; the formats' modules pick theirs (backend/ingest/formats/)."""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from backend.ingest.extract.archive import OFFICE_LABELS, check_zip_directory, open_zip
from backend.ingest.extract.text import bomless_utf16, decode_text
from backend.ingest.types import ExtractionError, RejectedFile

# (the uploaded file, the extension its name has, whether the signature showed its format)
Check = Callable[[Path, str, bool], None]

TEXT_SAMPLE_BYTES = 64 * 1024
_SCAN_BLOCK = 1024 * 1024
_BINARY_MAGIC = (b"%PDF-", b"PK\x03\x04", b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"\x7fELF", b"\x1f\x8b")
_CONTROL_SHARE = 0.05
_HTML_MARKERS = re.compile(
    r"<(?:!doctype\s+html|html|head|body|title|meta|p|div|h[1-6]|table|article|section|main|span|a|ul|ol|br)\b",
    re.IGNORECASE,
)
OFFICE_PREFIX = {"docx": "word/", "pptx": "ppt/", "xlsx": "xl/"}


def mismatch(extension: str, detail: str = "") -> RejectedFile:
    message = f"This file's content is not a .{extension} file{detail}; check the file and upload it again."
    return RejectedFile("content_mismatch", message, 415)


def check_office(path: Path, kind: str, extension: str) -> None:
    """A package named as `kind` whose signature did not show: a bomb, not a zip, or without its main part."""
    try:
        with open_zip(path, kind) as archive:
            check_zip_directory(archive)
            names = archive.namelist()
    except ExtractionError as exc:
        if exc.code == "zip_bomb":
            raise RejectedFile("zip_bomb", exc.message, 413) from exc
        raise mismatch(extension) from exc
    prefix = OFFICE_PREFIX[kind]
    if "[Content_Types].xml" not in names or not any(name.startswith(prefix) for name in names):
        label = OFFICE_LABELS[kind]
        raise mismatch(extension, f" (it is not {'an' if label[0] in 'AEIOU' else 'a'} {label})")


def check_text(path: Path, extension: str, *, html: bool = False) -> None:
    """Text decodes as text (no NUL bytes unless UTF-16, few control characters); a web page has tags."""
    with path.open("rb") as handle:
        sample = handle.read(TEXT_SAMPLE_BYTES)
        utf16 = sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or bomless_utf16(sample) is not None
        if not utf16 and (sample.startswith(_BINARY_MAGIC) or _has_nul(handle, sample)):
            raise mismatch(extension, " (it is binary data, not text)")
    text = _sample_text(sample)
    controls = sum(1 for char in text if unicodedata.category(char) == "Cc" and char not in "\r\n\t\f\v\x1b")
    if controls > len(text) * _CONTROL_SHARE:
        raise mismatch(extension, " (it is binary data, not text)")
    if html and not _HTML_MARKERS.search(text):
        raise mismatch(extension, " (it does not look like a web page)")


def _sample_text(sample: bytes) -> str:
    """The sample decoded; a UTF-8 character cut at the sample's end is not a decoding failure."""
    try:
        return codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
    except UnicodeDecodeError:
        return decode_text(sample)


def _has_nul(handle: BinaryIO, sample: bytes) -> bool:
    """NUL bytes anywhere in the file (the sample, then the rest in blocks) mark binary data."""
    if b"\x00" in sample:
        return True
    while block := handle.read(_SCAN_BLOCK):
        if b"\x00" in block:
            return True
    return False


def text_check(html: bool = False) -> Check:
    """The check of a text format (a web page's when `html`): no signature, the content decides."""

    def check(path: Path, extension: str, _signed: bool) -> None:
        check_text(path, extension, html=html)

    return check


def office_check(kind: str) -> Check:
    """The check of an Office package: when its signature showed, it has already opened the package and
    found its main part; otherwise a file named like it is looked into."""

    def check(path: Path, extension: str, signed: bool) -> None:
        if not signed:
            check_office(path, kind, extension)

    return check

