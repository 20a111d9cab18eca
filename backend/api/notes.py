"""Note routes under `/api/notes`: write a note in Markdown, save a chat answer (with its citations) as a
note, read a note's text, and save a new version of it. A note is a document like an upload: it is
listed, searched, cited, trashed and versioned by the document routes (`source_kind: "note"`)."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, status
from starlette.concurrency import run_in_threadpool

from backend.api.deps import ContextDep
from backend.ingest import notes
from backend.ingest.notes import AnswerNoteIn, NoteEdit, NoteIn, NoteOut

router = APIRouter(prefix="/api/notes", tags=["notes"])


@router.post("", status_code=status.HTTP_202_ACCEPTED)
async def create_note(body: NoteIn, ctx: ContextDep) -> NoteOut:
    """Store a new note and start its ingestion (`workflow_id`, as for an upload)."""
    return await run_in_threadpool(notes.create, ctx, body)


@router.post("/from-answer", status_code=status.HTTP_202_ACCEPTED)
async def note_from_answer(body: AnswerNoteIn, ctx: ContextDep) -> NoteOut:
    """Save a chat answer as a note: the question, the answer with its [n] markers and its sources."""
    return await run_in_threadpool(notes.from_answer, ctx, body)


@router.get("/{document_id}")
def get_note(document_id: UUID, ctx: ContextDep) -> NoteOut:
    """The note's current text (409 `not_a_note` for an uploaded document)."""
    return notes.get(ctx, document_id)


@router.put("/{document_id}", status_code=status.HTTP_202_ACCEPTED)
async def edit_note(document_id: UUID, body: NoteEdit, ctx: ContextDep) -> NoteOut:
    """Save the note's new text as its next version."""
    return await run_in_threadpool(notes.edit, ctx, document_id, body)
