"""The Ollama client wrapper: chat (streamed or not, with tools, thinking and JSON-schema format),
embeddings and the model list — with failures turned into `ModelUnavailable` / `ModelError`.

Only this package imports `ollama`. Sync methods serve DBOS steps and thread-pool code; async methods
serve the streaming chat, where cancelling the consuming task closes the HTTP stream to Ollama.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import numpy as np
import ollama

from backend.llm.embedders import l2_normalise
from backend.llm.errors import ModelError, ModelUnavailable

log = logging.getLogger(__name__)

Message = Mapping[str, Any]


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


class LLMClient:
    def __init__(self, host: str, chat_model: str, embed_model: str, timeout_s: float) -> None:
        self.host = host
        self.chat_model = chat_model
        self.embed_model = embed_model
        self._sync = ollama.Client(host=host, timeout=timeout_s)
        self._async = ollama.AsyncClient(host=host, timeout=timeout_s)
        self._status_client = ollama.Client(host=host, timeout=3.0)

    # -- model list ---------------------------------------------------------------------------
    def status(self) -> ModelStatus:
        try:
            listing = self._status_client.list()
        except (ConnectionError, httpx.HTTPError, ollama.ResponseError) as exc:
            return ModelStatus(reachable=False, models=[], error=str(exc))
        return ModelStatus(reachable=True, models=[m.model for m in listing.models if m.model])

    def require(self, model: str) -> None:
        """Raise ModelUnavailable unless Ollama is up and `model` is pulled."""
        status = self.status()
        if not status.reachable:
            raise self._unreachable()
        if not status.has(model):
            raise _not_pulled(model)

    # -- chat ---------------------------------------------------------------------------------
    def chat(self, messages: Sequence[Message], **kwargs: Any) -> ChatDelta:
        args = self._chat_args(messages, stream=False, **kwargs)
        try:
            return _delta(self._sync.chat(**args))
        except Exception as exc:
            raise self._translate(exc, args["model"]) from exc

    def chat_stream_sync(self, messages: Sequence[Message], **kwargs: Any) -> Iterator[ChatDelta]:
        args = self._chat_args(messages, stream=True, **kwargs)
        try:
            for part in self._sync.chat(**args):
                yield _delta(part)
        except Exception as exc:
            raise self._translate(exc, args["model"]) from exc

    async def achat(self, messages: Sequence[Message], **kwargs: Any) -> ChatDelta:
        args = self._chat_args(messages, stream=False, **kwargs)
        try:
            return _delta(await self._async.chat(**args))
        except Exception as exc:
            raise self._translate(exc, args["model"]) from exc

    async def achat_stream(self, messages: Sequence[Message], **kwargs: Any) -> AsyncIterator[ChatDelta]:
        args = self._chat_args(messages, stream=True, **kwargs)
        try:
            async for part in await self._async.chat(**args):
                yield _delta(part)
        except Exception as exc:
            raise self._translate(exc, args["model"]) from exc

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
        vectors = np.asarray(response.embeddings, dtype=np.float32)
        if vectors.shape[0] != len(texts):
            raise ModelError(f"Embedding model {name} returned {vectors.shape[0]} vectors for {len(texts)} texts")
        return l2_normalise(vectors)

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
            return ModelError(f"Ollama error: {exc.error}", retryable=exc.status_code >= 500)
        if isinstance(exc, httpx.TimeoutException):
            return ModelError(f"Ollama did not answer in time ({type(exc).__name__}).")
        if isinstance(exc, httpx.HTTPError):
            return ModelError(f"Connection to Ollama failed: {exc}")
        return exc


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
