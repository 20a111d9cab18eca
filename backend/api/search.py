"""`GET /api/search`: the user's own search over the vault (hybrid, dense or keyword), optionally scoped."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from backend.api.deps import DatabaseDep, SearchDep
from backend.retrieval.scope import resolve_scope, search_query
from backend.retrieval.types import Hit, SearchMode

router = APIRouter(prefix="/api", tags=["search"])


class SearchResponse(BaseModel):
    query: str
    mode: SearchMode
    hits: list[Hit]  # the retrieval layer's own record (backend/retrieval/types.py), declared once
    notice: str | None = None


@router.get("/search", response_model=SearchResponse)
def search(
    db: DatabaseDep,
    index: SearchDep,
    q: Annotated[str, Query(description="What to look for")],
    k: Annotated[int, Query(ge=1, le=100)] = 10,
    documents: Annotated[list[str] | None, Query(description="Document ids (repeat or comma-separate)")] = None,
    categories: Annotated[list[str] | None, Query(description="Category names (repeat or comma-separate)")] = None,
    mode: SearchMode = "hybrid",
) -> SearchResponse:
    query = search_query(q)
    scope = resolve_scope(db, documents, categories)
    result = index.search(query, k, scope=scope, mode=mode)
    return SearchResponse(query=query, mode=mode, hits=result.hits, notice=result.notice)
