"""The source viewer's reads: a document's outline, windows of its extracted blocks, PDF page images and
the boxes of a passage (or of a search's words) on a page. All bounded; all read-only. The records
answered are the viewer's own (backend/viewer/service.py, pdf_pages.py), declared once."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path, Query, Request, Response

from backend.api.deps import ViewerDep
from backend.viewer import service
from backend.viewer.pdf_pages import PageHighlights
from backend.viewer.service import BlockWindow, Outline

router = APIRouter(prefix="/api/documents", tags=["viewer"])

MAX_PASSAGE_CHARS = 4000  # a query string; the whole cited passage goes by `block` instead
MAX_HIGHLIGHT_WORDS = 50  # a search's words boxed on a page
MAX_WORD_CHARS = 100


@router.get("/{document_id}/outline", response_model=Outline)
def document_outline(document_id: UUID, viewer: ViewerDep) -> Outline:
    return viewer.outline(document_id)


@router.get("/{document_id}/blocks", response_model=BlockWindow)
def document_blocks(
    document_id: UUID,
    viewer: ViewerDep,
    page: Annotated[int | None, Query(ge=1, le=1_000_000, description="Every block of this page or slide")] = None,
    around: Annotated[UUID | None, Query(description="A window of blocks around this block")] = None,
    start: Annotated[int, Query(ge=0, le=100_000_000,
                                description="First ordinal, when neither page nor around is given")] = 0,
    limit: Annotated[int, Query(ge=1, le=service.MAX_BLOCKS)] = 60,
) -> BlockWindow:
    if page is not None:
        window = viewer.blocks_on_page(document_id, page)
    elif around is not None:
        window = viewer.blocks_around(document_id, around, limit)
    else:
        window = viewer.blocks_from(document_id, start, limit)
    return window


@router.get("/{document_id}/pages/{page}.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}})
def document_page_image(
    document_id: UUID, page: Annotated[int, Path(ge=1)], request: Request, viewer: ViewerDep,
    scale: Annotated[float, Query(gt=0, le=8, description="Zoom; bounded by pixel count")] = 1.5,
) -> Response:
    """A PDF page rendered as PNG (at most about 4 megapixels), cached by the browser per file version."""
    etag = f'"{viewer.document_sha(document_id)[:20]}-{page}-{scale:g}"'
    headers = {"ETag": etag, "Cache-Control": "private, max-age=3600"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    png = viewer.page_png(document_id, page, scale)
    return Response(png, media_type="image/png", headers=headers)


@router.get("/{document_id}/pages/{page}/highlights", response_model=PageHighlights)
def document_page_highlights(
    document_id: UUID, page: Annotated[int, Path(ge=1)], viewer: ViewerDep,
    block: Annotated[UUID | None, Query(description="Highlight this block's text (a cited passage)")] = None,
    q: Annotated[str | None, Query(min_length=1, max_length=MAX_PASSAGE_CHARS,
                                   description="Or highlight this text")] = None,
    words: Annotated[list[str] | None, Query(max_length=MAX_HIGHLIGHT_WORDS,
                                             description="Or box every word beginning with one of these")] = None,
) -> PageHighlights:
    """Boxes (in PDF points, origin top left) of the passage's words on the page, or of a search's words."""
    if words and block is None and q is None:
        return viewer.page_word_highlights(document_id, page, [w[:MAX_WORD_CHARS] for w in words])
    return viewer.page_highlights(document_id, page, block=block, text=q)
