"""The closed vocabularies of the documents table, shared by the store, the ingestion pipeline and the
API models (so they reach the OpenAPI schema and the generated TypeScript types). No imports beyond
`typing`: the extraction sandbox's children import this too."""

from __future__ import annotations

from typing import Literal, TypedDict

# "image": a photo or scan on its own (PNG, JPEG, TIFF, GIF, BMP), read by OCR as pages.
DocKind = Literal["pdf", "docx", "pptx", "xlsx", "csv", "md", "txt", "html", "image"]
# The CHECK constraint `documents_status_check` (migration 0009).
DocumentStatus = Literal["queued", "ingesting", "ready", "failed", "trashed"]


class PageWarningRow(TypedDict):
    """A page (or slide) that could not be read reliably, with what to say about it (`page_warnings`)."""

    page: int
    message: str
