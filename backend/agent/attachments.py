"""Files attached to a chat message: validated by content, then images go to the model as images and
documents (PDF, DOCX, TXT, Markdown) are extracted with the ingestion extractors and framed as attached
files, truncated with a visible note when long. Anything else is refused with a 4xx before the stream.
A file whose name and declared type say neither (a Word document saved as `.doc`, a PDF without an
extension) is a document when its content is one, as for uploads (backend/ingest/validate.py).

Two stages: `accept` (names, sizes, real types: quick) runs before the stream; `extract` (reading the
documents, OCR included: possibly slow) runs after the stream's `start` line, and a document that cannot
be read ends the stream with an `error` line.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from backend.agent.quoting import fence
from backend.errors import ErrorCode, QuireError
from backend.ingest.sandbox import SandboxPool, extract_sandboxed
from backend.ingest.types import ExtractionError, RejectedFile
from backend.ingest.validate import detect_kind, sanitise_filename
from backend.scratch import scratch_folder
from backend.store.kinds import DocKind

MAX_ATTACHMENTS = 5
MAX_IMAGE_BYTES = 10 * 1024 * 1024
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
MAX_FILE_CHARS = 20_000

_IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif"}
_IMAGE_EXTENSIONS = {"png": "png", "jpg": "jpeg", "jpeg": "jpeg", "webp": "webp", "gif": "gif"}
_DOCUMENT_EXTENSIONS = {"pdf": "pdf", "docx": "docx", "txt": "txt", "text": "txt", "md": "md", "markdown": "md"}
_MIME_TYPES = {
    "image/png": "png", "image/jpeg": "jpg", "image/jpg": "jpg", "image/webp": "webp", "image/gif": "gif",
    "application/pdf": "pdf", "text/plain": "txt", "text/markdown": "md", "text/x-markdown": "md",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
}
_DATA_URL = re.compile(r"^data:[^,]*;base64,", re.IGNORECASE)


@dataclass(frozen=True)
class AttachmentIn:
    name: str
    mime_type: str
    data: str  # base64, optionally as a data: URL


@dataclass
class Attachments:
    images: list[tuple[str, bytes]] = field(default_factory=list)  # (mime type, bytes)
    files: list[str] = field(default_factory=list)  # fenced text for the model
    meta: list[dict[str, Any]] = field(default_factory=list)  # stored with the message, shown by the UI


def refused(code: ErrorCode, message: str, status: int) -> QuireError:
    return QuireError(code, message, status)


@dataclass(frozen=True)
class AcceptedImage:
    name: str
    mime_type: str  # from the bytes, not the declared type
    data: bytes

    def meta(self) -> dict[str, Any]:
        return {"name": self.name, "mime_type": self.mime_type, "kind": "image", "size_bytes": len(self.data)}


@dataclass(frozen=True)
class PendingDocument:
    """A document attachment checked by type and size, its text not yet extracted."""

    name: str
    kind: DocKind
    mime_type: str
    data: bytes


@dataclass
class Accepted:
    """Every attachment checked (the cheap part, before the stream starts); documents still to extract."""

    items: list[AcceptedImage | PendingDocument] = field(default_factory=list)

    @property
    def images(self) -> list[tuple[str, bytes]]:
        return [(item.mime_type, item.data) for item in self.items if isinstance(item, AcceptedImage)]

    @property
    def documents(self) -> list[PendingDocument]:
        return [item for item in self.items if isinstance(item, PendingDocument)]

    def placeholders(self) -> list[dict[str, Any]]:
        """What the UI shows until the documents are read: final for images, `extracting` for documents."""
        return [item.meta() if isinstance(item, AcceptedImage) else
                {"name": item.name, "kind": "document", "mime_type": item.mime_type, "size_bytes": len(item.data),
                 "extracting": True} for item in self.items]


def process(items: Sequence[AttachmentIn], ocr_languages: str, max_total_chars: int,
            pool: SandboxPool) -> Attachments:
    """Validate and convert every attachment; raises QuireError (413/415/422) for the first bad one.
    Documents are read in the extraction sandbox's child processes, under the same limits as uploads."""
    return extract(accept(items), ocr_languages, max_total_chars, pool)


def accept(items: Sequence[AttachmentIn]) -> Accepted:
    """Check every attachment's name, size and real type without reading documents; raises QuireError."""
    if len(items) > MAX_ATTACHMENTS:
        raise refused("too_many_attachments", f"At most {MAX_ATTACHMENTS} files can be attached to a message.", 422)
    accepted = Accepted()
    for item in items:
        name = _clean_name(item.name)
        extension = _extension(name, item.mime_type)
        if extension in _IMAGE_EXTENSIONS:
            data = _decode(item.data, name, MAX_IMAGE_BYTES)
            accepted.items.append(AcceptedImage(name, _image_type(data, name), data))
        else:
            data = _decode(item.data, name, MAX_DOCUMENT_BYTES)
            kind = _document_kind(data, name, extension)
            accepted.items.append(PendingDocument(name, kind, item.mime_type or "", data))
    return accepted


def extract(accepted: Accepted, ocr_languages: str, max_total_chars: int, pool: SandboxPool) -> Attachments:
    """Read the accepted documents (the slow part: OCR may run) in the extraction sandbox, under the same
    limits as uploads; raises QuireError for an unreadable one."""
    result = Attachments()
    remaining = max_total_chars
    for item in accepted.items:
        if isinstance(item, AcceptedImage):
            result.images.append((item.mime_type, item.data))
            result.meta.append(item.meta())
            continue
        text, pages = _extract(item.data, item.name, item.kind, ocr_languages, pool)
        framed, meta = _frame(item.name, text, pages, max(0, min(MAX_FILE_CHARS, remaining)))
        remaining -= meta["chars"]
        result.files.append(framed)
        result.meta.append({**meta, "mime_type": item.mime_type, "size_bytes": len(item.data)})
    return result


def _clean_name(name: str) -> str:
    try:
        return sanitise_filename(name or "attachment")
    except RejectedFile as exc:
        raise refused("invalid_attachment", "An attachment has a name that cannot be used.", 422) from exc


def _extension(name: str, mime_type: str) -> str | None:
    """The attachment's type from its extension, else its declared MIME type; None when neither says
    (the content then decides whether it is a document chat reads)."""
    extension = name.rpartition(".")[2].lower() if "." in name else ""
    if extension in _IMAGE_EXTENSIONS or extension in _DOCUMENT_EXTENSIONS:
        return extension
    return _MIME_TYPES.get(mime_type.split(";", maxsplit=1)[0].strip().lower())


def _unsupported(name: str) -> QuireError:
    return refused("unsupported_attachment", f"{name}: only images (PNG, JPEG, WebP, GIF) and PDF, Word (.docx), "
                   "text and Markdown files can be attached.", 415)


def _decode(data: str, name: str, limit: int) -> bytes:
    payload = "".join(_DATA_URL.sub("", data.strip()).split())
    if len(payload) * 3 // 4 > limit + 3:
        raise refused("attachment_too_large", f"{name} is larger than {limit // (1024 * 1024)} MB.", 413)
    try:
        raw = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise refused("invalid_attachment", f"{name}: the data is not valid base64.", 422) from exc
    if not raw:
        raise refused("invalid_attachment", f"{name} is empty.", 422)
    if len(raw) > limit:
        raise refused("attachment_too_large", f"{name} is larger than {limit // (1024 * 1024)} MB.", 413)
    return raw


def _image_type(data: bytes, name: str) -> str:
    """The image's real MIME type from its magic bytes."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _IMAGE_TYPES["png"]
    if data.startswith(b"\xff\xd8\xff"):
        return _IMAGE_TYPES["jpeg"]
    if data.startswith((b"GIF87a", b"GIF89a")):
        return _IMAGE_TYPES["gif"]
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _IMAGE_TYPES["webp"]
    raise refused("content_mismatch", f"{name} is not a PNG, JPEG, WebP or GIF image.", 415)


def _document_kind(data: bytes, name: str, extension: str | None) -> DocKind:
    """What a document attachment is read as, before the stream starts: checked against its extension or
    declared type like an upload, or (neither saying) decided by its content; 415 when it is none chat reads."""
    with scratch_folder("attachment") as folder:
        path = folder / "attachment"
        path.write_bytes(data)
        try:
            kind = detect_kind(path, f"attachment.{extension}" if extension else name)
        except RejectedFile as exc:
            if extension is None:
                raise _unsupported(name) from exc
            raise refused(exc.code, f"{name}: {exc.message}", exc.status) from exc
    if kind not in _DOCUMENT_EXTENSIONS.values():
        raise _unsupported(name)
    return kind


def _extract(data: bytes, name: str, kind: DocKind, ocr_languages: str,
             pool: SandboxPool) -> tuple[str, int | None]:
    """The document's text (with page markers where pages exist) and its page count."""
    with scratch_folder("attachment") as folder:
        path = folder / "attachment"
        path.write_bytes(data)
        try:
            extracted = extract_sandboxed(pool, path, kind, ocr_languages=ocr_languages)
        except ExtractionError as exc:
            # A PDF with nothing to read says why ("no_text"); the chat's code for it stays the same.
            code = "attachment_unreadable" if exc.code == "no_text" else exc.code
            raise refused(code, f"{name}: {exc.message}", 422) from exc
    text = "\n\n".join(
        f"[page {unit.page}]\n{unit.text}" if unit.page is not None else unit.text
        for unit in extracted.units
    ).strip()
    if not text:
        raise refused("attachment_unreadable", f"{name}: no text could be read from this file.", 422)
    return text, extracted.pages


def _frame(name: str, text: str, pages: int | None, max_chars: int) -> tuple[str, dict[str, Any]]:
    truncated = len(text) > max_chars
    shown = text[:max_chars]
    if truncated:
        shown += (f"\n\n[Truncated: this shows the first {max_chars:,} of {len(text):,} characters of {name}; "
                  "the rest was not sent.]")
    framed = fence("attached_file", shown, name=name, pages=pages)
    meta = {"name": name, "kind": "document", "chars": min(len(text), max_chars), "total_chars": len(text),
            "truncated": truncated, "pages": pages}
    return framed, meta
