"""Request-local state of one chat answer: the services it uses, the scope and the citation accumulator.

It lives in a ContextVar set by the task that answers the request. asyncio tasks and worker threads
started from that task inherit a copy of the context, so tools see their own request's scope and
concurrent chats never see each other's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from backend.agent.citations import CitationAccumulator
from backend.config import Settings
from backend.llm.budget import UNKNOWN_CONTEXT_TOKENS
from backend.llm.client import LLMClient
from backend.llm.prompts import PromptLibrary
from backend.progress.events import Activity
from backend.retrieval.service import SearchService
from backend.retrieval.types import Scope
from backend.store.db import Database


@dataclass(frozen=True)
class ChatServices:
    """What answering a chat uses; built once per process by its entry point (backend/app.py)."""

    db: Database
    search: SearchService
    llm: LLMClient
    prompts: PromptLibrary
    activity: Activity  # a question is study activity: the badges it earns are judged after the answer
    settings: Settings  # the memory budget, the model's timeout, OCR languages and the sandbox's limits

    @property
    def embed_model(self) -> str:
        """The embedding model whose vectors searches use, as recorded with each vector."""
        return self.search.embed_model


@dataclass
class RequestState:
    services: ChatServices
    scope: Scope
    citations: CitationAccumulator = field(default_factory=CitationAccumulator)
    context_tokens: int = UNKNOWN_CONTEXT_TOKENS  # the chat model's `num_ctx`: tools calling it fit into it


_state: ContextVar[RequestState | None] = ContextVar("quire_chat_request", default=None)


@contextmanager
def request_state(state: RequestState) -> Iterator[RequestState]:
    token = _state.set(state)
    try:
        yield state
    finally:
        _state.reset(token)


def current() -> RequestState:
    state = _state.get()
    if state is None:
        raise RuntimeError("chat tools run only inside a chat request (no request state is set)")
    return state
