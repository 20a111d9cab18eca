"""Tool calls written as text: found in any streamed split, executed or dropped, never shown; other text
(JSON that is no call, code fences, braces in prose) passes through unchanged."""

from __future__ import annotations

import json

import pytest

from backend.agent.disguise import CallFilter
from backend.llm.client import ToolCall

TOOLS = ["search_knowledge_base", "calculator"]
CALL = {"name": "search_knowledge_base", "arguments": {"query": "enzymes temperature"}}
SEARCH = ToolCall("search_knowledge_base", {"query": "enzymes temperature"})


def run(text: str, size: int) -> tuple[str, list[ToolCall], int]:
    """Stream `text` in pieces of `size` characters through a filter."""
    calls = CallFilter(TOOLS)
    shown = "".join(calls.feed(text[i : i + size]) for i in range(0, len(text), size)) + calls.finish()
    return shown, calls.calls, calls.dropped


@pytest.mark.parametrize("size", [1, 3, 7, 1000])
@pytest.mark.parametrize(("text", "shown"), [
    (json.dumps(CALL), ""),
    (f"<tool_call>\n{json.dumps(CALL)}\n</tool_call>", ""),
    (f"Let me look that up.\n<tool_call>\n{json.dumps(CALL)}\n</tool_call>", "Let me look that up.\n"),
    (f"I will search.\n{json.dumps(CALL)}", "I will search.\n"),
    ('{"name": "search_knowledge_base", "parameters": {"query": "enzymes temperature"}}', ""),  # Llama's key
    (f"```json\n{json.dumps(CALL)}\n```", ""),
    (f"[TOOL_CALLS] [{json.dumps(CALL)}]", ""),
    (json.dumps({"function": {"name": "search_knowledge_base", "arguments": json.dumps(CALL["arguments"])}}), ""),
])
def test_a_call_in_disguise_is_taken_not_shown(text: str, shown: str, size: int) -> None:
    assert run(text, size) == (shown, [SEARCH], 0)


@pytest.mark.parametrize("size", [1, 4, 1000])
@pytest.mark.parametrize("text", [
    "Enzymes work best near 37 °C [1].",
    'The config is:\n{"debug": true, "level": 3}\nand that is all.',
    "```python\nprint({'a': 1})\n```",
    "A set {a, b} has two elements.\n{not json at all} here.",
    "[1] says so, and [2] agrees.",
    "Some text with < and <tool in it, and [TOOL] too.",
    "Unclosed { brace at the end",
])
def test_other_text_passes_unchanged(text: str, size: int) -> None:
    assert run(text, size) == (text, [], 0)


def test_a_call_of_an_unknown_tool_is_dropped_and_a_tag_never_shown() -> None:
    assert run('{"name": "web_search", "arguments": {"q": "x"}}', 5) == ("", [], 1)
    assert run("<tool_call>not json at all</tool_call>Answer.", 5) == ("Answer.", [], 0)
    assert run("Answer.<tool_call>{broken", 5) == ("Answer.", [], 0)


def test_text_after_a_call_still_streams() -> None:
    calls = CallFilter(TOOLS)
    assert calls.feed(json.dumps(CALL)) == ""
    assert calls.feed("\nThe notes say 37 °C.") == "\nThe notes say 37 °C."
    assert calls.calls == [SEARCH]
