"""The Ollama client wrapper: chat (streamed or not, with tools, thinking and JSON-schema format),
embeddings, the model list and each model's facts (`/api/show`) — with failures turned into
`ModelUnavailable` / `ModelError`.

Only this package imports `ollama`. Sync methods serve DBOS steps and thread-pool code; async methods
serve the streaming chat, where cancelling the consuming task closes the HTTP stream to Ollama.

Every chat call streams, also when the caller wants the whole reply: a streamed reply can be watched for
silence (backend/llm/patience.py), so a slow model is waited for and a stuck one noticed, where a
timeout on the whole reply would do neither. Sync chat calls run the async path in a private event loop
of the calling thread.

The async client sends its requests through aiohttp (`httpx-aiohttp` plugs it into the httpx client
the official `ollama` client is built on): a streamed call costs about a quarter less CPU than through
httpx's own transport (measured with a 30 KB conversation), and those calls are most of what a chat
turn spends outside the model (three per turn) and what limits how many answers stream at once
(scripts/bench_chat.py). An aiohttp session belongs to one event loop: one async client per loop.

Only the client's public API is used (`Client`/`AsyncClient` and their `chat`, `embed`, `list`, `show`, plus the
httpx `transport` argument they pass through): private internals of the pinned `ollama` could change
in any upgrade and break chat silently (tests/contract/test_no_private_internals.py keeps them out).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncGenerator, Coroutine, Iterator, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import httpx
import numpy as np
import ollama
from httpx_aiohttp import AiohttpTransport

from backend.llm.budget import prompt_tokens
from backend.llm.capabilities import ModelFacts, facts_from_show, refused_capability
from backend.llm.embedders import l2_normalise
from backend.llm.errors import CapabilityMissing, ModelError, ModelUnavailable
from backend.llm.patience import Patience, Waiting, watch

log = logging.getLogger(__name__)

Message = Mapping[str, Any]
T = TypeVar("T")
CONNECT_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ChatDelta:
    """One streamed piece of a model reply (or a whole reply when not streamed)."""

    content: str = ""
    thinking: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    done: bool = False
    done_reason: str | None = None
    waiting_s: float | None = None  # a tick while the model is silent (only with `tick_s`): nothing else is set


@dataclass(frozen=True)
class ModelStatus:
    reachable: bool
    models: list[str]
    error: str | None = None

    def has(self, model: str) -> bool:
        return _model_present(model, self.models)


def _model_present(model: str, available: Sequence[str]) -> bool:
    wanted = model if ":" in model else f"{model}:latest"
    return any(name in (model, wanted) for name in available)


# The longest one request to the model server may take: long enough for a slow CPU to answer a long prompt.
MODEL_TIMEOUT_S = 120.0


class LLMClient:
    def __init__(self, host: str, chat_model: str, embed_model: str, timeout_s: float = MODEL_TIMEOUT_S) -> None:
        self.host = host
        self.chat_model = chat_model
        self.embed_model = embed_model
        self.timeout_s = timeout_s
        self.patience = Patience(silence_s=timeout_s)
        self._sync = ollama.Client(host=host, timeout=timeout_s)
        self._async_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ollama.AsyncClient] = (
            weakref.WeakKeyDictionary())
        self._status_client = ollama.Client(host=host, timeout=3.0)
        self._facts: dict[str, ModelFacts] = {}

    @property
    def _async(self) -> ollama.AsyncClient:
        """The async client of the running event loop (created on first use there)."""
        loop = asyncio.get_running_loop()
        client = self._async_by_loop.get(loop)
        if client is None:
            # No read timeout: replies are watched for silence instead (backend/llm/patience.py).
            timeout = httpx.Timeout(CONNECT_TIMEOUT_S, read=None, write=self.timeout_s, pool=None)
            client = ollama.AsyncClient(host=self.host, timeout=timeout, transport=_AiohttpTransport())
            self._async_by_loop[loop] = client
        return client

    async def aclose(self) -> None:
        """Close the running loop's async client (its aiohttp session and connections)."""
        client = self._async_by_loop.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.close()

    # -- model list ---------------------------------------------------------------------------
    def status(self, *, patient: bool = False) -> ModelStatus:
        """Ollama's models, asked with a 3-second limit for what only reports (health, the dashboard), or
        `patient`ly — as long as the server keeps answering, like every model call — where the answer
        decides whether work is accepted: a busy machine makes Ollama slow to list its models, not absent."""
        try:
            listing = (self._sync if patient else self._status_client).list()
        except (ConnectionError, httpx.HTTPError, ollama.ResponseError) as exc:
            return ModelStatus(reachable=False, models=[], error=str(exc))
        return ModelStatus(reachable=True, models=[m.model for m in listing.models if m.model])

    def require(self, model: str) -> None:
        """Raise ModelUnavailable unless Ollama is up and `model` is pulled."""
        status = self.status(patient=True)
        if not status.reachable:
            raise self._unreachable()
        if not status.has(model):
            raise _not_pulled(model)

    # -- model facts ------------------------------------------------------------------------------
    async def afacts(self, model: str | None = None) -> ModelFacts:
        """What `model` (default: the chat model) can do, from `/api/show` — read once per model."""
        name = model or self.chat_model
        if (known := self._facts.get(name)) is not None:
            return known
        try:
            shown = await self._async.show(name)
        except Exception as exc:
            raise self._translate(exc, name) from exc
        return self._facts.setdefault(name, facts_from_show(name, shown.capabilities, shown.modelinfo))

    def facts(self, model: str | None = None) -> ModelFacts:
        return self._in_private_loop(self.afacts(model))

    # -- chat ---------------------------------------------------------------------------------
    def chat(self, messages: Sequence[Message], **kwargs: Any) -> ChatDelta:
        return self._in_private_loop(self.achat(messages, **kwargs))

    def chat_stream_sync(self, messages: Sequence[Message], **kwargs: Any) -> Iterator[ChatDelta]:
        with asyncio.Runner() as runner:
            stream = self.achat_stream(messages, **kwargs)
            try:
                while True:
                    try:
                        yield runner.run(_next(stream))
                    except StopAsyncIteration:
                        return
            finally:
                runner.run(stream.aclose())
                runner.run(self.aclose())

    async def achat(self, messages: Sequence[Message], **kwargs: Any) -> ChatDelta:
        """The whole reply (streamed underneath, so that a stuck server is noticed)."""
        content: list[str] = []
        thinking: list[str] = []
        calls: list[ToolCall] = []
        last = ChatDelta()
        async with aclosing(self.achat_stream(messages, **kwargs)) as deltas:
            async for last in deltas:
                content.append(last.content)
                thinking.append(last.thinking)
                calls.extend(last.tool_calls)
        return ChatDelta(content="".join(content), thinking="".join(thinking), tool_calls=calls, done=last.done,
                         done_reason=last.done_reason)

    async def achat_stream(self, messages: Sequence[Message], *, tick_s: float | None = None,
                           **kwargs: Any) -> AsyncGenerator[ChatDelta]:
        """The reply as it streams; `ModelStalled` when the server falls silent for too long (reading the
        prompt is allowed for by its size), a `waiting_s` delta every `tick_s` of silence when asked."""
        args = self._chat_args(messages, stream=True, **kwargs)
        first_s = self.patience.reading_s(prompt_tokens(args["messages"], args["tools"]))
        try:
            lines = await self._async.chat(**args)
            async with aclosing(watch(lines, first_s, self.patience.silence_s, tick_s)) as watched:
                async for part in watched:
                    yield ChatDelta(waiting_s=part.seconds) if isinstance(part, Waiting) else _delta(part)
        except Exception as exc:
            raise self._translate(exc, args["model"]) from exc

    def _in_private_loop(self, work: Coroutine[Any, Any, T]) -> T:
        """Run async client work from sync code (a DBOS step's thread), closing the loop's client after."""

        async def run() -> T:
            try:
                return await work
            finally:
                await self.aclose()

        return asyncio.run(run())

    def _chat_args(
        self,
        messages: Sequence[Message],
        *,
        stream: bool,
        model: str | None = None,
        tools: Sequence[Mapping[str, Any]] | None = None,
        think: bool | None = None,
        format: Mapping[str, Any] | str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        return {
            "model": model or self.chat_model,
            "messages": list(messages),
            "tools": list(tools) if tools else None,
            "stream": stream,
            "think": think,
            "format": format,
            "options": dict(options) if options else None,
        }

    # -- embeddings ---------------------------------------------------------------------------
    def embed(self, texts: Sequence[str], model: str | None = None) -> np.ndarray:
        name = model or self.embed_model
        try:
            response = self._sync.embed(model=name, input=list(texts))
        except Exception as exc:
            raise self._translate(exc, name) from exc
        return _vectors(response, len(texts), name)

    async def aembed(self, texts: Sequence[str], model: str | None = None) -> np.ndarray:
        name = model or self.embed_model
        try:
            response = await self._async.embed(model=name, input=list(texts))
        except Exception as exc:
            raise self._translate(exc, name) from exc
        return _vectors(response, len(texts), name)

    # -- errors -------------------------------------------------------------------------------
    def _unreachable(self) -> ModelUnavailable:
        return ModelUnavailable(
            f"Ollama is not reachable at {self.host}.",
            "Start it with `ollama serve` (or set OLLAMA_HOST to where it runs).",
        )

    def _translate(self, exc: Exception, model: str) -> Exception:  # noqa: PLR0911 - a lookup table
        if isinstance(exc, ModelUnavailable | ModelError):
            return exc
        if isinstance(exc, ConnectionError | httpx.ConnectError):
            return self._unreachable()
        if isinstance(exc, ollama.ResponseError):
            if exc.status_code == 404 or "not found" in str(exc.error).lower():
                return _not_pulled(model)
            if exc.status_code == 400 and (capability := refused_capability(str(exc.error))) is not None:
                if (facts := self._facts.get(model)) is not None and facts.assumed:  # listed ones are trusted
                    self._facts[model] = facts.without(capability)
                return CapabilityMissing(f"{model} cannot do this: {exc.error}", capability)
            return ModelError(f"Ollama error: {exc.error}", retryable=exc.status_code >= 500)
        if isinstance(exc, httpx.TimeoutException):
            return ModelError(f"Ollama did not answer in time ({type(exc).__name__}).")
        if isinstance(exc, httpx.HTTPError):
            return ModelError(f"Connection to Ollama failed: {exc}")
        return exc


class _AiohttpTransport(AiohttpTransport):
    """httpx-aiohttp reports a refused connection as `httpx.ConnectTimeout`; httpx (and the `ollama`
    client, which turns it into ConnectionError) calls that `httpx.ConnectError`. Ollama not running must
    read as unreachable, not as slow."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except httpx.ConnectTimeout as exc:
            if isinstance(exc.__cause__, aiohttp.ClientConnectorError):
                raise httpx.ConnectError(str(exc), request=request) from exc.__cause__
            raise


def _vectors(response: Any, count: int, model: str) -> np.ndarray:
    vectors = np.asarray(response.embeddings, dtype=np.float32)
    if vectors.shape[0] != count:
        raise ModelError(f"Embedding model {model} returned {vectors.shape[0]} vectors for {count} texts")
    return l2_normalise(vectors)


async def _next(stream: AsyncGenerator[T]) -> T:
    return await anext(stream)


def _not_pulled(model: str) -> ModelUnavailable:
    return ModelUnavailable(f"The model {model} is not available in Ollama.", f"Pull it with `ollama pull {model}`.")


def _delta(response: Any) -> ChatDelta:
    message = response.message
    calls = [
        ToolCall(name=call.function.name, arguments=dict(call.function.arguments or {}))
        for call in (message.tool_calls or [])
    ]
    return ChatDelta(
        content=message.content or "",
        thinking=message.thinking or "",
        tool_calls=calls,
        done=bool(response.done),
        done_reason=response.done_reason,
    )
