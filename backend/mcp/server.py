"""The MCP server: Quire's tools and document resources, described for the models that choose them.

Every tool takes the services it uses from the process's `Services`, which the server is handed as a
function (`services`): the web app gives its app's, the stdio process the ones it started. A `QuireError`
becomes a tool error whose text is the API's error body (`{"error": {"code", "message", "details"?}}`),
so an agent sees the same codes a browser would.
Write tools are registered only when `QUIRE_MCP_ALLOW_WRITES` is on.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Annotated, Any, Literal, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from backend.config import APPLICATION_VERSION, Settings
from backend.errors import QuireError, error_body
from backend.mcp import asking, vault, writes
from backend.retrieval.types import SearchMode
from backend.services import Services
from backend.study.schemas import Difficulty

P = ParamSpec("P")
T = TypeVar("T")

INSTRUCTIONS = (
    "Quire is the user's personal study vault: their own documents (lecture notes, slides, papers, books), "
    "flashcard decks and quizzes. Use `search` to find passages and cite them as filename + page; use `ask` "
    "when you want Quire's own assistant to answer from the documents with numbered citations. Document ids "
    "come from `list_documents` or `search`."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

DocumentIds = Annotated[list[str] | None, Field(
    description="Limit to these documents (ids from list_documents or search); omit for the whole vault.",
    max_length=100)]
Categories = Annotated[list[str] | None, Field(
    description="Limit to documents in these categories (names from list_documents); omit for all.",
    max_length=100)]


def _tool_error(exc: QuireError) -> ToolError:
    return ToolError(json.dumps(error_body(exc.code, exc.message, exc.details), ensure_ascii=False))


def _shaped(fn: Callable[P, T]) -> Callable[P, T]:
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return fn(*args, **kwargs)
        except QuireError as exc:
            raise _tool_error(exc) from exc

    return wrapper


def _shaped_async(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except QuireError as exc:
            raise _tool_error(exc) from exc

    return wrapper


ServicesSource = Callable[[], Services]


def build_server(settings: Settings, services: ServicesSource,
                 lifespan: Callable[[MCPServer[Any]], AbstractAsyncContextManager[Any]] | None = None,
                 ) -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer("quire", title="Quire study vault", instructions=INSTRUCTIONS,
                                       version=APPLICATION_VERSION, lifespan=lifespan,
                                       log_level=_sdk_log_level(settings.log_level))
    _read_tools(server, services)
    _resources(server, services)
    if settings.mcp_allow_writes:
        _write_tools(server, services)
    return server


def _sdk_log_level(level: str) -> Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]:
    upper = level.upper()
    return upper if upper in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL") else "WARNING"  # type: ignore[return-value]


def _read_tools(server: MCPServer[Any], services: ServicesSource) -> None:
    @server.tool(annotations=READ_ONLY)
    @_shaped
    def search(
        query: Annotated[str, Field(description="What to look for: a question or keywords.", max_length=1000)],
        k: Annotated[int, Field(description="How many passages to return.", ge=1, le=50)] = 8,
        document_ids: DocumentIds = None,
        categories: Categories = None,
        mode: Annotated[SearchMode, Field(description="hybrid (default: meaning + keywords), dense (meaning "
                                                      "only) or sparse (exact keywords only).")] = "hybrid",
    ) -> vault.SearchResult:
        """Search the user's documents and return the best-matching passages, each with its document,
        page (or slide), section, a snippet and a score. Use it to ground an answer in the user's own
        material and cite filename + page. Scope it with document_ids and/or categories. A passage that a
        document repeats comes once, at its first place; also_at lists its other places."""
        running = services()
        return vault.search(running.db, running.search, query, k, document_ids, categories, mode)

    @server.tool(annotations=READ_ONLY)
    @_shaped
    def list_documents(
        category: Annotated[str | None, Field(description="Only this category.", max_length=200)] = None,
    ) -> list[vault.DocumentInfo]:
        """List the documents in the vault (newest first): id, file name, category, kind, pages, ingestion
        status (queued, ingesting, ready, failed) and number of passages. Use the ids with the other tools."""
        return vault.list_documents(services().library, category)

    @server.tool(annotations=READ_ONLY)
    @_shaped
    def read_document(
        document_id: Annotated[str, Field(description="The document's id (from list_documents or search).")],
        first_page: Annotated[int | None, Field(description="First page (or slide) to read, 1-based.", ge=1)] = None,
        last_page: Annotated[int | None, Field(description="Last page (or slide) to read, inclusive.", ge=1)] = None,
        offset: Annotated[int, Field(description="Skip this many passages of the range (to continue a "
                                                 "read of a document without pages).", ge=0)] = 0,
        max_chars: Annotated[int, Field(description="At most this many characters.", ge=200,
                                        le=vault.MAX_READ_CHARS)] = 8000,
    ) -> vault.DocumentText:
        """Read a document's text in order, with [page N] markers, optionally only a page range. The result
        is bounded by max_chars; when `truncated` is true, continue from `next_page` (or `next_offset`)."""
        return vault.read_document(services().library, document_id, first_page, last_page, offset, max_chars)

    @server.tool(annotations=READ_ONLY)
    @_shaped
    def read_passage(
        document_id: Annotated[str, Field(description="The passage's document id (from search).")],
        block_id: Annotated[str, Field(description="The passage's block_id (from search or an ask citation).",
                                       max_length=200)],
        context: Annotated[int, Field(description="Neighbouring passages to include on each side.", ge=0,
                                      le=vault.PASSAGE_CONTEXT)] = 1,
    ) -> vault.PassageText:
        """Read one passage in full (search only returns snippets), with the passages around it."""
        return vault.read_passage(services().library, document_id, block_id, context)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    @_shaped_async
    async def ask(
        question: Annotated[str, Field(description="The question, in the user's words.", min_length=1,
                                       max_length=20_000)],
        document_ids: DocumentIds = None,
        categories: Categories = None,
        session_id: Annotated[str | None, Field(description="Continue this earlier ask conversation "
                                                            "(its session_id) for a follow-up.")] = None,
    ) -> asking.Answer:
        """Ask Quire's own study assistant, which searches and reads the user's documents itself and answers
        in Markdown with numbered citations [n] (document + page). Slower than `search` (it runs the local
        chat model); fails with code model_unavailable when no model is running. The exchange is kept in
        Quire's chat history."""
        return await asking.ask(services().chat, question, document_ids, categories, session_id)

    @server.tool(annotations=READ_ONLY)
    @_shaped
    def due_flashcards(
        deck_id: Annotated[str | None, Field(description="Only this deck (id from list_study_items).")] = None,
        limit: Annotated[int, Field(description="At most this many cards.", ge=1, le=200)] = 20,
    ) -> vault.DueCards:
        """Flashcards due for review now (most overdue first) across all decks or one deck: front, back,
        tags and the source pages. Good for quizzing the user; reviews are recorded in Quire itself."""
        return vault.due_flashcards(services().db, deck_id, limit)

    @server.tool(annotations=READ_ONLY)
    @_shaped
    def list_study_items(
        kind: Annotated[Literal["quiz", "deck", "workshop", "mindmap"] | None,
                        Field(description="Only this kind; omit for all.")] = None,
    ) -> list[vault.StudyItem]:
        """List the user's study material (newest first): quizzes, flashcard decks (with due counts),
        workshops and mind maps."""
        return vault.list_study_items(services().db, kind)


def _resources(server: MCPServer[Any], services: ServicesSource) -> None:
    @server.resource("quire://documents/{document_id}", name="document", mime_type="text/plain",
                     description="A document's text with [page N] markers (the first "
                                 f"{vault.MAX_READ_CHARS:,} characters; use read_document for the rest).")
    def document(document_id: str) -> str:
        try:
            text = vault.read_document(services().library, document_id, None, None, 0, vault.MAX_READ_CHARS)
        except QuireError as exc:
            raise ResourceError(f"{exc.code}: {exc.message}") from exc
        note = f"\n\n[truncated: continue with read_document from page {text.next_page}]" if text.truncated else ""
        return f"# {text.filename}\n\n{text.text}{note}"


def _write_tools(server: MCPServer[Any], services: ServicesSource) -> None:
    writing = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    @server.tool(annotations=writing)
    @_shaped
    def upload_document(
        filename: Annotated[str, Field(description="File name, e.g. notes.md (its content decides how it is read).",
                                       min_length=1, max_length=255)],
        text: Annotated[str | None, Field(description="The content of a text file (Markdown, plain text).")] = None,
        content_base64: Annotated[str | None, Field(description="The bytes of a binary file (PDF, DOCX, ...), "
                                                                "base64-encoded; at most 5 MB.")] = None,
        category: Annotated[str | None, Field(description="Category to file it under.", max_length=200)] = None,
    ) -> dict[str, Any]:
        """Add a document to the user's vault. It is validated like an upload and ingested in the
        background (status queued → ready; check with list_documents). Give `text` or `content_base64`."""
        outcome = writes.upload_document(services().uploads, filename, text, content_base64, category)
        return {"workflow_id": outcome.workflow_id, "documents": [
            {"id": d.id, "filename": d.filename, "status": d.status, "kind": d.kind, "read_as": d.read_as}
            for d in outcome.documents]}

    @server.tool(annotations=writing)
    @_shaped
    def generate_quiz(
        document_ids: DocumentIds = None,
        categories: Categories = None,
        count: Annotated[Literal[5, 10, 20], Field(description="Number of questions.")] = 10,
        difficulty: Annotated[Difficulty, Field(description="beginner, intermediate or advanced.")] = "intermediate",
    ) -> dict[str, Any]:
        """Start generating a multiple-choice quiz from the user's documents (scoped or the whole vault).
        Runs in the background with the local model; the quiz appears in list_study_items when done."""
        job = writes.generate_quiz(services().study, document_ids or [], categories or [], count, difficulty)
        return job.model_dump(mode="json")
