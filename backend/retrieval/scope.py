"""What a user asked a search for, validated: the query text, and what they picked (document ids, category
names) as a `Scope`. The HTTP API and the MCP server both search through these."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from backend.errors import QuireError
from backend.retrieval.types import Scope
from backend.store import documents as store
from backend.store.db import Database

MAX_SCOPE_ITEMS = 500
MAX_QUERY_CHARS = 1000


def search_query(text: str) -> str:
    """The query without surrounding space; an empty or over-long one is refused (422)."""
    query = text.strip()
    if not query:
        raise QuireError("empty_query", "The query is empty: type something to search for.", 422)
    if len(query) > MAX_QUERY_CHARS:
        raise QuireError("query_too_long", f"A query is at most {MAX_QUERY_CHARS} characters.", 422)
    return query


def _split(values: Iterable[str] | None) -> list[str]:
    """Accept both repeated parameters and comma-separated lists."""
    out: list[str] = []
    for value in values or []:
        out += [part.strip() for part in value.split(",") if part.strip()]
    return out


def resolve_scope(db: Database, document_ids: Iterable[str] | None, categories: Iterable[str] | None) -> Scope:
    ids, cats = _split(document_ids), _split(categories)
    if len(ids) + len(cats) > MAX_SCOPE_ITEMS:
        raise QuireError("scope_too_large", f"A scope holds at most {MAX_SCOPE_ITEMS} items.", 422)
    try:
        uuids = [UUID(value) for value in ids]
    except ValueError as exc:
        raise QuireError("invalid_document_id", "Document ids in a scope must be UUIDs.", 422) from exc
    known = store.existing_ids(db, uuids) if uuids else set()
    unknown = sorted({str(u) for u in uuids} - known)
    if unknown:
        raise QuireError("unknown_documents", f"Unknown document ids: {', '.join(unknown[:5])}.", 404,
                         details={"document_ids": unknown})
    return Scope(document_ids=frozenset(known), categories=frozenset(cats))
