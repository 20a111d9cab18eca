"""Web pages (uploaded or imported by URL): the text a reader sees, under its headings, shown rendered;
its title, scripts and styles are not read. Stored as a download, never served as a page."""

from __future__ import annotations

from backend.ingest.extract.html import extract_html
from backend.ingest.formats.base import NO_TEXT, Format, plain
from backend.ingest.formats.checks import text_check


def _nothing_found(_pages: int | None) -> str:
    return f"{NO_TEXT}: the web page shows no text (its title, scripts and styles are not read)."


FORMAT = Format(kind="html", label="a web page", name="HTML", extensions=("html", "htm"), mime="text/html",
                viewer="text", read=plain(extract_html), check=text_check(html=True), nothing_found=_nothing_found)
