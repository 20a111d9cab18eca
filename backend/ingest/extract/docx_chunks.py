"""Content a Word document imports whole (`w:altChunk`): HTML, a web archive (MHT) or plain text kept in
a part of its own, which Word merges into the body when it opens the file.

Tools that write Word files from web content (html-docx-js, docx4j, many "export to Word" buttons) put the
whole document in such a chunk; python-docx does not read it, so such a file read as empty. The chunk's
text is read where it stands in the body, by paragraph; its visible text all counts (it is content, not a
web page with navigation around it). A chunk of another type (RTF, another .docx) adds nothing.
"""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage

from docx.opc.part import Part
from docx.oxml.ns import qn
from docx.oxml.xmlchemy import BaseOxmlElement

from backend.ingest.extract.html import visible_paragraphs
from backend.ingest.extract.text import decode_text, split_paragraphs

ALT_CHUNK = qn("w:altChunk")
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_WEB_ARCHIVE = "message/rfc822"  # MHT, as html-docx-js writes it


class ImportedChunks:
    """Reads the chunks of one document, each part once: a hostile file could import one large part
    thousands of times (Word shows each chunk once; the later copies add nothing)."""

    def __init__(self, related: dict[str, Part]) -> None:
        self._related = related
        self._read: set[str] = set()

    def paragraphs(self, chunk: BaseOxmlElement) -> list[str]:
        part = self._related.get(chunk.get(qn("r:id")) or "")
        if part is None or str(part.partname) in self._read:
            return []
        self._read.add(str(part.partname))
        return chunk_paragraphs(part)


def chunk_paragraphs(part: Part) -> list[str]:
    """The imported part's text by paragraph; [] for a type not read."""
    content_type = part.content_type.split(";")[0].strip().lower()
    blob: bytes = part.blob
    if content_type in _HTML_TYPES:
        return visible_paragraphs(decode_text(blob))
    if content_type == _WEB_ARCHIVE:
        html = _archived_html(blob)
        return visible_paragraphs(html) if html is not None else []
    if content_type == "text/plain":
        return split_paragraphs(decode_text(blob))
    return []


def _archived_html(blob: bytes) -> str | None:
    """The first HTML part of a web archive, decoded by its own transfer encoding and charset."""
    message = email.message_from_bytes(blob, policy=policy.default)
    for section in message.walk():
        if section.get_content_type() == "text/html" and isinstance(section, EmailMessage):
            try:
                content = section.get_content()
            except (LookupError, ValueError):  # an unknown charset, a damaged encoding
                payload = section.get_payload(decode=True)
                return decode_text(payload) if isinstance(payload, bytes) else None
            return content if isinstance(content, str) else None
    return None
