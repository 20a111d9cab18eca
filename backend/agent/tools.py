"""The chat agent's tools. Each is a typed function whose docstring is what the model reads about it;
`chat_tools()` builds the one registry. Tools read the request's scope from `context.current()`, so
every tool sees only the documents the user scoped the conversation to.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime

import anyio.to_thread

from backend.agent import calculator as calc
from backend.agent.citations import Source
from backend.agent.context import RequestState, current
from backend.agent.documents import Material, document_material, resolve_document, scoped_documents
from backend.agent.quoting import RankedPassages, fence
from backend.agent.reading import reading_notice, still_reading
from backend.agent.registry import Tool, ToolFailure, ToolOutput, ToolRegistry
from backend.llm.budget import answer_tokens, chars_of
from backend.llm.errors import ModelError, ModelUnavailable
from backend.wording import plural

SEARCH_K = 7
MAX_PASSAGE_CHARS = 1500
MAX_LISTED_DOCUMENTS = 200
ANALYZE_MAX_CHARS = 24_000
COMPARE_MAX_CHARS = 12_000  # per document
PROMPT_RESERVE_TOKENS = 700  # an analysis prompt's own words, around the document


async def search_sources(state: RequestState, query: str, k: int = SEARCH_K) -> tuple[list[Source], str | None]:
    """The best passages for `query` within the request's scope, and the search's notice (if degraded).
    Those judged to cover the question come first, each side in the search's order: a passage that shares
    the question's common words but lacks its subject ("data" without "penguin") may be fused above the
    table that answers it, and must not be the first a model reads and cites."""
    result = await state.services.search.asearch(query, k, scope=state.scope)
    return sorted((Source.from_hit(hit) for hit in result.hits), key=lambda s: not s.relevant), result.notice


async def search_knowledge_base(query: str) -> ToolOutput:
    """Search the user's documents for passages relevant to a question (hybrid keyword and semantic
    search, best 7 passages). Call it before answering anything about the documents' content; search
    again with other words if the first results miss.

    Args:
        query: What to look for, in a few specific words (names, terms, numbers from the question).
    """
    query = query.strip()
    if not query:
        raise ToolFailure("the query is empty")
    state = current()
    sources, notice = await search_sources(state, query)
    if not any(s.relevant for s in sources) and (reading := await anyio.to_thread.run_sync(still_reading, state)):
        # Not covered may not be true yet: say what is (the closest passages still go to the user only).
        told = reading_notice(reading)
        text = (f'Nothing found for "{query}" yet: {told}. Tell the user exactly that; do not say that their '
                "documents do not cover it.")
        return ToolOutput(summary=told.split(" — ")[0], render=lambda _numbers: text, sources=tuple(sources))
    if not sources:
        text = f'No passage in the documents matches "{query}".' + (f" ({notice})" if notice else "")
        return ToolOutput.plain(text, "no passages found")
    if not any(s.relevant for s in sources):
        # The closest passages still go to the user (behind "show closest passages anyway"), not to the
        # model: what it cannot read, it cannot pass off as the documents' answer.
        text = (f'Nothing in the documents covers "{query}": the closest passages share too little with it to '
                "answer from. Search again with other words if the question may be worded differently from "
                "the documents; otherwise tell the user that their documents do not cover this.")
        return ToolOutput(summary="nothing relevant found", render=lambda _numbers: text, sources=tuple(sources))

    def ranked(numbers: Sequence[int]) -> RankedPassages:
        heading = f'Search results for "{query}": {len(sources)} passages.' + (f" Note: {notice}" if notice else "")
        labelled = [(n, s.where(), s.text[:MAX_PASSAGE_CHARS]) for n, s in zip(numbers, sources, strict=True)]
        return RankedPassages(heading, labelled)

    files = len({s.document_id for s in sources})
    summary = f"{plural(len(sources), 'passage')} from {plural(files, 'document')}"
    return ToolOutput(summary=summary, render=lambda numbers: ranked(numbers).render(), sources=tuple(sources),
                      ranked=ranked)


def list_documents() -> ToolOutput:
    """List the documents available in this conversation: file name, id, category, pages and status."""
    documents = scoped_documents(current())
    if not documents:
        return ToolOutput.plain("There are no documents available in this conversation.", "no documents")
    lines = [
        f"- {d['filename']} (id {d['id']}; category {d['category'] or 'none'}; "
        f"{d['pages'] if d['pages'] is not None else '?'} pages; {d['status']})"
        for d in documents[:MAX_LISTED_DOCUMENTS]
    ]
    if len(documents) > MAX_LISTED_DOCUMENTS:
        lines.append(f"... and {len(documents) - MAX_LISTED_DOCUMENTS} more.")
    count = f"{len(documents)} document{'s' if len(documents) != 1 else ''}"
    return ToolOutput.plain(f"{count}:\n" + "\n".join(lines), count)


async def analyze_document(document: str) -> ToolOutput:
    """Analyse one whole document: main topics, named entities, key facts and a short summary. Use it
    for overview questions about a single document ("what is X about?").

    Args:
        document: The document's file name (as list_documents shows it) or its id.
    """
    state = current()
    material = await _material(state, document, _fitting(state, ANALYZE_MAX_CHARS))
    prompt = state.services.prompts.render(
        "analyze_document", filename=material.filename, note=material.note,
        document=fence("document", material.text, name=material.filename),
    )
    analysis = await _ask_model(state, prompt)

    def render(numbers: Sequence[int]) -> str:
        return (f"Analysis of [{numbers[0]}] {material.filename} (written from the document's text; "
                f"cite it as [{numbers[0]}]):\n{fence('analysis', analysis)}")

    return ToolOutput(summary=f"analysed {material.filename}", render=render, sources=(material.source,))


async def compare_documents(a: str, b: str, question: str = "") -> ToolOutput:
    """Compare two documents: what they share, where they differ or contradict each other, optionally
    focused on a question.

    Args:
        a: The first document's file name or id.
        b: The second document's file name or id.
        question: What the comparison should focus on (optional).
    """
    state = current()
    first = await _material(state, a, _fitting(state, COMPARE_MAX_CHARS, parts=2))
    second = await _material(state, b, _fitting(state, COMPARE_MAX_CHARS, parts=2))
    if first.source.document_id == second.source.document_id:
        raise ToolFailure(f"{a!r} and {b!r} are the same document")
    prompt = state.services.prompts.render(
        "compare_documents", question=question.strip() or "their content in general",
        a_name=first.filename, b_name=second.filename, note=" ".join(filter(None, (first.note, second.note))),
        a_document=fence("document", first.text, name=first.filename),
        b_document=fence("document", second.text, name=second.filename),
    )
    comparison = await _ask_model(state, prompt)

    def render(numbers: Sequence[int]) -> str:
        return (f"Comparison of [{numbers[0]}] {first.filename} and [{numbers[1]}] {second.filename} "
                f"(written from the documents' text):\n{fence('comparison', comparison)}")

    summary = f"compared {first.filename} and {second.filename}"
    return ToolOutput(summary=summary, render=render, sources=(first.source, second.source))


def calculator(expression: str) -> ToolOutput:
    """Evaluate an arithmetic expression exactly: + - * / // % ** and parentheses, sqrt, log, exp, sin,
    cos, tan, abs, round, min, max, pi, e. Use it for every calculation instead of computing in your head.

    Args:
        expression: The expression, e.g. "(17.5 - 3) * 2 ** 3".
    """
    try:
        value = calc.format_number(calc.evaluate(expression))
    except calc.CalculatorError as exc:
        raise ToolFailure(f"cannot evaluate {expression!r}: {exc}") from exc
    return ToolOutput.plain(f"{expression.strip()} = {value}", f"= {value}")


def current_time() -> ToolOutput:
    """The current local date, weekday, time and time zone."""
    now = datetime.now().astimezone()
    text = now.strftime("%A, %d %B %Y, %H:%M:%S") + f" (UTC{now.strftime('%z')[:3]}:{now.strftime('%z')[3:]})"
    return ToolOutput.plain(text, now.strftime("%Y-%m-%d %H:%M"))


def _fitting(state: RequestState, max_chars: int, parts: int = 1) -> int:
    """At most `max_chars` of a document, fewer when `parts` documents must share a smaller model context."""
    room = state.context_tokens - answer_tokens(state.context_tokens) - PROMPT_RESERVE_TOKENS
    return max(1000, min(max_chars, chars_of(room) // parts))


async def _material(state: RequestState, name: str, max_chars: int) -> Material:
    def gather() -> Material:
        return document_material(state, resolve_document(state, name), max_chars)

    return await anyio.to_thread.run_sync(gather, abandon_on_cancel=True)


async def _ask_model(state: RequestState, prompt: str) -> str:
    """A direct, non-streamed model call (not through the agent); cancelling the request cancels it."""
    try:
        reply = await state.services.llm.achat([{"role": "user", "content": prompt}],
                                          options={"temperature": 0.2, "num_ctx": state.context_tokens})
    except (ModelError, ModelUnavailable) as exc:
        raise ToolFailure(f"the model could not do this: {exc.message}") from exc
    if not reply.content.strip():
        raise ToolFailure("the model returned an empty analysis")
    return reply.content.strip()


@functools.cache
def chat_tools() -> ToolRegistry:
    """The registry. No tool has a time limit (backend/agent/registry.py says what bounds each); tools that
    call the model rely on the model client to tell a stuck server from a slow one (backend/llm/patience.py)."""
    return ToolRegistry([
        Tool.from_function(search_knowledge_base),
        Tool.from_function(list_documents),
        Tool.from_function(analyze_document),
        Tool.from_function(compare_documents),
        Tool.from_function(calculator),
        Tool.from_function(current_time),
    ])
