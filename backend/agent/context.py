"""Request-local state of one chat answer: the app's services, the scope and the citation accumulator.

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
from backend.context import AppContext
from backend.llm.budget import UNKNOWN_CONTEXT_TOKENS
from backend.retrieval.types import Scope


@dataclass
class RequestState:
    app: AppContext
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
