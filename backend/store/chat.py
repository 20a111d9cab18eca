"""SQL for chat sessions, their messages and attached images.

A turn's rows are written in two transactions: when the question arrives (the user message and a
placeholder for the answer, status `partial`) and when the answer ends (the tool rounds, then the answer
itself); in between, the text streamed so far is written into the placeholder (`save_streamed`).
Functions that take a `conn` are meant to be composed inside one `turn_transaction()` by the chat service.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Connection, Cursor, Database, fetch_row, fetch_rows, first_row, row_as

_SESSION_COLUMNS = """
    s.id::text AS id, s.title, s.title_is_custom, s.scope, s.created_at, s.updated_at,
    (SELECT count(*) FROM chat_messages m WHERE m.session_id = s.id AND m.role = 'user') AS turns
"""

_MESSAGE_COLUMNS = """
    id::text AS id, turn, seq, role, content, model_content, tool_calls, tool_call_id, tool_name,
    tool_summary, citations, thinking, attachments, scope, status, error, memory, grounding, model, created_at
"""

# What replaying a turn to the model needs (no citations, thinking or errors to decode).
_HISTORY_COLUMNS = "id::text AS id, turn, role, content, model_content, tool_calls, tool_name, attachments"


Role = Literal["user", "assistant", "tool"]
MessageStatus = Literal["complete", "partial", "error"]  # partial: being answered, or cut off
Grounding = Literal["cited", "uncited", "not_covered", "passages"]  # backend/agent/grounding.py


class SessionRow(TypedDict):
    """A chat session as `_SESSION_COLUMNS` reads it."""

    id: str
    title: str
    title_is_custom: bool
    scope: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    turns: int


class MessageRow(TypedDict):
    """A message as `_MESSAGE_COLUMNS` reads it: the transcript's view of a turn."""

    id: str
    turn: int
    seq: int
    role: Role
    content: str
    model_content: str | None
    tool_calls: list[dict[str, Any]] | None
    tool_call_id: str | None
    tool_name: str | None
    tool_summary: str | None
    citations: list[dict[str, Any]] | None
    thinking: str | None
    attachments: list[dict[str, Any]]
    scope: dict[str, Any] | None
    status: MessageStatus
    error: dict[str, Any] | None
    memory: dict[str, int] | None
    grounding: Grounding | None
    model: dict[str, Any] | None
    created_at: datetime


class QuestionRow(TypedDict):
    """A turn's user message, as a rewind reuses it."""

    id: str
    content: str
    model_content: str | None
    attachments: list[dict[str, Any]]


@dataclass(frozen=True)
class NewMessage:
    """A row to insert into `chat_messages`; the JSON fields are plain Python values."""

    id: str
    role: Role
    content: str = ""
    model_content: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    tool_name: str | None = None
    tool_summary: str | None = None
    attachments: list[dict[str, Any]] = field(default_factory=list)
    scope: dict[str, Any] | None = None
    status: MessageStatus = "complete"


@dataclass(frozen=True)
class AnswerUpdate:
    """The final state of a turn's answer row."""

    content: str
    citations: list[dict[str, Any]]
    thinking: str | None
    status: MessageStatus
    error: dict[str, Any] | None
    memory: Mapping[str, object] | None = None  # the stream's `memory` line; None when the model was not used
    grounding: Grounding | None = None  # None: small talk (nothing was searched)
    model: Mapping[str, object] | None = None  # the stream's `model` line


@contextmanager
def turn_transaction(db: Database) -> Iterator[Connection]:
    """One transaction in pipeline mode: statements are sent without waiting for each other; only reading
    a result waits. The writes of a turn and their COMMIT then cost one round trip to Postgres, not one
    each (a chat turn is latency-bound, and every round trip is a wake-up of the database process)."""
    with db.connection() as conn, conn.pipeline(), conn.transaction():
        yield conn


# -- sessions ----------------------------------------------------------------------------------------

def insert_session(conn: Connection, session_id: str, title: str, scope: dict[str, Any]) -> None:
    conn.execute("INSERT INTO chat_sessions (id, title, scope) VALUES (%s, %s, %s)",
                 (session_id, title, Jsonb(scope)))


def lock_session(conn: Connection, session_id: str) -> Cursor:
    """Lock the session row until the transaction ends, which serialises the turns of a session: the next
    statements of the transaction see every turn committed before (read committed: a fresh snapshot each).
    The cursor has a row if the session exists. `touch_session` locks it as well."""
    return conn.execute("SELECT 1 FROM chat_sessions WHERE id = %s FOR UPDATE", (session_id,))


def touch_session(conn: Connection, session_id: str, scope: dict[str, Any], title: str) -> None:
    """Record activity and the latest scope; `title` replaces a derived title while the session has no
    messages (its first question is the one arriving, also after a rewind to the first turn). Like any
    update, it locks the session row until the transaction ends (see `lock_session`)."""
    conn.execute(
        "UPDATE chat_sessions s SET updated_at = now(), scope = %s,"
        " title = CASE WHEN NOT s.title_is_custom AND NOT EXISTS"
        " (SELECT 1 FROM chat_messages m WHERE m.session_id = s.id) THEN %s ELSE s.title END"
        " WHERE s.id = %s",
        (Jsonb(scope), title, session_id),
    )


def list_sessions(db: Database, limit: int, offset: int) -> list[SessionRow]:
    return fetch_rows(db, SessionRow,
        f"SELECT {_SESSION_COLUMNS} FROM chat_sessions s ORDER BY s.updated_at DESC, s.id LIMIT %s OFFSET %s",  # noqa: S608 - fixed fragment
        (limit, offset),
    )


def get_session(db: Database, session_id: str) -> SessionRow | None:
    return fetch_row(db, SessionRow, f"SELECT {_SESSION_COLUMNS} FROM chat_sessions s WHERE s.id = %s",  # noqa: S608
                     (session_id,))


def rename_session(db: Database, session_id: str, title: str) -> bool:
    with db.connection() as conn:
        cur = conn.execute(
            "UPDATE chat_sessions SET title = %s, title_is_custom = true, updated_at = now() WHERE id = %s",
            (title, session_id),
        )
    return cur.rowcount > 0


def delete_session(db: Database, session_id: str) -> bool:
    with db.connection() as conn:
        cur = conn.execute("DELETE FROM chat_sessions WHERE id = %s", (session_id,))
    return cur.rowcount > 0


# -- turns -------------------------------------------------------------------------------------------

def turn_question(conn: Connection, session_id: str, turn: int) -> QuestionRow | None:
    """The user message of a turn: id, content, model_content and attachments."""
    return row_as(QuestionRow, conn.execute(
        "SELECT id::text AS id, content, model_content, attachments FROM chat_messages"
        " WHERE session_id = %s AND turn = %s AND role = 'user'",
        (session_id, turn),
    ).fetchone())


def message_images(conn: Connection, message_id: str) -> list[tuple[str, bytes]]:
    """The images attached to a user message as (mime type, bytes), in attachment order."""
    rows = conn.execute("SELECT mime_type, data FROM chat_images WHERE message_id = %s ORDER BY position",
                        (message_id,)).fetchall()
    return [(row["mime_type"], bytes(row["data"])) for row in rows]


def turn_of_message(conn: Connection, session_id: str, message_id: str) -> int | None:
    row = conn.execute("SELECT turn FROM chat_messages WHERE id = %s AND session_id = %s",
                       (message_id, session_id)).fetchone()
    return None if row is None else int(row["turn"])


def delete_turns_from(conn: Connection, session_id: str, turn: int) -> int:
    """Remove turn `turn` and every later turn of the session; returns the number of rows removed."""
    cur = conn.execute("DELETE FROM chat_messages WHERE session_id = %s AND turn >= %s", (session_id, turn))
    return cur.rowcount


# The fields of a NewMessage row as the inserts send them (`seq` numbered by position), with their types:
# the rows go in as a VALUES list, which does not take its types from the columns it is inserted into.
_VALUE_FIELDS = (("id", "uuid"), ("seq", "int"), ("role", "text"), ("content", "text"), ("model_content", "text"),
                 ("tool_calls", "jsonb"), ("tool_call_id", "text"), ("tool_name", "text"), ("tool_summary", "text"),
                 ("attachments", "jsonb"), ("scope", "jsonb"), ("status", "text"))


def _insert_sql(session: str, turn: str, source: str) -> str:
    """INSERT of the rows `source` names as `v`, into session `session` and turn `turn` (SQL expressions)."""
    names = [name for name, _ in _VALUE_FIELDS]
    return (f"INSERT INTO chat_messages (session_id, turn, {', '.join(names)})"  # noqa: S608 - fixed fragments
            f" SELECT {session}, {turn}, {', '.join(f'v.{name}' for name in names)} FROM {source}")


def _values(first_seq: int, messages: Sequence[NewMessage]) -> tuple[str, list[Any]]:
    """`messages` (numbered from `first_seq`) as a VALUES list aliased `v`, and its parameters."""
    row = "(" + ", ".join(f"%s::{kind}" for _, kind in _VALUE_FIELDS) + ")"
    alias = "v(" + ", ".join(name for name, _ in _VALUE_FIELDS) + ")"
    params = [seq if name == "seq" else _jsonb(getattr(m, name)) if kind == "jsonb" else getattr(m, name)
              for seq, m in enumerate(messages, start=first_seq) for name, kind in _VALUE_FIELDS]
    return f"(VALUES {', '.join([row] * len(messages))}) AS {alias}", params


def insert_turn(conn: Connection, session_id: str, messages: Sequence[NewMessage]) -> Cursor:
    """Insert the rows of a new turn (numbered from seq 0) as the session's next turn; the cursor returns
    the turn's number. The statement numbers the turn itself, so nothing waits for a read first. The
    session must be locked in this transaction; if it does not exist, the insert fails (foreign key)."""
    values, params = _values(0, messages)
    next_turn = "(SELECT coalesce(max(m.turn), 0) + 1 FROM chat_messages m WHERE m.session_id = %s::uuid)"
    return conn.execute(_insert_sql("%s::uuid", next_turn, values) + " RETURNING turn",
                        [session_id, session_id, *params])


def insert_images(conn: Connection, message_id: str, images: Sequence[tuple[str, bytes]]) -> None:
    if not images:
        return
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO chat_images (message_id, position, mime_type, data) VALUES (%s, %s, %s, %s)",
            [(message_id, i, mime, data) for i, (mime, data) in enumerate(images)],
        )


def update_question(db: Database, message_id: str, model_content: str | None,
                    attachments: list[dict[str, Any]]) -> None:
    """The question once its attached documents are read: what the model sees and what the UI lists."""
    with db.connection() as conn:
        conn.execute("UPDATE chat_messages SET model_content = %s, attachments = %s WHERE id = %s",
                     (model_content, Jsonb(attachments), message_id))


def save_streamed(db: Database, answer_id: str, content: str) -> bool:
    """The text streamed so far into an answer still being given (status partial), so that what the user
    read survives a crash of this process; False once the answer is finished (or the turn is gone)."""
    with db.connection() as conn:
        cur = conn.execute("UPDATE chat_messages SET content = %s WHERE id = %s AND status = 'partial'",
                           (content, answer_id))
    return cur.rowcount > 0


def finish_answer(db: Database, session_id: str, answer_id: str, rounds: Sequence[NewMessage],
                  update: AnswerUpdate) -> bool:
    """Store the tool rounds before the answer and the answer's final state: one statement, so one
    transaction and one round trip; the rounds are inserted only beside their answer.

    Returns False when the turn no longer exists (rewound or deleted while it was being answered).
    """
    answer = ("UPDATE chat_messages SET seq = %s, content = %s, citations = %s, thinking = %s, status = %s,"
              " error = %s, memory = %s, grounding = %s, model = %s WHERE id = %s AND session_id = %s"
              " RETURNING session_id, turn")
    params: list[Any] = [len(rounds) + 1, update.content, Jsonb(update.citations), update.thinking, update.status,
                         _jsonb(update.error), _jsonb(update.memory), update.grounding, _jsonb(update.model),
                         answer_id, session_id]
    inserted = ""
    if rounds:
        values, row_params = _values(1, rounds)
        # Reading `answer` first also orders the two: the answer leaves seq 1 before a round takes it.
        inserted = f", rounds AS ({_insert_sql('a.session_id', 'a.turn', f'answer a, {values}')})"
        params += row_params
    row = first_row(db,
        f"WITH answer AS ({answer}),"  # noqa: S608 - fixed fragments
        " touched AS (UPDATE chat_sessions SET updated_at = now() WHERE id IN (SELECT session_id FROM answer))"
        f"{inserted} SELECT turn FROM answer",
        params,
    )
    return row is not None


def _jsonb(value: Any) -> Jsonb | None:
    return Jsonb(value) if value is not None else None


# -- reading -----------------------------------------------------------------------------------------

def session_messages(db: Database, session_id: str) -> list[MessageRow]:
    """The session's messages in conversation order, every column the transcript shows."""
    return fetch_rows(db, MessageRow,
        f"SELECT {_MESSAGE_COLUMNS} FROM chat_messages WHERE session_id = %s"  # noqa: S608
        " ORDER BY turn, seq", (session_id,))


def history_messages(conn: Connection, session_id: str) -> Cursor:
    """Every message of the session, in order, with what replaying it needs: a cursor, to fetch from once
    the pipeline has sent the statement."""
    return conn.execute(f"SELECT {_HISTORY_COLUMNS} FROM chat_messages"  # noqa: S608 - fixed fragment
                        " WHERE session_id = %s ORDER BY turn, seq", (session_id,))


def images_of(db: Database, message_ids: Sequence[str]) -> dict[str, list[bytes]]:
    """Image bytes by user message id, in attachment order."""
    if not message_ids:
        return {}
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT message_id::text AS message_id, data FROM chat_images WHERE message_id = ANY(%s::uuid[])"
            " ORDER BY message_id, position",
            (list(message_ids),),
        ).fetchall()
    images: dict[str, list[bytes]] = {}
    for row in rows:
        images.setdefault(row["message_id"], []).append(bytes(row["data"]))
    return images
