"""The chat stream's wire format (DESIGN §5): one `{"type", "data"}` JSON object per line.

`EventChannel` connects the task that produces a chat answer to the HTTP response that sends it: the
producer calls the typed `emit_*` methods (which never block), the response iterates the encoded lines.
The channel knows nothing about HTTP, so the producer can be cancelled or tested on its own.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any, Literal

EventType = Literal["start", "thinking", "tool", "metadata", "text", "memory", "error", "done"]
MEDIA_TYPE = "application/x-ndjson"


def encode(kind: EventType, data: Any) -> bytes:
    """One NDJSON line; compact, UTF-8, never containing a raw newline except its terminator."""
    return (json.dumps({"type": kind, "data": data}, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


class EventChannel:
    def __init__(self) -> None:
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._closed = False

    def emit(self, kind: EventType, data: Any) -> None:
        if not self._closed:
            self._queue.put_nowait(encode(kind, data))

    def close(self) -> None:
        """No more lines; the consumer finishes after draining what is queued."""
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(None)

    async def lines(self) -> AsyncIterator[bytes]:
        """Encoded lines as they come; lines already waiting are sent together (fewer writes under load)."""
        while (line := await self._queue.get()) is not None:
            batch = [line]
            while not self._queue.empty():
                waiting = self._queue.get_nowait()
                if waiting is None:
                    yield b"".join(batch)
                    return
                batch.append(waiting)
            yield b"".join(batch)

    # -- the event types of DESIGN §5 -----------------------------------------------------------------
    def start(self, session_id: str, message_id: str, user_message_id: str) -> None:
        self.emit("start", {"session_id": session_id, "message_id": message_id,
                            "user_message_id": user_message_id})

    def thinking(self, delta: str) -> None:
        self.emit("thinking", delta)

    def tool(self, call_id: str, name: str, args: dict[str, Any], status: Literal["started", "finished"],
             summary: str | None = None) -> None:
        data: dict[str, Any] = {"id": call_id, "name": name, "args": args, "status": status}
        if summary is not None:
            data["summary"] = summary
        self.emit("tool", data)

    def metadata(self, citation: dict[str, Any]) -> None:
        self.emit("metadata", citation)

    def text(self, delta: str) -> None:
        self.emit("text", delta)

    def memory(self, used_chars: int, budget_chars: int, turns_kept: int, turns_dropped: int) -> None:
        self.emit("memory", {"used_chars": used_chars, "budget_chars": budget_chars,
                             "turns_kept": turns_kept, "turns_dropped": turns_dropped})

    def error(self, code: str, message: str, retryable: bool) -> None:
        self.emit("error", {"code": code, "message": message, "retryable": retryable})

    def done(self, session_id: str, message_id: str) -> None:
        self.emit("done", {"session_id": session_id, "message_id": message_id})
