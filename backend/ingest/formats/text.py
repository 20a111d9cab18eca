"""Plain text in any common encoding, shown as text."""

from __future__ import annotations

from backend.ingest.extract.text import extract_text
from backend.ingest.formats.base import Format, plain
from backend.ingest.formats.checks import text_check

FORMAT = Format(kind="txt", label="plain text", name="text", extensions=("txt", "text"), mime="text/plain",
                viewer="text", read=plain(extract_text), check=text_check())
