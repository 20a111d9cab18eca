"""One chat request end to end.

`prepare_chat` runs before the stream: it validates the message, the scope and the attachments (so
bad input is a plain 4xx JSON error), stores the question with a placeholder answer and reads what the
model needs from the database (history, scope names), so the stream itself only waits for the model,
the tools and the final write. `run_chat`
produces the stream: `start` at once, then the attached documents are read (OCR may take a while; an
unreadable one ends the answer with an `error` line), then phase 1 (thinking), phase 2 (the agent loop) or the
model-down fallback, `memory`, any `error`, and always `done` — storing the answer (with its memory
figures), complete or partial, even when the client disconnects halfway.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import anyio.to_thread

from backend.agent import sessions
from backend.agent.attachments import Accepted, AttachmentIn, accept, extract
from backend.agent.context import ChatServices, RequestState, request_state
from backend.agent.fallback import answer_without_model
from backend.agent.loop import AgentLoop
from backend.agent.memory import MemoryWindow
from backend.agent.prompting import scope_payload, scope_statement, system_prompt, with_scope
from backend.agent.stream import EventChannel, MemoryInfo
from backend.agent.thinking import is_trivial, think
from backend.agent.tools import chat_tools
from backend.errors import ErrorCode, QuireError
from backend.ingest.sandbox import pool_for
from backend.llm.errors import ModelError, ModelUnavailable
from backend.llm.prompts import PromptError
from backend.retrieval.scope import resolve_scope
from backend.store.chat import AnswerUpdate, MessageStatus

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 20_000
# Characters of conversation sent to the model per turn (older whole turns are dropped); an attachment's
# text may take half of it.
CHAT_MEMORY_CHARS = 48_000


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


@dataclass
class TurnRecord:
    """What the answer became; turned into the stored row at the end."""

    thinking: str = ""
    answer: str | None = None  # set when the answer is not simply the agent loop's text
    status: MessageStatus = "complete"
    error: dict[str, Any] | None = None
    loop: AgentLoop | None = None
    fallback: bool = False  # answered without the model: nothing was sent to it
    window: MemoryWindow | None = field(default=None, repr=False)

    def fail(self, code: ErrorCode, message: str, retryable: bool, status: MessageStatus) -> None:
        self.error = {"code": code, "message": message, "retryable": retryable}
        self.status = status

    def memory(self) -> MemoryInfo | None:
        """The `memory` line; None when nothing was sent to the model."""
        return self.window.stats() if self.window is not None and not self.fallback else None

    def update(self, state: RequestState) -> AnswerUpdate:
        content = self.answer if self.answer is not None else (self.loop.answer if self.loop else "")
        return AnswerUpdate(content=content, citations=[c.payload() for c in state.citations.all()],
                            thinking=self.thinking or None, status=self.status, error=self.error,
                            memory=self.memory())


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
    try:
        chat = await _with_documents(chat, record)
        if record.error is None:
            await _produce(chat, channel, record)
        answered = True
    except asyncio.CancelledError:
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
            await _answer(chat, channel, record)
    except PromptError as exc:  # a broken override in prompts/custom/: say which, so it can be fixed
        log.error("chat prompt error: %s", exc)
        record.fail("prompt_error", f"{exc}. Fix or remove the prompt file and ask again.", False, "error")
    except Exception:  # whatever broke, the stream must still end with an error line and `done`
        log.exception("chat answer failed (session %s)", chat.start.session_id)
        record.fail("internal_error", "Something went wrong while answering; see the server log.", True,
                    "partial" if record.loop and record.loop.text_emitted else "error")


async def _answer(chat: PreparedChat, channel: EventChannel, record: TurnRecord) -> None:
    services = chat.state.services
    trivial = is_trivial(chat.question.text)
    tools = chat_tools(services.llm.timeout_s)
    record.window = window = await _memory_window(chat, len(json.dumps(tools.schemas(), ensure_ascii=False)))
    record.loop = loop = AgentLoop(chat.state, channel, window, tools)
    try:
        if not trivial:
            record.thinking = await think(services.llm, window.messages(), channel)
        if not (await loop.run()).strip():
            record.fail("empty_answer", "The model returned no answer; try again or rephrase the question.",
                        True, "error")
    except ModelUnavailable as exc:
        message = f"{exc.message} {exc.hint}"
        if loop.text_emitted:
            record.fail("model_unavailable", message, True, "partial")
            return
        record.answer = await answer_without_model(chat.state, channel, chat.question.text, trivial)
        record.fallback = True
        record.fail("model_unavailable", message, True, "error")
    except ModelError as exc:
        record.fail("model_error", exc.message, exc.retryable, "partial" if loop.text_emitted else "error")


async def _memory_window(chat: PreparedChat, tools_chars: int) -> MemoryWindow:
    """Assemble what the model will be sent (with `tools_chars` of tool definitions). The history was read
    with the question, and the prompt file is cached (a changed file is re-read); only images of earlier
    turns need the database again."""
    services, question = chat.state.services, chat.question
    system = {"role": "system", "content": system_prompt(chat.state, chat.scope_text)}
    user: dict[str, Any] = {"role": "user", "content": with_scope(question.model_content, chat.scope_text)}
    if question.images:
        user["images"] = [data for _mime, data in question.images]
    window = MemoryWindow(system, chat.start.history, [user], CHAT_MEMORY_CHARS, len(question.images),
                          tools_chars)
    window.fit()
    if any(turn.image_message_ids for turn in window.history):
        await anyio.to_thread.run_sync(sessions.attach_images, services.db, window.history)
    return window


def _store(chat: PreparedChat, record: TurnRecord) -> None:
    rounds = record.loop.rounds if record.loop else []
    if not sessions.finish_turn(chat.state.services.db, chat.start, rounds, record.update(chat.state)):
        log.info("chat turn %s was rewound or deleted while it was answered", chat.start.message_id)


def _closing_lines(chat: PreparedChat, channel: EventChannel, record: TurnRecord) -> None:
    memory = record.memory()
    if memory is not None:
        channel.memory(memory)
    if record.error is not None:
        channel.error(record.error["code"], record.error["message"], record.error["retryable"])
    channel.done(chat.start.session_id, chat.start.message_id)
    channel.close()
