"""One chat request end to end.

`prepare_chat` runs before the stream: it validates the message, the scope and the attachments (so
bad input is a plain 4xx JSON error), stores the question with a placeholder answer and reads what the
model needs from the database (history, scope names), so the stream itself only waits for the model,
the tools and the final write. `run_chat` produces the stream: `start` at once, then the attached
documents are read (OCR may take a while; an unreadable one ends the answer with an `error` line), then
the answer (backend/agent/answering.py: Quire's search, thinking, the agent loop, or the passages when the
model cannot answer), `grounding`, `memory`, any `error`, and always `done` — storing the answer (with
its grounding and memory figures), complete or partial, even when the client disconnects halfway.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import anyio.to_thread

from backend.agent import sessions
from backend.agent.answering import TurnRecord, answer
from backend.agent.attachments import Accepted, AttachmentIn, accept, extract
from backend.agent.autosave import keep_saving
from backend.agent.context import ChatServices, RequestState, request_state
from backend.agent.grounding import message
from backend.agent.memory import CHAT_MEMORY_CHARS
from backend.agent.prompting import scope_payload, scope_statement
from backend.agent.stream import EventChannel
from backend.errors import QuireError
from backend.ingest.sandbox import pool_for
from backend.llm.prompts import PromptError
from backend.retrieval.scope import resolve_scope

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 20_000


@dataclass(frozen=True)
class ChatInput:
    message: str
    session_id: str | None = None
    document_ids: Sequence[str] | None = None
    categories: Sequence[str] | None = None
    attachments: Sequence[AttachmentIn] = ()
    rewind_to: str | None = None
    reuse_attachments: bool = False  # carry the rewound question's attachments over (regenerate, edit)


@dataclass(frozen=True)
class PreparedChat:
    start: sessions.TurnStart
    state: RequestState
    scope_text: str  # the active scope in words, "" for the whole vault
    attached: Accepted = field(default_factory=Accepted)  # documents among them are read after `start`

    @property
    def question(self) -> sessions.Question:
        return self.start.question


def prepare_chat(services: ChatServices, request: ChatInput) -> PreparedChat:
    """Validate and store the question (blocking; run it in a worker thread)."""
    message = request.message.strip()
    if not message:
        raise QuireError("empty_message", "Type a message first.", 422)
    if len(message) > MAX_MESSAGE_CHARS:
        raise QuireError("message_too_long", f"A message is at most {MAX_MESSAGE_CHARS:,} characters.", 422)
    scope = resolve_scope(services.db, request.document_ids, request.categories)
    attached = accept(request.attachments)
    state = RequestState(services=services, scope=scope)
    question = sessions.Question(text=message, scope=scope_payload(state), images=attached.images,
                                 attachments=attached.placeholders())
    start = sessions.begin_turn(services.db, request.session_id, request.rewind_to, question, request.reuse_attachments)
    return PreparedChat(start, state, scope_statement(state), attached)


def _read_documents(chat: PreparedChat) -> PreparedChat:
    """Extract the attached documents and store them with the question (blocking; a worker thread)."""
    settings = chat.state.services.settings
    files = extract(chat.attached, settings.ocr_languages, CHAT_MEMORY_CHARS // 2, pool_for(settings))
    start = sessions.add_documents(chat.state.services.db, chat.start, files.files, files.meta)
    return replace(chat, start=start, attached=Accepted())


async def _with_documents(chat: PreparedChat, record: TurnRecord) -> PreparedChat:
    if not chat.attached.documents:
        return chat
    try:
        # abandon_on_cancel: a client that leaves is not kept waiting for the extraction to end.
        return await anyio.to_thread.run_sync(_read_documents, chat, abandon_on_cancel=True)
    except QuireError as exc:  # unreadable, encrypted, too large or complex to read safely
        record.fail(exc.code, exc.message, False, "error")
    except Exception:  # the stream must still end with an error line and `done`
        log.exception("reading the attachments failed (session %s)", chat.start.session_id)
        record.fail("attachment_failed", "The attached documents could not be read; see the server log.", True,
                    "error")
    return chat


async def run_chat(chat: PreparedChat, channel: EventChannel) -> None:
    """Produce the whole stream into `channel`; cancelling this task cancels the model calls."""
    start = chat.start
    channel.start(start.session_id, start.message_id, start.user_message_id)
    record, answered = TurnRecord(), False
    saving = asyncio.create_task(keep_saving(chat.state.services.db, start.message_id, record.text))
    try:
        chat = await _with_documents(chat, record)
        if record.error is None:
            await _produce(chat, channel, record)
        answered = True
    except asyncio.CancelledError:
        saving.cancel()
        # The client went away. Stored synchronously on purpose: awaiting in a cancelled task could be
        # interrupted by a second cancellation before the answer is written.
        if not answered:
            record.status = "partial"
        try:
            _store(chat, record)
        except Exception:
            log.exception("could not store the partial answer (session %s)", start.session_id)
        chat.state.services.activity.check_badges_soon(start.asked_at)
        raise
    saving.cancel()
    try:
        await anyio.to_thread.run_sync(_store, chat, record)
    except Exception:  # whatever failed, the stream still ends with an error line and `done`
        log.exception("could not store the chat answer (session %s)", start.session_id)
        record.fail("storage_error", "The answer could not be saved to the database.", True, record.status)
    _closing_lines(chat, channel, record)
    # The question's study event was stored with it; the badges it may earn are judged after the answer.
    chat.state.services.activity.check_badges_soon(start.asked_at)


async def _produce(chat: PreparedChat, channel: EventChannel, record: TurnRecord) -> None:
    try:
        with request_state(chat.state):
            await answer(chat.state, chat.start, chat.scope_text, channel, record)
    except PromptError as exc:  # a broken override in prompts/custom/: say which, so it can be fixed
        log.error("chat prompt error: %s", exc)
        record.fail("prompt_error", f"{exc}. Fix or remove the prompt file and ask again.", False, "error")
    except Exception:  # whatever broke, the stream must still end with an error line and `done`
        log.exception("chat answer failed (session %s)", chat.start.session_id)
        record.fail("internal_error", "Something went wrong while answering; see the server log.", True,
                    "partial" if record.loop and record.loop.text_emitted else "error")


def _store(chat: PreparedChat, record: TurnRecord) -> None:
    rounds = record.loop.rounds if record.loop else []
    if not sessions.finish_turn(chat.state.services.db, chat.start, rounds, record.update(chat.state)):
        log.info("chat turn %s was rewound or deleted while it was answered", chat.start.message_id)


def _closing_lines(chat: PreparedChat, channel: EventChannel, record: TurnRecord) -> None:
    if record.grounding is not None:
        citations = chat.state.citations.all()
        channel.grounding(record.grounding, message(record.grounding, record.loop.answer if record.loop else "",
                                                    citations))
    memory = record.memory()
    if memory is not None:
        channel.memory(memory)
    if record.error is not None:
        channel.error(record.error["code"], record.error["message"], record.error["retryable"])
    channel.done(chat.start.session_id, chat.start.message_id)
    channel.close()
