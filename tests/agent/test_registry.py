"""Tool schemas come from signatures and docstrings; calls are coerced, never cut off by a clock (a busy
machine makes a tool slow, not failed) yet cancelled at once with the turn, and every failure comes back as
words for the model instead of an exception."""

from __future__ import annotations

import asyncio
import time

import anyio

from backend.agent.registry import Tool, ToolFailure, ToolOutput, ToolRegistry
from backend.agent.tools import chat_tools


def lookup(term: str, limit: int = 3, exact: bool = False) -> ToolOutput:
    """Look a term up in the glossary.

    Args:
        term: The word to look up,
            spelled as in the text.
        limit: How many entries to return.
        exact: Only exact matches.
    """
    if term == "missing":
        raise ToolFailure("no such term")
    if term == "broken":
        raise RuntimeError("bug")
    return ToolOutput.plain(f"{term}|{limit}|{exact}", "ok")


def slow() -> ToolOutput:
    """Take a while."""
    time.sleep(1.5)
    return ToolOutput.plain("late", "late")


async def slow_async() -> ToolOutput:
    """Take a while, asynchronously."""
    await asyncio.sleep(1.5)
    return ToolOutput.plain("late", "late")


def run(tool: Tool, **args: object) -> ToolOutput:
    return asyncio.run(tool.run(args))


def test_schema_from_signature_and_docstring() -> None:
    schema = Tool.from_function(lookup).schema()
    assert schema["type"] == "function"
    function = schema["function"]
    assert function["name"] == "lookup"
    assert function["description"] == "Look a term up in the glossary."
    params = function["parameters"]
    assert params["required"] == ["term"]
    assert params["properties"]["term"] == {"type": "string",
                                            "description": "The word to look up, spelled as in the text."}
    assert params["properties"]["limit"]["type"] == "integer"
    assert params["properties"]["exact"]["type"] == "boolean"


def test_arguments_are_coerced_and_extra_ones_ignored() -> None:
    output = run(Tool.from_function(lookup), term=42, limit="7", exact="true", colour="blue")
    assert output.render([]) == "42|7|True"


def test_failures_become_text_for_the_model() -> None:
    tool = Tool.from_function(lookup)
    assert run(tool).render([]) == "Error: missing argument 'term'"
    assert run(tool, term="x", limit="many").render([]) == "Error: argument 'limit' must be a integer"
    missing = run(tool, term="missing")
    assert missing.render([]) == "Error: no such term"
    assert missing.summary == "failed: no such term"
    assert run(tool, term="broken").render([]) == "Error: lookup failed unexpectedly."


def test_a_slow_tool_is_waited_for_and_a_cancelled_one_is_not() -> None:
    for tool in (Tool.from_function(slow), Tool.from_function(slow_async)):
        assert run(tool).render([]) == "late"  # slower than any limit a test would set: still its answer

        async def cancelled(tool: Tool = tool) -> float:
            started = time.monotonic()
            with anyio.move_on_after(0.2):  # the user's Stop, as the chat turn's cancel scope delivers it
                await tool.run({})
            return time.monotonic() - started

        assert asyncio.run(cancelled()) < 1.0, f"{tool.name}: a cancelled tool must not be waited for"


def test_the_chat_registry_has_the_six_tools() -> None:
    registry = chat_tools()
    assert registry.names() == ["search_knowledge_base", "list_documents", "analyze_document",
                                "compare_documents", "calculator", "current_time"]
    assert isinstance(registry, ToolRegistry)
    for schema in registry.schemas():
        function = schema["function"]
        assert function["description"], function["name"]
        assert all(p["description"] for p in function["parameters"]["properties"].values()), function["name"]
    compare = registry.get("compare_documents")
    assert compare is not None
    assert compare.parameters["required"] == ["a", "b"]
