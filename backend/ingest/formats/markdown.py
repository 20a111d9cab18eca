"""Markdown: passages under their headings' breadcrumb, shown rendered."""

from __future__ import annotations

from backend.ingest.extract.markdown import extract_markdown
from backend.ingest.formats.base import Format, plain
from backend.ingest.formats.checks import text_check

FORMAT = Format(kind="md", label="Markdown", name="Markdown", extensions=("md", "markdown"), mime="text/markdown",
                viewer="text", read=plain(extract_markdown), check=text_check())
