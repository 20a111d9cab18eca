"""Telling a slow model server from a stuck one.

Ollama writes nothing while it reads a prompt — a cold 1,270-token prompt took 101 s on a CPU-only
machine at low load, far longer under load — and then a line per token. So a streamed reply is watched
for silence, not timed as a whole: once lines flow, `silence_s` without one means the server is stuck;
before the first line the model is reading, and it gets `silence_s` plus a second per
`READING_TOKENS_PER_S` tokens of the prompt (a busy CPU's pace, about a sixth of the measured one).
Generating, however long, is progress and never ends a reply.

The watched stream can also tick (`Waiting` every `tick_s` of silence), so a caller can tell its user
that the model is still reading.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from typing import TypeVar

from backend.llm.errors import ModelStalled

READING_TOKENS_PER_S = 2.0
T = TypeVar("T")


@dataclass(frozen=True)
class Patience:
    silence_s: float  # the longest silence of a server that is writing a reply

    def reading_s(self, prompt_tokens: int) -> float:
        """How long the first line of a reply to a prompt of `prompt_tokens` tokens may take."""
        return self.silence_s + prompt_tokens / READING_TOKENS_PER_S


@dataclass(frozen=True)
class Waiting:
    """No line yet for `seconds` (a tick of a watched stream)."""

    seconds: float
    reading: bool  # no line at all yet: the model is still reading the prompt


async def watch(lines: AsyncIterator[T], first_s: float, silence_s: float,
                tick_s: float | None = None) -> AsyncGenerator[T | Waiting]:
    """`lines` as they come, `ModelStalled` after `first_s` without a first line or `silence_s` without a
    next one; a `Waiting` every `tick_s` of silence when asked. The pending read is never cancelled by a
    tick, only when the watch ends (stalled, closed or cancelled)."""
    iterator = aiter(lines)
    pending: asyncio.Future[T] | None = None
    since = started = time.monotonic()
    reading = True
    try:
        while True:
            if pending is None:
                pending = asyncio.ensure_future(anext(iterator))
            limit = first_s if reading else silence_s
            wait = limit - (time.monotonic() - since)
            done, _ = await asyncio.wait({pending}, timeout=min(wait, tick_s) if tick_s else wait)
            if not done:
                waited = time.monotonic() - since
                if waited >= limit:
                    raise ModelStalled(waited, reading, time.monotonic() - started)
                if tick_s:
                    yield Waiting(round(waited, 1), reading)
                continue
            try:
                line = pending.result()
            except StopAsyncIteration:
                return
            finally:
                pending = None
            since, reading = time.monotonic(), False
            yield line
    finally:
        if pending is not None and not pending.done():
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration, Exception):
                await pending
        closer = getattr(iterator, "aclose", None)
        if closer is not None:
            with contextlib.suppress(Exception):
                await closer()
