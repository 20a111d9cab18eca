"""The closed vocabularies of the documents table, shared by the store, the ingestion pipeline and the
API models (so they reach the OpenAPI schema and the generated TypeScript types). No imports beyond
`typing`, `typing_extensions` and the place vocabulary: the extraction sandbox's children import this too.

Each kind is a format of backend/ingest/formats/ (one module each, which declares everything else about
it); a test holds the two in step.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict  # pydantic validates it on Python 3.11 (API models, rows_as)

from backend.places import PlaceKind

# "image": a photo or scan on its own (PNG, JPEG, TIFF, GIF, BMP), read by OCR as pages.
# "audio": a recording (a lecture, a talk), transcribed on this machine into timed passages.
DocKind = Literal["pdf", "docx", "pptx", "xlsx", "csv", "md", "txt", "html", "image", "audio"]
# The kind of place a document's passages have (backend/places.py says it in words): what citations to it
# name, whatever layer shows them.
PLACE_OF_KIND: dict[str, PlaceKind] = {"pptx": "slide", "xlsx": "sheet", "audio": "time"}
# The CHECK constraint `documents_status_check` (migration 0009).
DocumentStatus = Literal["queued", "ingesting", "ready", "failed", "trashed"]


def place_of(kind: str | None) -> PlaceKind:
    """The place kind of a document kind's passages: pages unless the format says otherwise."""
    return PLACE_OF_KIND.get(kind or "", "page")


class PageWarningRow(TypedDict):
    """A page (or slide) that could not be read reliably, with what to say about it (`page_warnings`)."""

    page: int
    message: str
