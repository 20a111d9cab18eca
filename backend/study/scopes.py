"""Turning a request's scope into job parameters (validated, canonical order) and back into a `Scope`."""

from __future__ import annotations

from typing import Any

from backend.errors import QuireError
from backend.retrieval.scope import resolve_scope
from backend.retrieval.types import Scope
from backend.store import study_sources as store
from backend.store.db import Database
from backend.study.schemas import ScopeIn


def scope_params(db: Database, scope: ScopeIn) -> dict[str, list[str]]:
    """Validate the scope (404 on unknown documents, 422 when it holds no text yet) for a job's params."""
    resolved = resolve_scope(db, scope.document_ids, scope.categories)
    params = {"document_ids": sorted(resolved.document_ids), "categories": sorted(resolved.categories)}
    if store.count_scope_blocks(db, params["document_ids"], params["categories"]) == 0:
        raise QuireError("empty_scope", "The chosen documents have no text to study yet (still being "
                         "ingested, or nothing could be extracted). Pick other documents or wait.", 422)
    return params


def as_scope(params: dict[str, Any]) -> Scope:
    return Scope(document_ids=frozenset(params.get("document_ids", [])),
                 categories=frozenset(params.get("categories", [])))


def scope_title(db: Database, params: dict[str, Any], prefix: str) -> str:
    """A readable default title: "Quiz: lecture-3.pdf + 2 more", "Deck: Biology", "Quiz: whole vault"."""
    ids, categories = params.get("document_ids", []), params.get("categories", [])
    if not ids and not categories:
        label = "whole vault"
    elif not ids:
        label = ", ".join(categories)
    else:
        names = sorted(d["filename"] for d in store.scope_documents(db, ids, categories, 200))
        label = (names[0] + (f" + {len(names) - 1} more" if len(names) > 1 else "")) if names else "documents"
    return f"{prefix}: {label}"[:200]
