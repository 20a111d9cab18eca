"""The MCP `ask` tool: one question through Quire's own chat agent (the same path as `POST /api/chat`),
collected from its event stream into an answer with numbered citations.

The exchange is stored as a chat session like any other, so the user can read it in Quire later and a
follow-up can pass its `session_id`. When no model is available the agent's fallback (the best passages)
is not passed off as an answer: the tool fails with what to start or pull, and the passages as details.
"""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

import anyio.to_thread
import orjson
from pydantic import BaseModel

from backend.agent.chat import ChatInput, prepare_chat, run_chat
from backend.agent.citations import PassageRef
from backend.agent.context import ChatServices
from backend.agent.stream import EventChannel
from backend.errors import QuireError


class Citation(PassageRef):
    n: int


class Answer(BaseModel):
    answer: str  # Markdown; [n] markers refer to `citations`
    citations: list[Citation]
    session_id: str
    message_id: str
    # cited | uncited | not_covered | passages (backend/agent/grounding.py); None for small talk. Anything
    # but "cited" is not the documents' word: `grounding_note` says why.
    grounding: str | None = None
    grounding_note: str | None = None


async def ask(chat: ChatServices, question: str, document_ids: list[str] | None, categories: list[str] | None,
              session_id: str | None) -> Answer:
    if session_id is not None:
        try:
            session_id = str(UUID(session_id.strip()))
        except ValueError as exc:
            raise QuireError("invalid_session_id", "session_id must be the session_id an earlier ask returned.",
                             422) from exc
    request = ChatInput(message=question, session_id=session_id, document_ids=document_ids, categories=categories)
    prepared = await anyio.to_thread.run_sync(prepare_chat, chat, request)
    channel = EventChannel()
    producer = asyncio.create_task(run_chat(prepared, channel))
    text: list[str] = []
    citations: list[dict[str, Any]] = []
    error: dict[str, Any] | None = None
    grounding: dict[str, Any] = {}
    try:
        async for chunk in channel.lines():
            for line in chunk.splitlines():
                event = orjson.loads(line)
                if event["type"] == "text":
                    text.append(event["data"])
                elif event["type"] == "metadata":
                    citations.append(event["data"])
                elif event["type"] == "error":
                    error = event["data"]
                elif event["type"] == "grounding":
                    grounding = event["data"]
        await producer
    finally:
        producer.cancel()  # the MCP request was cancelled: stop the model calls too (the turn is kept)
    if error is not None:
        _raise(error, citations)
    return Answer(answer="".join(text), citations=[Citation.model_validate(c) for c in citations],
                  session_id=prepared.start.session_id, message_id=prepared.start.message_id,
                  grounding=grounding.get("status"), grounding_note=grounding.get("message"))


def _raise(error: dict[str, Any], citations: list[dict[str, Any]]) -> None:
    if error["code"] == "model_unavailable":
        passages = [{k: c[k] for k in ("n", "document_id", "filename", "page", "snippet")} for c in citations]
        raise QuireError("model_unavailable", f"No chat model is available, so Quire cannot answer. "
                         f"{error['message']} The search tool still works without a model.", 503,
                         details={"passages": passages} if passages else None)
    raise QuireError(error["code"], error["message"], 502 if error.get("retryable") else 500)
