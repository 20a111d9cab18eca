"""Upload validation: a safe display filename, and the document kind decided by content and name.

Nothing here trusts the client. Bytes that unambiguously are a PDF, a Word document, a PowerPoint
presentation, an Excel workbook, a picture or a recording (each format's signature, backend/ingest/formats/)
are read as that, whatever the name says;
the answer then says so (`read_as`), the name is kept as given. A file named .pdf whose header follows
junk within the first KB is a PDF too, as for PDF readers. Otherwise the extension must be on the
allow-list and the bytes must be what it claims (decodable text, HTML that looks like HTML); a name
without an extension is read as text when it decodes as text (as a web page when it starts like one).
A picture's header is read at upload (one too large to decode safely is refused), a recording's first
frame is decoded (one without usable audio is refused). Old binary Office files are refused with what to do
instead. Zip bombs are refused from the central
directory before anything is inflated; PDFs are opened once so encrypted or unreadable ones are refused
at upload instead of failing later in the workflow.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from backend.ingest.formats import EXTENSIONS as FORMAT_EXTENSIONS
from backend.ingest.formats import FORMATS, checks, format_of, sniff
from backend.ingest.formats.checks import OFFICE_PREFIX, mismatch
from backend.ingest.sniff import pdf_header_after_junk
from backend.ingest.types import RejectedFile
from backend.store.kinds import DocKind

MAX_FILENAME_CHARS = 200

# The extensions every format declares (backend/ingest/formats/), e.g. "docm" → "docx".
EXTENSIONS: dict[str, DocKind] = FORMAT_EXTENSIONS
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
KIND_LABELS: dict[str, str] = {kind: fmt.label for kind, fmt in FORMATS.items()}
_EXTENSION = re.compile(r"(?=[0-9]*[A-Za-z])[A-Za-z0-9]{1,10}")
# Bidirectional overrides can disguise an extension: "notes\u202excod.txt" is shown as "notestxt.docx".
_INVISIBLE = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff")

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
        if claimed in OFFICE_PREFIX:
            detail = " (it is an old-format or password-protected Office file; save it as .{} without a password)"
            raise mismatch(extension, detail.format(claimed))
        raise _unsupported(extension, old_office=True)
    if sniffed in FORMATS:
        kind: DocKind = sniffed  # the bytes say it, whatever the name says
    elif claimed is not None:
        kind = claimed
    elif extension:
        raise _unsupported(extension)
    else:  # no extension: text, or a web page when it starts like one
        kind = "html" if sniffed == "html" else "txt"
        try:
            checks.check_text(path, extension, html=kind == "html")
        except RejectedFile as exc:
            raise _unsupported(extension) from exc
        return kind
    check = format_of(kind).check
    if check is not None:
        check(path, extension, sniffed == kind)
    return kind


def _unsupported(extension: str, *, old_office: bool = False) -> RejectedFile:
    if old_office:
        hint = _OFFICE_SAVE_AS.get(extension, _OLD_OFFICE_HINT)  # whatever else its name says, it is Office
        kind_of = f".{extension} file" if extension else "file"
        return RejectedFile("unsupported_type", f"Quire cannot read this {kind_of}: it is an old-format (or "
                            f"password-protected) Office file; {hint}.", 415)
    names = [fmt.name for fmt in FORMATS.values()]
    allowed = f"{', '.join(names[:-1])} and {names[-1]}"
    message = f"This file type is not supported; Quire reads {allowed}."
    if extension in _UNSUPPORTED_HINTS:
        kind_of = f".{extension} files" if extension else "this file"
        message = f"Quire cannot read {kind_of}: {_UNSUPPORTED_HINTS[extension]}."
    return RejectedFile("unsupported_type", message, 415)
