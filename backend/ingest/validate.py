"""Upload validation: a safe display filename, and the document kind decided by content and name.

Nothing here trusts the client. Bytes that unambiguously are a PDF, a Word document, a PowerPoint
presentation or an Excel workbook (backend/ingest/sniff.py) are read as that, whatever the name says;
the answer then says so (`read_as`), the name is kept as given. A file named .pdf whose header follows
junk within the first KB is a PDF too, as for PDF readers. Otherwise the extension must be on the
allow-list and the bytes must be what it claims (decodable text, HTML that looks like HTML); a name
without an extension is read as text when it decodes as text (as a web page when it starts like one).
Pictures (PNG, JPEG, TIFF, GIF, BMP) are known by their signatures too, and their header is read at
upload: one too large to decode safely is refused. Old binary Office files are refused with what to do
instead. Zip bombs are refused from the central
directory before anything is inflated; PDFs are opened once so encrypted or unreadable ones are refused
at upload instead of failing later in the workflow.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from pathlib import Path
from typing import BinaryIO

from backend.ingest.extract.archive import OFFICE_LABELS, check_zip_directory, open_zip
from backend.ingest.extract.image import check_image
from backend.ingest.extract.pdf import open_pdf
from backend.ingest.extract.text import bomless_utf16, decode_text
from backend.ingest.sniff import pdf_header_after_junk, sniff
from backend.ingest.types import ExtractionError, RejectedFile
from backend.store.kinds import DocKind

MAX_FILENAME_CHARS = 200
TEXT_SAMPLE_BYTES = 64 * 1024
_SCAN_BLOCK = 1024 * 1024

EXTENSIONS: dict[str, DocKind] = {
    "pdf": "pdf",
    "docx": "docx",
    "pptx": "pptx",
    "xlsx": "xlsx",
    # Macro-enabled files, templates and slide shows have the parts of the plain format (their macros are
    # never run); python-docx and python-pptx are handed them as plain ones (archive.office_stream).
    "docm": "docx",
    "dotx": "docx",
    "dotm": "docx",
    "pptm": "pptx",
    "ppsx": "pptx",
    "ppsm": "pptx",
    "potx": "pptx",
    "potm": "pptx",
    "xlsm": "xlsx",
    "xltx": "xlsx",
    "xltm": "xlsx",
    "csv": "csv",
    "tsv": "csv",  # the CSV reader detects the tab delimiter
    "md": "md",
    "markdown": "md",
    "txt": "txt",
    "text": "txt",
    "html": "html",
    "htm": "html",
    **dict.fromkeys(("png", "jpg", "jpeg", "jpe", "jfif", "tif", "tiff", "gif", "bmp"), "image"),
}
_OFFICE_PREFIX = {"docx": "word/", "pptx": "ppt/", "xlsx": "xl/"}
_SAVE_AS = "open it in {app} (or LibreOffice) and save it as {target}, then upload that"
# Formats people often have, with what to do instead of the generic "not supported".
_OFFICE_SAVE_AS = {
    **dict.fromkeys(("doc", "dot", "rtf", "odt", "wpd", "pages"),
                    _SAVE_AS.format(app="Word", target=".docx or PDF")),
    **dict.fromkeys(("xls", "xlsb", "ods", "numbers"), _SAVE_AS.format(app="Excel", target=".xlsx or CSV")),
    **dict.fromkeys(("ppt", "pps", "pot", "odp", "key"),
                    _SAVE_AS.format(app="PowerPoint", target=".pptx or PDF")),
}
_UNSUPPORTED_HINTS = {
    **_OFFICE_SAVE_AS,
    **dict.fromkeys(("webp", "heic", "heif", "avif", "jxl"),
                    "pictures are read as PNG, JPEG, TIFF, GIF or BMP; save it as JPEG or PNG and upload that"),
    "epub": "e-books are not read; convert it to PDF and upload that",
    "": "its name has no extension (such as .pdf or .docx) and its content is not text or a format Quire "
        "recognises by its bytes; add the right extension",
}
_OLD_OFFICE_HINT = "open it in Word, Excel or PowerPoint (or LibreOffice) and save it as .docx, .xlsx or .pptx"
# How `read_as` names each kind: "Read as a Word document".
KIND_LABELS: dict[str, str] = {
    "pdf": "a PDF", "docx": "a Word document", "pptx": "a PowerPoint presentation", "xlsx": "an Excel workbook",
    "csv": "a CSV table", "md": "Markdown", "txt": "plain text", "html": "a web page", "image": "a picture",
}
_EXTENSION = re.compile(r"(?=[0-9]*[A-Za-z])[A-Za-z0-9]{1,10}")
# Bidirectional overrides can disguise an extension: "notes\u202excod.txt" is shown as "notestxt.docx".
_INVISIBLE = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff")
_BINARY_MAGIC = (b"%PDF-", b"PK\x03\x04", b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"\x7fELF", b"\x1f\x8b")
_CONTROL_SHARE = 0.05
_HTML_MARKERS = re.compile(
    r"<(?:!doctype\s+html|html|head|body|title|meta|p|div|h[1-6]|table|article|section|main|span|a|ul|ol|br)\b",
    re.IGNORECASE,
)


def sanitise_filename(name: str) -> str:
    """A display name safe to store and show: last path part only, no control characters,
    no leading dots (hidden files) or trailing dots/spaces, whitespace collapsed, at most 200 chars."""
    name = _visible(re.split(r"[/\\]", name)[-1]).lstrip(". ").rstrip(". ")
    if len(name) > MAX_FILENAME_CHARS:
        stem, dot, extension = name.rpartition(".")
        if dot and 0 < len(extension) < 16:
            name = stem[: MAX_FILENAME_CHARS - len(extension) - 1].rstrip(". ") + "." + extension
        else:
            name = name[:MAX_FILENAME_CHARS].rstrip(". ")
    if not name:
        raise RejectedFile(
            "invalid_filename", "This file name cannot be used; rename the file and upload it again.", 400
        )
    return name


_UNNAMED = "(unnamed file)"


def refused_name(name: str) -> str:
    """How a refused file is named in the answer and in the list of refusals: the name it would have
    been stored under, or (for a name that cannot be used) the same cleaning without refusing, so no
    control character, NUL, direction override or unbounded length reaches a list or a page."""
    try:
        return sanitise_filename(name)
    except RejectedFile:
        return _visible(name)[:MAX_FILENAME_CHARS] or _UNNAMED


def _visible(text: str) -> str:
    """`text` in NFC without control characters or direction overrides, its whitespace runs one space."""
    return " ".join("".join(char for char in unicodedata.normalize("NFC", text) if not _invisible(char)).split())


def has_invisible(text: str) -> bool:
    """Whether `text` holds a control character or a direction override (which can make a name read as
    another, "\u202eygoloiB" shown as "Biology")."""
    return any(_invisible(char) for char in text)


def _invisible(char: str) -> bool:
    return char in _INVISIBLE or (unicodedata.category(char) == "Cc" and not char.isspace())


def extension_of(filename: str) -> str:
    """The extension a name ends in, lower-cased ("" when none): up to 10 letters and digits, at least
    one a letter, after the last dot. "Chapter 3. Intro" or "notes v1.2" have none."""
    stem, dot, extension = filename.rpartition(".")
    if not dot or not stem or not _EXTENSION.fullmatch(extension):
        return ""
    return extension.lower()


def read_as(filename: str, kind: str | None) -> str | None:
    """What to tell the user when a file is read as another kind than its name says (None when the name
    says it): "Read as a Word document: its name says .doc." """
    extension = extension_of(filename)
    if kind is None or kind not in KIND_LABELS or EXTENSIONS.get(extension) == kind:
        return None
    reason = f"its name says .{extension}" if extension else "its name has no extension"
    return f"Read as {KIND_LABELS[kind]}: {reason}."


def detect_kind(path: Path, filename: str) -> DocKind:
    """The document kind of the uploaded file at `path`, or RejectedFile saying why it is refused."""
    extension = extension_of(filename)
    claimed = EXTENSIONS.get(extension)
    if path.stat().st_size == 0:
        if claimed is None and extension:
            raise _unsupported(extension)
        raise RejectedFile("empty_file", "This file is empty.", 400)
    sniffed = sniff(path)
    if sniffed is None and claimed == "pdf" and pdf_header_after_junk(path):
        sniffed = "pdf"  # opened below like any PDF: one MuPDF cannot repair is still refused
    if sniffed == "ole":
        if claimed in _OFFICE_PREFIX:
            detail = " (it is an old-format or password-protected Office file; save it as .{} without a password)"
            raise _mismatch(extension, detail.format(claimed))
        raise _unsupported(extension, old_office=True)
    if sniffed in ("pdf", "image") or sniffed in _OFFICE_PREFIX:
        kind: DocKind = sniffed  # the bytes say it, whatever the name says (read_as tells the user)
    elif claimed is not None:
        kind = claimed
    elif extension:
        raise _unsupported(extension)
    else:  # no extension: text, or a web page when it starts like one
        kind = "html" if sniffed == "html" else "txt"
        try:
            _check_text(path, kind, extension)
        except RejectedFile as exc:
            raise _unsupported(extension) from exc
        return kind
    _check_content(path, kind, sniffed, extension)
    return kind


def _check_content(path: Path, kind: DocKind, sniffed: str | None, extension: str) -> None:
    if kind == "pdf":
        if sniffed != "pdf":
            raise _mismatch(extension)
        _check_pdf(path)
    elif kind == "image":
        if sniffed != "image":
            raise _mismatch(extension)
        _check_image(path)
    elif kind in _OFFICE_PREFIX:
        if sniffed != kind:  # when it is, sniff has already opened the package and found its main part
            _check_office(path, kind, extension)
    else:
        _check_text(path, kind, extension)


def _unsupported(extension: str, *, old_office: bool = False) -> RejectedFile:
    if old_office:
        hint = _OFFICE_SAVE_AS.get(extension, _OLD_OFFICE_HINT)  # whatever else its name says, it is Office
        kind_of = f".{extension} file" if extension else "file"
        return RejectedFile("unsupported_type", f"Quire cannot read this {kind_of}: it is an old-format (or "
                            f"password-protected) Office file; {hint}.", 415)
    allowed = ("PDF, Word, PowerPoint, Excel, CSV, Markdown, text and HTML files, and pictures (PNG, JPEG, TIFF, "
               "GIF, BMP)")
    message = f"This file type is not supported; Quire reads {allowed}."
    if extension in _UNSUPPORTED_HINTS:
        kind_of = f".{extension} files" if extension else "this file"
        message = f"Quire cannot read {kind_of}: {_UNSUPPORTED_HINTS[extension]}."
    return RejectedFile("unsupported_type", message, 415)


def _mismatch(extension: str, detail: str = "") -> RejectedFile:
    message = f"This file's content is not a .{extension} file{detail}; check the file and upload it again."
    return RejectedFile("content_mismatch", message, 415)


def _check_pdf(path: Path) -> None:
    """Open the PDF once: an encrypted or unreadable one is refused now, not later in the workflow."""
    try:
        open_pdf(path).close()
    except ExtractionError as exc:
        raise RejectedFile(exc.code, exc.message, 422) from exc


def _check_image(path: Path) -> None:
    """Read the picture's header: one Quire cannot read, or too large to decode safely, is refused now."""
    try:
        check_image(path)
    except ExtractionError as exc:
        raise RejectedFile(exc.code, exc.message, 413 if exc.code == "image_too_large" else 422) from exc


def _check_office(path: Path, kind: DocKind, extension: str) -> None:
    try:
        with open_zip(path, kind) as archive:
            check_zip_directory(archive)
            names = archive.namelist()
    except ExtractionError as exc:
        if exc.code == "zip_bomb":
            raise RejectedFile("zip_bomb", exc.message, 413) from exc
        raise _mismatch(extension) from exc
    prefix = _OFFICE_PREFIX[kind]
    if "[Content_Types].xml" not in names or not any(name.startswith(prefix) for name in names):
        label = OFFICE_LABELS[kind]
        raise _mismatch(extension, f" (it is not {'an' if label[0] in 'AEIOU' else 'a'} {label})")


def _check_text(path: Path, kind: DocKind, extension: str) -> None:
    with path.open("rb") as handle:
        sample = handle.read(TEXT_SAMPLE_BYTES)
        utf16 = sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or bomless_utf16(sample) is not None
        if not utf16 and (sample.startswith(_BINARY_MAGIC) or _has_nul(handle, sample)):
            raise _mismatch(extension, " (it is binary data, not text)")
    text = _sample_text(sample)
    controls = sum(1 for char in text if unicodedata.category(char) == "Cc" and char not in "\r\n\t\f\v\x1b")
    if controls > len(text) * _CONTROL_SHARE:
        raise _mismatch(extension, " (it is binary data, not text)")
    if kind == "html" and not _HTML_MARKERS.search(text):
        raise _mismatch(extension, " (it does not look like a web page)")


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
