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

EventType = Literal["start", "thinking", "tool", "metadata", "text", "memory", "error", "done"]


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
    summary: NotRequired[str]  # what the tool found, once finished


class MemoryInfo(TypedDict):
    """How full the conversation's memory was for an answer: the `memory` line, stored with the answer."""

    used_chars: int
    budget_chars: int
    turns_kept: int
    turns_dropped: int


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
    StartLine | ThinkingLine | ToolLine | MetadataLine | TextLine | MemoryLine | ErrorLine | DoneLine,
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

    def thinking(self, delta: str) -> None:
        self.emit("thinking", delta)

    def tool(self, call_id: str, name: str, args: dict[str, Any], status: Literal["started", "finished"],
             summary: str | None = None) -> None:
        data: ToolCallEvent = {"id": call_id, "name": name, "args": args, "status": status}
        if summary is not None:
            data["summary"] = summary
        self.emit("tool", data)

    def metadata(self, citation: dict[str, Any]) -> None:
        self.emit("metadata", citation)

    def text(self, delta: str) -> None:
        self.emit("text", delta)

    def memory(self, info: MemoryInfo) -> None:
        self.emit("memory", info)

    def error(self, code: ErrorCode, message: str, retryable: bool) -> None:
        data: StreamError = {"code": code, "message": message, "retryable": retryable}
        self.emit("error", data)

    def done(self, session_id: str, message_id: str) -> None:
        data: StreamDone = {"session_id": session_id, "message_id": message_id}
        self.emit("done", data)
