"""Note routes under `/api/notes`: write a note in Markdown, save a chat answer (with its citations) as a
note, read a note's text, and save a new version of it. A note is a document like an upload: it is
listed, searched, cited, trashed and versioned by the document routes (`source_kind: "note"`)."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, status
from starlette.concurrency import run_in_threadpool

from backend.api.deps import LibraryDep, UploadsDep
from backend.ingest import notes
from backend.ingest.notes import AnswerNoteIn, NoteEdit, NoteIn, NoteOut

router = APIRouter(prefix="/api/notes", tags=["notes"])


@router.post("", status_code=status.HTTP_202_ACCEPTED)
async def create_note(body: NoteIn, uploads: UploadsDep) -> NoteOut:
    """Store a new note and start its ingestion (`workflow_id`, as for an upload)."""
    return await run_in_threadpool(notes.create, uploads, body)


@router.post("/from-answer", status_code=status.HTTP_202_ACCEPTED)
async def note_from_answer(body: AnswerNoteIn, uploads: UploadsDep) -> NoteOut:
    """Save a chat answer as a note: the question, the answer with its [n] markers and its sources."""
    return await run_in_threadpool(notes.from_answer, uploads, body)


@router.get("/{document_id}")
def get_note(document_id: UUID, library: LibraryDep) -> NoteOut:
    """The note's current text (409 `not_a_note` for an uploaded document)."""
    return notes.get(library, document_id)


@router.put("/{document_id}", status_code=status.HTTP_202_ACCEPTED)
async def edit_note(document_id: UUID, body: NoteEdit, uploads: UploadsDep) -> NoteOut:
    """Save the note's new text as its next version."""
    return await run_in_threadpool(notes.edit, uploads, document_id, body)
