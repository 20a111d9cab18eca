"""The answer to one question, from whatever the model can do (chat.py runs it inside the stream).

In order: the model's facts (`/api/show`, once per model; Ollama down → the passages without the model),
a `model` line saying what it can do, the memory window fitted to its context, Quire's own search for the
question (not for small talk), phase 1 (thinking, if the model can), phase 2 (the agent loop), and the
judgement whether the answer stands on the documents (`grounding`).

Whatever goes wrong with the model — down, refusing, stuck, failing mid-answer, or silent — the text it
wrote so far stays and the passages found for the question follow it with their citations: a slow or
broken model never leaves the user with nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread

from backend.agent import sessions
from backend.agent.context import RequestState
from backend.agent.fallback import SILENT, STOPPED, UNAVAILABLE, answer_without_model
from backend.agent.grounding import judge
from backend.agent.loop import AgentLoop
from backend.agent.memory import CHAT_MEMORY_CHARS, MemoryWindow, message_chars
from backend.agent.model import ChatModel
from backend.agent.prompting import system_prompt, with_scope
from backend.agent.stream import EventChannel, MemoryInfo, ModelInfo, Reasoning
from backend.agent.thinking import is_trivial, think
from backend.agent.tools import chat_tools
from backend.llm.budget import chars_of
from backend.llm.errors import ModelError, ModelStalled, ModelUnavailable
from backend.store.chat import AnswerUpdate, Grounding, MessageStatus


@dataclass
class TurnRecord:
    """What the answer became; turned into the stored row at the end."""

    thinking: str = ""
    answer: str | None = None  # set when the answer is not simply the agent loop's text
    status: MessageStatus = "complete"
    error: dict[str, Any] | None = None
    loop: AgentLoop | None = None
    unsent: bool = False  # the model never got the question: no memory figures
    fell_back: bool = False  # the passages stand in for (the rest of) the model's answer
    window: MemoryWindow | None = field(default=None, repr=False)
    grounding: Grounding | None = None
    model: ModelInfo | None = None

    def fail(self, code: str, message: str, retryable: bool, status: MessageStatus) -> None:
        self.error = {"code": code, "message": message, "retryable": retryable}
        self.status = status

    def memory(self) -> MemoryInfo | None:
        """The `memory` line; None when nothing was sent to the model."""
        return self.window.stats() if self.window is not None and not self.unsent else None

    def text(self) -> str:
        """The answer's text so far (what the user has read of it)."""
        return self.answer if self.answer is not None else (self.loop.answer if self.loop else "")

    def update(self, state: RequestState) -> AnswerUpdate:
        return AnswerUpdate(content=self.text(), citations=[c.payload() for c in state.citations.all()],
                            thinking=self.thinking or None, status=self.status, error=self.error,
                            memory=self.memory(), grounding=self.grounding, model=self.model)


async def answer(state: RequestState, start: sessions.TurnStart, scope_text: str, channel: EventChannel,
                 record: TurnRecord) -> None:
    question = start.question.text
    trivial = is_trivial(question)
    try:
        model = ChatModel(state.services.llm, await state.services.llm.afacts())
    except (ModelUnavailable, ModelError) as exc:
        record.unsent = True
        await _fall_back(state, channel, record, question, trivial, exc)
        return
    state.context_tokens = model.context_tokens
    reasoning: Reasoning = "skipped" if trivial else ("shown" if model.thinking else "unsupported")
    record.model = model.payload(reasoning)
    channel.model(record.model)
    tools = chat_tools()
    tools_chars = len(json.dumps(tools.schemas(), ensure_ascii=False))
    record.window = window = await _memory_window(state, start, scope_text, model, tools_chars)
    record.loop = loop = AgentLoop(state, channel, window, tools, model)
    try:
        if not trivial:
            await loop.search_first(question)
        if not trivial and model.thinking:
            thought = await think(model, window.messages(plain=not model.tools), channel)
            if thought is None:  # refused after all: the model's facts were assumed
                record.model = model.payload("unsupported")
                channel.model(record.model)
            record.thinking = thought or ""
        if not (await loop.run()).strip():
            await _fall_back(state, channel, record, question, trivial, None)
    except (ModelUnavailable, ModelError) as exc:
        record.unsent = isinstance(exc, ModelUnavailable) and loop.model_calls <= 1 and not loop.text_emitted
        await _fall_back(state, channel, record, question, trivial, exc)
    if loop.searched:
        record.grounding = judge(loop.answer, state.citations.all(), record.fell_back)


async def _fall_back(state: RequestState, channel: EventChannel, record: TurnRecord, question: str, trivial: bool,
                     exc: ModelUnavailable | ModelError | None) -> None:
    """The passages after whatever the model wrote, and the error saying why."""
    kept = record.loop.answer if record.loop else ""
    if isinstance(exc, ModelUnavailable):
        lead, code, message, retryable = UNAVAILABLE, "model_unavailable", f"{exc.message} {exc.hint}", True
    elif exc is None:
        lead, code, message, retryable = SILENT, "empty_answer", "The model returned no answer; try again.", True
    else:
        lead = STOPPED if kept.strip() else SILENT
        code = "model_timeout" if isinstance(exc, ModelStalled) else "model_error"
        message, retryable = exc.message, exc.retryable
    added = await answer_without_model(state, channel, question, trivial, lead, after=kept)
    record.answer = kept + added
    record.fell_back = True
    record.fail(code, message, retryable, "partial" if kept.strip() else "error")


async def _memory_window(state: RequestState, start: sessions.TurnStart, scope_text: str, model: ChatModel,
                         tools_chars: int) -> MemoryWindow:
    """Assemble what the model will be sent, within its context. The history was read with the question,
    and the prompt file is cached (a changed file is re-read); only images of earlier turns need the
    database again — and only for a model that sees them."""
    question = start.question
    system = {"role": "system", "content": system_prompt(state, scope_text, tools=model.tools)}
    content = with_scope(question.model_content, scope_text)
    user: dict[str, Any] = {"role": "user", "content": content}
    images = len(question.images) if model.facts.vision else 0
    if images:
        user["images"] = [data for _mime, data in question.images]
    elif question.images:
        user["content"] = (f"{content}\n\n[Quire: the user attached {len(question.images)} image(s), but this model "
                           "cannot see images. Say so if the question needs them.]")
    budget = min(CHAT_MEMORY_CHARS, chars_of(model.context_tokens - model.answer_tokens))
    budget = max(budget, message_chars(system) + message_chars(user))  # the question itself always goes
    window = MemoryWindow(system, start.history, [user], budget, images, tools_chars if model.tools else 0,
                          model.context_tokens, model.answer_tokens)
    window.fit()
    if model.facts.vision and any(turn.image_message_ids for turn in window.history):
        await anyio.to_thread.run_sync(sessions.attach_images, state.services.db, window.history)
    return window
