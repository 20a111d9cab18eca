"""Chat sessions as a service: create/list/get/rename/delete, titles from the first question, and the
turn lifecycle — begin (rewind, optionally carrying the rewound question's attachments over, then the
question and a placeholder answer), history for the model, finish (tool rounds and the final answer)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from backend.agent.attachments import MAX_ATTACHMENTS
from backend.agent.memory import Turn, turns_from_rows
from backend.agent.prompting import attached_files, question_content
from backend.errors import NotFound, QuireError
from backend.store import activity
from backend.store import chat as store
from backend.store.db import Connection, Cursor, Database, ForeignKeyViolation, one

TITLE_CHARS = 60
DEFAULT_TITLE = "New chat"
MAX_TITLE_CHARS = 200


@dataclass(frozen=True)
class Question:
    text: str
    scope: dict[str, Any]
    files: list[str] = field(default_factory=list)  # attached documents, fenced for the model
    images: list[tuple[str, bytes]] = field(default_factory=list)  # (mime type, bytes)
    attachments: list[dict[str, Any]] = field(default_factory=list)  # what the UI shows of them

    @property
    def model_content(self) -> str:
        """The question as the model reads it: attached files first."""
        return question_content(self.text, self.files)


@dataclass(frozen=True)
class TurnStart:
    session_id: str
    turn: int
    user_message_id: str
    message_id: str  # the answer's row, a placeholder (status partial) until the turn finishes
    question: Question  # as stored, with any attachments carried over
    history: list[Turn]  # the turns before this one as model messages (images are attached separately)
    asked_at: datetime  # when the question was stored, with its study activity event


def title_from(question: str) -> str:
    """A session title: the question's first line, cut at a word boundary."""
    line = next((part for part in question.splitlines() if part.strip()), "")
    line = " ".join(line.split())
    if len(line) <= TITLE_CHARS:
        return line or DEFAULT_TITLE
    cut = line[:TITLE_CHARS].rsplit(" ", 1)[0] if " " in line[:TITLE_CHARS] else line[:TITLE_CHARS]
    return cut.rstrip(" ,.;:-") + "…"


def begin_turn(db: Database, session_id: str | None, rewind_to: str | None, question: Question,
               reuse_attachments: bool = False) -> TurnStart:
    """Store the question and a placeholder answer; a new session when `session_id` is None. The history
    the model will see is read in the same transaction, and the question is recorded as study activity in
    it too (asked, answered or not, it was studying). Without a rewind, the whole transaction is one round
    trip to Postgres: nothing is read until the commit has been sent.

    `rewind_to` (any message of the session) first removes the turn holding it and every later turn;
    with `reuse_attachments` the rewound question's attachments go with the new question.
    """
    if rewind_to is not None and session_id is None:
        raise QuireError("rewind_without_session", "rewind_to_message_id needs the session_id it belongs to.", 422)
    if reuse_attachments and rewind_to is None:
        raise QuireError("reuse_without_rewind",
                         "reuse_attachments needs rewind_to_message_id: the turn whose attachments to reuse.", 422)
    user_id, answer_id, asked_at = str(uuid.uuid4()), str(uuid.uuid4()), datetime.now(UTC)
    history: Cursor | None = None
    try:
        with store.turn_transaction(db) as conn:
            if session_id is None:
                session_id = str(uuid.uuid4())
                store.insert_session(conn, session_id, title_from(question.text), question.scope)
            else:
                history, question = _prepare_turn(conn, session_id, rewind_to, question, reuse_attachments)
            inserted = store.insert_turn(conn, session_id, [
                store.NewMessage(id=user_id, role="user", content=question.text,
                                 model_content=question.model_content if question.model_content != question.text
                                 else None, attachments=question.attachments, scope=question.scope),
                store.NewMessage(id=answer_id, role="assistant", status="partial"),
            ])
            store.insert_images(conn, user_id, question.images)
            activity.add_event(conn, "chat_message", session_id, asked_at)
    except ForeignKeyViolation:  # the session does not exist (or was deleted meanwhile)
        raise NotFound("Chat session", str(session_id)) from None
    # Read only now: in the pipeline, every statement above and the commit went out in one round trip.
    turn = int(one(inserted)["turn"])
    rows = history.fetchall() if history is not None else []
    return TurnStart(session_id, turn, user_id, answer_id, question, turns_from_rows(rows), asked_at)


def _prepare_turn(conn: Connection, session_id: str, rewind_to: str | None, question: Question,
                  reuse_attachments: bool) -> tuple[Cursor, Question]:
    """Lock the session, remove the rewound turns if asked to (taking the rewound question's attachments
    along first, if asked to), record the activity on the session and queue the read of the history the
    new turn follows (every turn left).

    Without a rewind nothing is waited for: the session's update is its lock, and a missing session
    shows when the new turn is inserted."""
    if rewind_to is not None:
        question = _rewind(conn, session_id, rewind_to, question, reuse_attachments)
    store.touch_session(conn, session_id, question.scope, title_from(question.text))
    return store.history_messages(conn, session_id), question


def _rewind(conn: Connection, session_id: str, rewind_to: str, question: Question,
            reuse_attachments: bool) -> Question:
    """Lock the session and remove the turn holding `rewind_to` and every later one; `question` with the
    removed question's attachments when asked to."""
    if store.lock_session(conn, session_id).fetchone() is None:
        raise NotFound("Chat session", session_id)
    rewound = store.turn_of_message(conn, session_id, rewind_to)
    if rewound is None:
        raise NotFound("Message", rewind_to)
    if reuse_attachments:
        question = _with_attachments_of(conn, session_id, rewound, question)
    store.delete_turns_from(conn, session_id, rewound)
    return question


def _with_attachments_of(conn: Connection, session_id: str, turn: int, question: Question) -> Question:
    """`question` with the attachments of turn `turn`'s question in front of its own: the images (from
    `chat_images`) and the documents as they were extracted then (from the stored model content)."""
    earlier = store.turn_question(conn, session_id, turn)
    if earlier is None or not earlier["attachments"]:
        return question
    attachments = [*earlier["attachments"], *question.attachments]
    if len(attachments) > MAX_ATTACHMENTS:
        raise QuireError("too_many_attachments",
                         f"At most {MAX_ATTACHMENTS} files can be attached to a message (with the reused ones).", 422)
    images = store.message_images(conn, earlier["id"])
    files = attached_files(earlier["model_content"], earlier["content"])
    return replace(question, attachments=attachments, images=[*images, *question.images],
                   files=[*files, *question.files])


def add_documents(db: Database, start: TurnStart, files: Sequence[str],
                  attachments: Sequence[dict[str, Any]]) -> TurnStart:
    """The stored question with its newly read documents: `files` go after any reused ones, and
    `attachments` (this message's own, final) replace their placeholders."""
    question = start.question
    kept = question.attachments[:len(question.attachments) - len(attachments)]  # reused from a rewound turn
    question = replace(question, files=[*question.files, *files], attachments=[*kept, *attachments])
    store.update_question(db, start.user_message_id,
                          question.model_content if question.model_content != question.text else None,
                          question.attachments)
    return replace(start, question=question)


def attach_images(db: Database, turns: Sequence[Turn]) -> None:
    """Load the images of these turns' questions into their user messages."""
    images = store.images_of(db, [mid for turn in turns for mid in turn.image_message_ids])
    for turn in turns:
        loaded = [data for mid in turn.image_message_ids for data in images.get(mid, [])]
        if loaded:
            turn.messages[0]["images"] = loaded


def finish_turn(db: Database, start: TurnStart, rounds: Sequence[store.NewMessage],
                update: store.AnswerUpdate) -> bool:
    return store.finish_answer(db, start.session_id, start.message_id, rounds, update)


# -- the sessions API --------------------------------------------------------------------------------

def list_sessions(db: Database, limit: int = 100, offset: int = 0) -> list[store.SessionRow]:
    return store.list_sessions(db, limit, offset)


def get_session(db: Database, session_id: str) -> dict[str, Any]:
    """The session with its full transcript (messages in order, citations on the answers)."""
    session = store.get_session(db, session_id)
    if session is None:
        raise NotFound("Chat session", session_id)
    messages = [{k: v for k, v in row.items() if k != "model_content"}
                for row in store.session_messages(db, session_id)]
    return {**session, "messages": messages}


def rename_session(db: Database, session_id: str, title: str) -> store.SessionRow:
    title = " ".join(title.split())
    if not title:
        raise QuireError("empty_title", "A title cannot be empty.", 422)
    if not store.rename_session(db, session_id, title[:MAX_TITLE_CHARS]):
        raise NotFound("Chat session", session_id)
    session = store.get_session(db, session_id)
    if session is None:  # deleted in between
        raise NotFound("Chat session", session_id)
    return session


def delete_session(db: Database, session_id: str) -> None:
    if not store.delete_session(db, session_id):
        raise NotFound("Chat session", session_id)
