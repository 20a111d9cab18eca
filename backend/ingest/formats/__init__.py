"""The format registry: every file format Quire reads, each declared once (backend/ingest/formats/base.py).

Upload validation, extraction, the stored MIME type, the viewer and the citations ask here instead of
naming kinds. Each format is one module here declaring its `FORMAT`, listed in `_MODULES` (the order in
which signatures are tried); its kind's name is in backend/store/kinds.py (the closed vocabulary the API's
schema carries, which the sandbox's children import without this registry), and tests/ingest/test_formats.py
holds the two, and the web app's frontend/src/lib/formats.ts, in step. docs/formats.md walks through
adding one.
"""

from __future__ import annotations

from pathlib import Path

from backend.ingest.formats import csv, excel, markdown, pdf, picture, powerpoint, recording, text, web_page, word
from backend.ingest.formats.base import Format
from backend.ingest.sniff import PDF_HEADER_WINDOW, html_start, ole_signature
from backend.store.kinds import DocKind

_MODULES = (pdf, word, powerpoint, excel, csv, markdown, text, web_page, picture, recording)
FORMATS: dict[DocKind, Format] = {module.FORMAT.kind: module.FORMAT for module in _MODULES}
EXTENSIONS: dict[str, DocKind] = {ext: fmt.kind for fmt in FORMATS.values() for ext in fmt.extensions}
_HEAD_BYTES = PDF_HEADER_WINDOW + len(b"%PDF-")


def format_of(kind: str) -> Format:
    """The format of a document kind; ValueError for a kind no format declares."""
    fmt: Format | None = FORMATS.get(kind)  # type: ignore[call-overload]
    if fmt is None:
        raise ValueError(f"unknown document kind {kind!r}")
    return fmt


def sniff(path: Path) -> str | None:
    """The format the bytes at `path` unambiguously are (a kind), "ole" for an old binary Office file,
    "html" for a file that starts like a web page, or None; RejectedFile("zip_bomb") for a bomb."""
    with path.open("rb") as handle:
        head = handle.read(_HEAD_BYTES)
    if ole_signature(head):
        return "ole"
    for fmt in FORMATS.values():
        if fmt.signature is not None and fmt.signature(head, path):
            return fmt.kind
    return "html" if html_start(head) else None
