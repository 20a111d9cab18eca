"""The read side of the MCP tools: search, the document list, bounded reads of a document or a passage,
due flashcards and the study items. Plain functions over the app context that return typed results, so
the MCP layer only describes and registers them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from backend.agent.citations import PassageRef
from backend.errors import NotFound, QuireError
from backend.ingest.library import Library, LibraryDocument
from backend.retrieval.scope import resolve_scope, search_query
from backend.retrieval.service import SearchService
from backend.retrieval.types import Location, SearchMode
from backend.store import blocks as block_store
from backend.store.db import Database
from backend.store.kinds import DocKind, DocumentStatus
from backend.study import flashcards, mindmaps, quizzes, workshops

MAX_READ_CHARS = 20_000
PASSAGE_CONTEXT = 3  # neighbouring passages a read_passage may add on each side


class Passage(PassageRef):
    """One passage (block) of a document: the unit search finds and citations point at."""

    score: float
    # The document repeats this text there too: one result for all its places.
    also_at: list[Location] = Field(default_factory=list)


class SearchResult(BaseModel):
    query: str
    mode: SearchMode
    passages: list[Passage]
    notice: str | None = None


class DocumentInfo(BaseModel):
    id: str
    filename: str
    category: str | None
    kind: DocKind | None
    pages: int | None
    status: DocumentStatus
    passages: int
    created_at: datetime


class DocumentText(BaseModel):
    document_id: str
    filename: str
    first_page: int | None
    last_page: int | None
    text: str
    truncated: bool
    next_page: int | None  # where to continue reading when truncated (page-numbered documents)
    next_offset: int | None  # otherwise: the passage offset to continue from


class PassageText(BaseModel):
    block_id: str
    document_id: str
    filename: str
    page: int | None
    section: str | None
    text: str
    before: list[str]
    after: list[str]


class DueCard(BaseModel):
    deck_id: str
    deck_title: str
    card_id: str
    front: str
    back: str
    tags: list[str]
    state: str
    due: datetime
    sources: list[str]


class DueCards(BaseModel):
    due_count: int
    cards: list[DueCard]


class StudyItem(BaseModel):
    kind: Literal["quiz", "deck", "workshop", "mindmap"]
    id: str
    title: str
    created_at: datetime
    detail: str


def _document_id(value: str) -> UUID:
    try:
        return UUID(value.strip())
    except ValueError as exc:
        raise QuireError("invalid_document_id", f"{value!r} is not a document id (a UUID from list_documents).",
                         422) from exc


def search(db: Database, index: SearchService, query: str, k: int, document_ids: list[str] | None,
           categories: list[str] | None, mode: SearchMode) -> SearchResult:
    text = search_query(query)
    scope = resolve_scope(db, document_ids, categories)
    result = index.search(text, k, scope=scope, mode=mode)
    passages = [Passage(block_id=h.block_id, document_id=h.document_id, filename=h.filename, page=h.page,
                        section=h.section, snippet=h.snippet, score=round(h.score, 6),
                        also_at=list(h.also_at))
                for h in result.hits]
    return SearchResult(query=text, mode=mode, passages=passages, notice=result.notice)


def list_documents(library: Library, category: str | None) -> list[DocumentInfo]:
    rows = library.list_documents(None, category)
    return [DocumentInfo(id=str(r["id"]), filename=r["filename"], category=r["category"], kind=r["kind"],
                         pages=r["pages"], status=r["status"], passages=r["blocks"], created_at=r["created_at"])
            for r in rows]


def _live_blocks(library: Library, document_id: str) -> tuple[LibraryDocument, list[dict[str, Any]]]:
    document = library.get_document(_document_id(document_id))
    blocks = block_store.live_blocks_of(library.db, [str(document["id"])], library.embed_model)
    if not blocks:
        raise QuireError("no_text", f"{document['filename']} has no readable text yet (status: {document['status']}).",
                         409)
    return document, blocks


def read_document(library: Library, document_id: str, first_page: int | None, last_page: int | None,
                  offset: int, max_chars: int) -> DocumentText:
    """The document's text in order, from `first_page` (or passage `offset`) on, at most `max_chars`."""
    if first_page is not None and last_page is not None and last_page < first_page:
        raise QuireError("invalid_page_range", "last_page comes before first_page.", 422)
    document, blocks = _live_blocks(library, document_id)
    chosen = [b for b in blocks if (first_page is None or (b["page"] or 0) >= first_page)
              and (last_page is None or (b["page"] or 0) <= last_page)][offset:]
    if not chosen:
        raise QuireError("out_of_range", f"{document['filename']} has no text in that range "
                         f"({document['pages'] or 'unknown'} pages, {len(blocks)} passages).", 422)
    parts: list[str] = []
    used, taken, page = 0, 0, None
    for block in chosen:
        piece = f"[page {block['page']}] {block['text']}" if block["page"] is not None else block["text"]
        if used + len(piece) > max_chars:
            if not parts:  # one passage longer than the budget: its beginning, rather than nothing
                parts.append(piece[:max_chars])
                taken = 1
            break
        parts.append(piece)
        used += len(piece) + 2
        taken += 1
        page = block["page"]
    truncated = taken < len(chosen)
    rest = chosen[taken] if truncated else None
    paged = rest is not None and rest["page"] is not None
    return DocumentText(
        document_id=str(document["id"]), filename=document["filename"], first_page=chosen[0]["page"], last_page=page,
        text="\n\n".join(parts), truncated=truncated,
        next_page=rest["page"] if paged and rest is not None else None,
        next_offset=offset + taken if truncated and not paged else None,
    )


def read_passage(library: Library, document_id: str, block_id: str, context: int) -> PassageText:
    """One passage by the ids search returned, with up to `context` neighbours on each side."""
    document, blocks = _live_blocks(library, document_id)
    index = next((i for i, b in enumerate(blocks) if b["id"] == block_id.strip()), None)
    if index is None:
        raise NotFound("Passage", block_id)
    block = blocks[index]
    return PassageText(block_id=block["id"], document_id=str(document["id"]), filename=document["filename"],
                       page=block["page"], section=block["section"], text=block["text"],
                       before=[b["text"] for b in blocks[max(0, index - context):index]],
                       after=[b["text"] for b in blocks[index + 1:index + 1 + context]])


def due_flashcards(db: Database, deck_id: str | None, limit: int) -> DueCards:
    now = datetime.now(UTC)
    decks = flashcards.list_decks(db, now)
    if deck_id is not None:
        decks = [d for d in decks if d.id == deck_id.strip()]
        if not decks:
            raise NotFound("Deck", deck_id)
    cards: list[DueCard] = []
    total = 0
    for deck in decks:
        if not deck.due_count:
            continue
        total += deck.due_count
        for card in flashcards.due(db, deck.id, limit, now).cards:
            where = [s.filename + (f", p. {s.page}" if s.page else "") for s in card.sources]
            cards.append(DueCard(deck_id=deck.id, deck_title=deck.title, card_id=card.id, front=card.front,
                                 back=card.back, tags=card.tags, state=card.state, due=card.due,
                                 sources=list(dict.fromkeys(where))))
    cards.sort(key=lambda c: c.due)
    return DueCards(due_count=total, cards=cards[:limit])


def list_study_items(db: Database, kind: str | None) -> list[StudyItem]:
    items: list[StudyItem] = []
    if kind in (None, "quiz"):
        items += [StudyItem(kind="quiz", id=q.id, title=q.title, created_at=q.created_at,
                            detail=f"{q.question_count} questions, {q.difficulty}") for q in quizzes.list_quizzes(db)]
    if kind in (None, "deck"):
        items += [StudyItem(kind="deck", id=d.id, title=d.title, created_at=d.created_at,
                            detail=f"{d.card_count} cards, {d.due_count} due") for d in flashcards.list_decks(db)]
    if kind in (None, "workshop"):
        items += [StudyItem(kind="workshop", id=w.id, title=w.title, created_at=w.created_at,
                            detail=f"{w.lesson_count} lessons, {w.completed_lessons} done")
                  for w in workshops.list_workshops(db)]
    if kind in (None, "mindmap"):
        items += [StudyItem(kind="mindmap", id=m.id, title=m.title, created_at=m.created_at,
                            detail=f"mind map, {m.node_count} nodes")
                  for m in mindmaps.list_mindmaps(db)]
    return sorted(items, key=lambda item: item.created_at, reverse=True)
