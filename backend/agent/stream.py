"""The chat stream's wire format (DESIGN §5): one `{"type", "data"}` JSON object per line.

`EventChannel` connects the task that produces a chat answer to the HTTP response that sends it: the
producer calls the typed `emit_*` methods (which never block), the response iterates the encoded lines.
The channel knows nothing about HTTP, so the producer can be cancelled or tested on its own.

Lines that follow each other within `FLUSH_INTERVAL_S` are written together: a model streaming at a
reading pace is never held back (its tokens are tens of milliseconds apart), while bursts — a fast
model, a tool's lines, many streams on a busy machine — cost one write and one wake-up of the client
instead of one per line. The end of the stream is never held back.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal, NotRequired

import orjson
from pydantic import Field
from typing_extensions import TypedDict

from backend.agent.citations import ChatCitation
from backend.errors import ErrorCode
from backend.store.chat import Grounding

EventType = Literal["start", "model", "progress", "thinking", "tool", "metadata", "text", "grounding", "memory",
                    "error", "done"]


# -- what each line carries: declared once, listed in the OpenAPI document (`ChatStreamLine`) -------------
class StreamStart(TypedDict):
    session_id: str
    message_id: str  # the answer's
    user_message_id: str  # the question's


class ToolCallEvent(TypedDict):
    id: str
    name: str
    args: dict[str, Any]
    status: Literal["started", "finished"]
    by: Literal["quire", "model"]  # quire: the search Quire runs itself for every question
    summary: NotRequired[str]  # what the tool found, once finished


Reasoning = Literal["shown", "unsupported", "skipped"]  # unsupported: the model cannot show it; skipped: small talk


class ModelInfo(TypedDict):
    """The model that wrote an answer and what it could do: the `model` line, stored with the answer."""

    name: str
    context_length: int | None  # the model's trained maximum, as Ollama reports it
    tools: bool
    thinking: bool
    vision: bool
    context_tokens: int  # the context (`num_ctx`) every call to the model named
    reasoning: Reasoning


class ReadingProgress(TypedDict):
    stage: Literal["reading"]
    prompt_tokens: int  # about this many tokens of prompt are being read
    waited_s: float


class GroundingInfo(TypedDict):
    status: Grounding
    message: str


class MemoryInfo(TypedDict):
    """How full the conversation's memory was for an answer: the `memory` line, stored with the answer."""

    used_chars: int
    budget_chars: int
    turns_kept: int
    turns_dropped: int
    # The token budget; absent in answers stored before Quire fitted prompts to the model's context.
    context_tokens: NotRequired[int]  # the context (`num_ctx`) every call to the model named
    used_tokens: NotRequired[int]  # estimated tokens of what the model was sent
    answer_tokens: NotRequired[int]  # tokens of the context kept free for the answer
    passages_dropped: NotRequired[int]  # lowest-ranked passages left out to fit the context


class StreamError(TypedDict):
    code: ErrorCode
    message: str
    retryable: bool


class StreamDone(TypedDict):
    session_id: str
    message_id: str


class StartLine(TypedDict):
    type: Literal["start"]
    data: StreamStart


class ModelLine(TypedDict):
    type: Literal["model"]
    data: ModelInfo


class ProgressLine(TypedDict):
    type: Literal["progress"]
    data: ReadingProgress


class ThinkingLine(TypedDict):
    type: Literal["thinking"]
    data: str  # a delta of the model's reasoning


class ToolLine(TypedDict):
    type: Literal["tool"]
    data: ToolCallEvent


class MetadataLine(TypedDict):
    type: Literal["metadata"]
    data: ChatCitation


class TextLine(TypedDict):
    type: Literal["text"]
    data: str  # a delta of the answer; [n] markers refer to the citations


class GroundingLine(TypedDict):
    type: Literal["grounding"]
    data: GroundingInfo


class MemoryLine(TypedDict):
    type: Literal["memory"]
    data: MemoryInfo


class ErrorLine(TypedDict):
    type: Literal["error"]
    data: StreamError


class DoneLine(TypedDict):
    type: Literal["done"]
    data: StreamDone


ChatStreamLine = Annotated[
    StartLine | ModelLine | ProgressLine | ThinkingLine | ToolLine | MetadataLine | TextLine | GroundingLine
    | MemoryLine | ErrorLine | DoneLine,
    Field(discriminator="type"),
]
MEDIA_TYPE = "application/x-ndjson"
FLUSH_INTERVAL_S = 0.003


def encode(kind: EventType, data: Any) -> bytes:
    """One NDJSON line; compact, UTF-8, never containing a raw newline except its terminator."""
    return orjson.dumps({"type": kind, "data": data}) + b"\n"


class EventChannel:
    def __init__(self, flush_interval_s: float = FLUSH_INTERVAL_S) -> None:
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._closed = False
        self.flush_interval_s = flush_interval_s

    def emit(self, kind: EventType, data: Any) -> None:
        if not self._closed:
            self._queue.put_nowait(encode(kind, data))

    def close(self) -> None:
        """No more lines; the consumer finishes after draining what is queued."""
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(None)

    async def lines(self) -> AsyncIterator[bytes]:
        """Encoded lines as they come, each write gathering the lines that arrive until `flush_interval_s`
        after the previous write (at once when that has passed)."""
        last_write, ended = float("-inf"), False
        while not ended and (first := await self._queue.get()) is not None:
            batch = [first]
            ended = await self._gather(batch, until=last_write + self.flush_interval_s)
            last_write = time.monotonic()
            yield b"".join(batch)

    async def _gather(self, batch: list[bytes], until: float) -> bool:
        """Append the lines queued now and those arriving before `until` (monotonic time) to `batch`;
        True when the channel was closed meanwhile."""
        while True:
            while not self._queue.empty():
                line = self._queue.get_nowait()
                if line is None:
                    return True
                batch.append(line)
            remaining = until - time.monotonic()
            if remaining <= 0:
                return False
            try:
                line = await asyncio.wait_for(self._queue.get(), remaining)
            except TimeoutError:
                return False
            if line is None:
                return True
            batch.append(line)

    # -- the event types of DESIGN §5 -----------------------------------------------------------------
    def start(self, session_id: str, message_id: str, user_message_id: str) -> None:
        data: StreamStart = {"session_id": session_id, "message_id": message_id, "user_message_id": user_message_id}
        self.emit("start", data)

    # Lines added to DESIGN §5's table (compatible: a client that does not know them skips them).
    def model(self, facts: ModelInfo) -> None:
        """What the answering model can do: `{name, context_length, tools, thinking, vision, context_tokens,
        reasoning}` (`reasoning`: shown | unsupported | skipped), after `start`."""
        self.emit("model", facts)

    def progress(self, prompt_tokens: int, waited_s: float) -> None:
        """The model is reading a prompt of about `prompt_tokens` tokens (sent when a call starts, then every
        few seconds until its first line)."""
        data: ReadingProgress = {"stage": "reading", "prompt_tokens": prompt_tokens, "waited_s": waited_s}
        self.emit("progress", data)

    def grounding(self, status: Grounding, message: str) -> None:
        """Whether the answer stands on the user's documents (backend/agent/grounding.py), after the text."""
        data: GroundingInfo = {"status": status, "message": message}
        self.emit("grounding", data)

    def thinking(self, delta: str) -> None:
        self.emit("thinking", delta)

    def tool(self, call_id: str, name: str, args: dict[str, Any], status: Literal["started", "finished"],
             summary: str | None = None, by: Literal["quire", "model"] = "model") -> None:
        """`by`: "quire" for the search Quire runs itself for every question, "model" for the model's calls."""
        data: ToolCallEvent = {"id": call_id, "name": name, "args": args, "status": status, "by": by}
        if summary is not None:
            data["summary"] = summary
        self.emit("tool", data)

    def metadata(self, citation: dict[str, Any]) -> None:
        self.emit("metadata", citation)

    def text(self, delta: str) -> None:
        self.emit("text", delta)

    def memory(self, info: MemoryInfo) -> None:
        """DESIGN §5's fields, plus the token budget: `context_tokens` (the `num_ctx` sent), `used_tokens`,
        `answer_tokens` (kept free for the answer) and `passages_dropped` (lowest-ranked, to fit)."""
        self.emit("memory", info)

    def error(self, code: ErrorCode, message: str, retryable: bool) -> None:
        data: StreamError = {"code": code, "message": message, "retryable": retryable}
        self.emit("error", data)

    def done(self, session_id: str, message_id: str) -> None:
        data: StreamDone = {"session_id": session_id, "message_id": message_id}
        self.emit("done", data)
