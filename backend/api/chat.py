"""Chat: `POST /api/chat` streams an answer as NDJSON (DESIGN §5); `/api/chat/sessions` lists, shows,
renames and deletes conversations. Bad input is a JSON error before the stream starts."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query, status
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from backend.agent import sessions
from backend.agent.attachments import MAX_ATTACHMENTS, AttachmentIn
from backend.agent.chat import MAX_MESSAGE_CHARS, ChatInput, prepare_chat, run_chat
from backend.agent.citations import ChatCitation
from backend.agent.stream import MEDIA_TYPE, EventChannel, MemoryInfo, ModelInfo
from backend.api.deps import ChatDep, DatabaseDep
from backend.store.chat import Grounding

router = APIRouter(prefix="/api/chat", tags=["chat"])
MAX_OFFSET = 1_000_000  # far beyond any real history; unbounded, a huge offset overflowed Postgres (a 500)


class ChatScope(BaseModel):
    document_ids: list[str] | None = None
    categories: list[str] | None = None


class ChatAttachment(BaseModel):
    name: str = Field(min_length=1, max_length=255)
    mime_type: str = Field("", max_length=255)
    data: str = Field(description="The file's bytes, base64-encoded (a data: URL is accepted too)")


class ChatRequest(BaseModel):
    session_id: UUID | None = None
    message: str = Field(max_length=MAX_MESSAGE_CHARS * 2)  # the exact limit applies to the stripped text
    scope: ChatScope | None = None
    attachments: list[ChatAttachment] = Field(default_factory=list, max_length=MAX_ATTACHMENTS)
    rewind_to_message_id: UUID | None = None
    reuse_attachments: bool = Field(False, description=(
        "With rewind_to_message_id: the rewound question's attachments (images and extracted documents) go "
        "with the new message too, in front of any new ones (the UI's regenerate action)."))


class ChatSessionOut(BaseModel):
    id: str
    title: str
    title_is_custom: bool
    scope: dict[str, Any]
    turns: int
    created_at: datetime
    updated_at: datetime


class ChatMessageOut(BaseModel):
    id: str
    turn: int
    seq: int
    role: str
    content: str
    tool_calls: list[dict[str, Any]] | None
    tool_call_id: str | None
    tool_name: str | None
    tool_summary: str | None
    citations: list[ChatCitation]
    thinking: str | None
    attachments: list[dict[str, Any]]
    scope: dict[str, Any] | None
    status: str
    error: dict[str, Any] | None
    memory: MemoryInfo | None = Field(description="Final answers only; null when the model was not used")
    grounding: Grounding | None = Field(
        None, description="Final answers only: cited (cites a relevant passage), uncited (cites none of the "
        "relevant passages found), not_covered (nothing relevant found), passages (the model did not answer; "
        "the passages stand in); null for small talk and older answers")
    model: ModelInfo | None = Field(None, description="Final answers only; null when the model was not reached")
    created_at: datetime


class ChatSessionDetail(ChatSessionOut):
    messages: list[ChatMessageOut]


class ChatSessionRename(BaseModel):
    title: str = Field(max_length=sessions.MAX_TITLE_CHARS)


class NdjsonStream(StreamingResponse):
    """A streamed answer whose producer task is cancelled when the response ends for any reason —
    including a client that disconnects, which cancels the model calls in flight."""

    def __init__(self, channel: EventChannel, producer: asyncio.Task[None]) -> None:
        super().__init__(channel.lines(), media_type=MEDIA_TYPE,
                         headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        self.producer = producer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.producer.cancel()


@router.post("", response_class=StreamingResponse,
             responses={200: {"content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/ChatStreamLine"}}},
                              "description": "NDJSON: one `ChatStreamLine` a line (DESIGN §5)"}})
async def chat(body: ChatRequest, services: ChatDep) -> NdjsonStream:
    """Ask a question; the answer streams as NDJSON lines `{type, data}`: start, model, progress, thinking,
    tool, metadata, text, grounding, memory, error, done."""
    scope = body.scope or ChatScope()
    request = ChatInput(
        message=body.message, session_id=str(body.session_id) if body.session_id else None,
        document_ids=scope.document_ids, categories=scope.categories,
        attachments=[AttachmentIn(a.name, a.mime_type, a.data) for a in body.attachments],
        rewind_to=str(body.rewind_to_message_id) if body.rewind_to_message_id else None,
        reuse_attachments=body.reuse_attachments,
    )
    prepared = await run_in_threadpool(prepare_chat, services, request)
    channel = EventChannel()
    return NdjsonStream(channel, asyncio.create_task(run_chat(prepared, channel)))


@router.get("/sessions", response_model=list[ChatSessionOut])
def list_sessions(db: DatabaseDep, limit: Annotated[int, Query(ge=1, le=500)] = 100,
                  offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> list[dict[str, Any]]:
    return sessions.list_sessions(db, limit, offset)


@router.get("/sessions/{session_id}", response_model=ChatSessionDetail)
def get_session(session_id: UUID, db: DatabaseDep) -> dict[str, Any]:
    """The whole transcript: questions, tool calls and results, answers with citations and thinking."""
    return sessions.get_session(db, str(session_id))


@router.patch("/sessions/{session_id}", response_model=ChatSessionOut)
def rename_session(session_id: UUID, body: ChatSessionRename, db: DatabaseDep) -> dict[str, Any]:
    return sessions.rename_session(db, str(session_id), body.title)


@router.delete("/sessions/{session_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_session(session_id: UUID, db: DatabaseDep) -> None:
    sessions.delete_session(db, str(session_id))
