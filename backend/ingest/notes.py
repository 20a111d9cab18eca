"""Notes: Markdown written in Quire (or a chat answer saved with its citations) that becomes a source like
any uploaded document. A note goes through the same path as an uploaded `.md` file — its bytes are a
content-addressed original, ingested into blocks by the durable workflow, searchable, citable, usable as
a study scope, with versions, trash and change detection — and is marked `source_kind = 'note'` so the
app offers to edit it. Editing a note adds a version (the upload path's "replace").

This module only turns the user's text into a file for `uploads.accept_files`; when a format registry
declares sources, a note is a Markdown source with an in-app editor.
"""

from __future__ import annotations

import hashlib
import re
from uuid import UUID

from pydantic import BaseModel, Field

from backend.errors import NotFound, QuireError
from backend.ingest import files
from backend.ingest.library import Library
from backend.ingest.uploads import Candidate, Uploads, clean_category
from backend.store import chat as chat_store
from backend.store import notes as store
from backend.store.db import Database
from backend.store.registration import OnConflict

MAX_NOTE_CHARS = 200_000
MAX_TITLE_CHARS = 120
_UNSAFE = re.compile(r"[\\/:*?\"<>|\x00-\x1f]+")


class NoteIn(BaseModel):
    title: str = Field(min_length=1, max_length=MAX_TITLE_CHARS)
    markdown: str = Field(min_length=1, max_length=MAX_NOTE_CHARS)
    category: str | None = Field(None, max_length=60)


class NoteEdit(BaseModel):
    markdown: str = Field(min_length=1, max_length=MAX_NOTE_CHARS)


class AnswerNoteIn(BaseModel):
    session_id: UUID
    message_id: UUID
    title: str | None = Field(None, min_length=1, max_length=MAX_TITLE_CHARS)
    category: str | None = Field(None, max_length=60)


class NoteOut(BaseModel):
    document_id: str
    filename: str
    category: str | None
    markdown: str  # the current version's text (what was just saved, right after a save)
    version: int | None  # None until its first version is stored
    status: str
    workflow_id: str | None  # the ingestion run of a save, to follow until the note is searchable


def note_filename(title: str) -> str:
    name = " ".join(_UNSAFE.sub(" ", title).split()).strip(". ") or "Note"
    return f"{name[:MAX_TITLE_CHARS]}.md"


def _save(uploads: Uploads, filename: str, markdown: str, category: str | None,
           on_conflict: OnConflict) -> tuple[str, str | None]:
    """Store the text as an upload of `filename`; returns the document id and the ingestion run."""
    data = markdown.encode()
    path = files.new_pending_path(uploads.docs_dir)
    path.write_bytes(data)
    candidate = Candidate(filename, path, len(data), hashlib.sha256(data).hexdigest())
    outcome = uploads.accept([candidate], category, source="note", on_conflict=on_conflict)
    if not outcome.documents:
        raise QuireError("note_refused", "The note could not be stored.", 422, details=outcome.rejected or None)
    return outcome.documents[0].id, outcome.workflow_id


def create(uploads: Uploads, body: NoteIn) -> NoteOut:
    """A new note; a title already used in the category gets " (2)" like an upload kept beside another."""
    category = clean_category(body.category)
    document_id, workflow_id = _save(uploads, note_filename(body.title), body.markdown, category, "keep_both")
    store.mark_note(uploads.db, document_id)
    return _out(uploads.db, document_id, body.markdown, workflow_id)


def edit(uploads: Uploads, document_id: UUID, body: NoteEdit) -> NoteOut:
    """A new version of the note (nothing happens when the text is the same)."""
    note = _note(uploads.db, document_id)
    saved_id, workflow_id = _save(uploads, note["filename"], body.markdown, note["category"], "replace")
    if saved_id != note["id"]:  # the name was taken from under the note (renamed, moved): never write elsewhere
        raise QuireError("note_moved", "The note changed while it was being saved; reload it and save again.", 409)
    return _out(uploads.db, note["id"], body.markdown, workflow_id)


def get(library: Library, document_id: UUID) -> NoteOut:
    note = _note(library.db, document_id)
    if note["current_version"] is None:
        raise QuireError("not_ready", "The note is still being stored; try again in a moment.", 409)
    text = library.original_file(document_id).path.read_text(encoding="utf-8")
    return _out(library.db, note["id"], text, None)


def _note(db: Database, document_id: UUID) -> store.NoteRow:
    note = store.get(db, str(document_id))
    if note is None:
        raise NotFound("Note", str(document_id))
    if note["source_kind"] != "note":
        raise QuireError("not_a_note", "This document was uploaded, not written in Quire: upload a new version "
                         "of it instead of editing it here.", 409)
    return note


def _out(db: Database, document_id: str, markdown: str, workflow_id: str | None) -> NoteOut:
    note = store.get(db, document_id)
    if note is None:
        raise NotFound("Note", document_id)
    return NoteOut(document_id=document_id, filename=note["filename"], category=note["category"], markdown=markdown,
                   version=note["current_version"], status=note["status"], workflow_id=workflow_id)


# -- a chat answer as a note -------------------------------------------------------------------------------
def answer_markdown(question: str, answer: str, citations: list[dict[str, object]]) -> str:
    """The answer with its [n] markers, the question it answered, and its sources as links to the passages."""
    lines = [f"> {line}" for line in question.strip().splitlines() if line.strip()] or ["> (no question)"]
    parts = ["\n".join(lines), answer.strip()]
    if citations:
        sources = ["## Sources", ""]
        for c in sorted(citations, key=lambda c: int(str(c.get("n", 0)))):
            where = str(c["filename"]) + (f", p. {c['page']}" if c.get("page") else "")
            link = f"/library/documents/{c['document_id']}?block={c['block_id']}"
            sources.append(f"{c.get('n')}. [{where}]({link})")
        parts.append("\n".join(sources))
    return "\n\n".join(parts) + "\n"


def from_answer(uploads: Uploads, body: AnswerNoteIn) -> NoteOut:
    """Save a chat answer (with the question and its citations) as a new note."""
    messages = chat_store.session_messages(uploads.db, str(body.session_id))
    answer = next((m for m in messages if m["id"] == str(body.message_id) and m["role"] == "assistant"), None)
    if answer is None or not answer["content"].strip():
        raise NotFound("Answer", str(body.message_id))
    question = next((m["content"] for m in messages if m["role"] == "user" and m["turn"] == answer["turn"]), "")
    title = body.title or " ".join(question.split())[:80] or "Chat answer"
    markdown = f"# {title}\n\n" + answer_markdown(question, answer["content"], answer["citations"] or [])
    return create(uploads, NoteIn(title=title, markdown=markdown, category=body.category))
