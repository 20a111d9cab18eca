"""`GET /api/search`: the user's own search over the vault (hybrid, dense or keyword), optionally scoped."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from backend.api.deps import DatabaseDep, SearchDep
from backend.retrieval.scope import resolve_scope, search_query
from backend.retrieval.types import SearchMode

router = APIRouter(prefix="/api", tags=["search"])



class AlsoAt(BaseModel):
    """Another place in the hit's document holding the same text (collapsed into the hit)."""

    block_id: str
    page: int | None
    page_label: str | None
    section: str | None


class SearchHit(BaseModel):
    block_id: str
    document_id: str
    filename: str
    page: int | None
    section: str | None
    kind: str
    snippet: str
    text: str
    score: float
    dense_rank: int | None
    sparse_rank: int | None
    relevance: float  # share of the query this passage covers, 0..1 (backend/retrieval/relevance.py)
    relevant: bool  # relevance at or above the calibrated threshold
    page_label: str | None = None  # the page's printed label (PDFs that number pages their own way)
    document_kind: str | None = None  # pdf | docx | pptx | xlsx | csv | md | txt | html
    # The other places of the same document where this text stands too, in reading order: a passage a
    # document repeats is one hit, shown at its first place (backend/retrieval/repeats.py).
    also_at: list[AlsoAt] = []


class SearchResponse(BaseModel):
    query: str
    mode: SearchMode
    hits: list[SearchHit]
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
    hits = [SearchHit.model_validate(hit, from_attributes=True) for hit in result.hits]
    return SearchResponse(query=query, mode=mode, hits=hits, notice=result.notice)
