"""Tool calls in disguise: a model that writes its tool call as text instead of calling the tool.

Small local models often do — as bare JSON (`{"name": "search_knowledge_base", "arguments": {...}}`,
Llama's `"parameters"`), inside tags (`<tool_call>…</tool_call>` of Qwen/Hermes, `<|tool_call|>`,
`[TOOL_CALLS]`), or in a ```json fence. Such text is never the answer: `CallFilter` watches the streamed
text, holds back what may be a call until it can tell, and turns it into real `ToolCall`s (the loop runs
them) or drops it; everything else passes through as soon as it is safe to show.

What is held back: a tag, a `{` or `[` opening a line (or the text), a ``` fence opening a line. It is
released as text once it proves not to be a call (JSON that is no call, a fence holding something else,
a brace that opens no JSON) or once it grows past `MAX_HELD_CHARS` — no call is that long.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from backend.llm.client import ToolCall

MAX_HELD_CHARS = 4000
_TAGS = {"<tool_call>": "</tool_call>", "<|tool_call|>": None, "[TOOL_CALLS]": None,
         "<function_call>": "</function_call>", "<|python_tag|>": None}
_FENCE = "```"
# Where something that may be a call starts: a tag anywhere, or a brace/bracket/fence opening a line.
_START = re.compile("|".join(re.escape(tag) for tag in _TAGS) + r"|(?:^|(?<=\n))[ \t]*(?:[{\[]|```)")
_OPENERS = {"{": "}", "[": "]"}
_FENCED = re.compile(r"```[a-zA-Z]*\s*\n?(.*?)\n?```", re.DOTALL)
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input", "tool_input")


class CallFilter:
    """Feed the streamed text; get back what may be shown now. `finish()` settles what is left."""

    def __init__(self, tools: Iterable[str]) -> None:
        self.tools = set(tools)
        self.calls: list[ToolCall] = []
        self.dropped = 0  # disguised calls of tools that do not exist
        self._buffer = ""
        self._line_start = True  # the buffer begins a line (a brace there may open a call)

    def feed(self, delta: str) -> str:
        self._buffer += delta
        return self._settle(final=False)

    def finish(self) -> str:
        return self._settle(final=True)

    def _settle(self, final: bool) -> str:
        shown: list[str] = []
        while self._buffer:
            match = self._next_start()
            if match is None:
                keep = 0 if final else _partial_start(self._buffer)
                shown.append(self._show(self._buffer[: len(self._buffer) - keep]))
                break
            start = match.start() + (len(match.group()) - len(match.group().lstrip(" \t")))
            shown.append(self._show(self._buffer[:start]))
            decided = self._decide(final)
            if decided is None:  # undecided: wait for more text
                break
            shown.append(decided)
        return "".join(shown)

    def _next_start(self) -> re.Match[str] | None:
        for match in _START.finditer(self._buffer):
            if match.group() in _TAGS or match.start() > 0 or self._line_start:
                return match
        return None

    def _show(self, text: str) -> str:
        """Take `text` off the front of the buffer to be shown."""
        self._buffer = self._buffer[len(text) :]
        if text:
            self._line_start = text.endswith("\n")
        return text

    def _decide(self, final: bool) -> str | None:
        """Settle the held segment at the buffer's start: the text to show ("" for a call), or None to wait."""
        held = self._buffer
        tag = next((t for t in _TAGS if held.startswith(t)), None)
        if tag is not None:
            return self._tagged(tag, final)
        if held.startswith(_FENCE):
            fenced = _FENCED.match(held)
            if fenced is None:
                return self._release(held) if final or len(held) > MAX_HELD_CHARS else None
            return self._take(held[: fenced.end()], fenced.group(1), show_if_not=True)
        if not _closed(held) and not final and len(held) <= MAX_HELD_CHARS:
            return None
        try:
            value, end = json.JSONDecoder().raw_decode(held)
        except json.JSONDecodeError:
            return self._release(held[:1])  # a brace that opens no JSON: plain text
        return self._take(held[:end], value, show_if_not=True)

    def _tagged(self, tag: str, final: bool) -> str | None:
        closing = _TAGS[tag]
        held = self._buffer
        body_start = len(tag)
        if closing is not None:
            end = held.find(closing, body_start)
            if end < 0:
                return self._drop_all() if final or len(held) > MAX_HELD_CHARS else None
            return self._take(held[: end + len(closing)], held[body_start:end], show_if_not=False)
        body = held[body_start:].lstrip()
        try:
            value, used = json.JSONDecoder().raw_decode(body)
        except json.JSONDecodeError:
            return self._drop_all() if final or len(held) > MAX_HELD_CHARS else None
        return self._take(held[: len(held) - len(body) + used], value, show_if_not=False)

    def _take(self, segment: str, value: Any, show_if_not: bool) -> str:
        """Consume `segment` from the buffer: its calls are recorded; not a call, it is shown or dropped."""
        self._buffer = self._buffer[len(segment) :]
        self._line_start = segment.endswith("\n") or self._line_start
        if isinstance(value, str):
            try:
                value = json.loads(value.strip())
            except json.JSONDecodeError:
                return segment if show_if_not else ""
        calls = as_calls(value)
        if calls is None:
            return segment if show_if_not else ""
        self.calls.extend(call for call in calls if call.name in self.tools)
        self.dropped += sum(1 for call in calls if call.name not in self.tools)
        return ""

    def _release(self, text: str) -> str:
        return self._show(text)

    def _drop_all(self) -> str:
        self._buffer = ""
        return ""


def as_calls(value: Any) -> list[ToolCall] | None:
    """The tool calls a parsed JSON value spells out, or None when it is not a tool call."""
    if isinstance(value, list):
        calls = [as_calls(item) for item in value]
        if not value or any(call is None for call in calls):
            return None
        return [c for found in calls if found for c in found]
    if not isinstance(value, dict):
        return None
    wrapped = value.get("tool_calls") if isinstance(value.get("tool_calls"), list) else value.get("function")
    if isinstance(wrapped, list | dict):
        return as_calls(wrapped)
    return _call(value)


def _call(value: dict[str, Any]) -> list[ToolCall] | None:
    """One call spelled as a name and its arguments, or None."""
    name = value.get("name") or value.get("tool") or value.get("tool_name")
    arguments = next((value[key] for key in _ARGUMENT_KEYS if key in value), None)
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            return None
    if not isinstance(name, str) or not isinstance(arguments, dict) or set(value) - {
            "name", "tool", "tool_name", "type", "id", *_ARGUMENT_KEYS}:
        return None
    return [ToolCall(name=name, arguments=arguments)]


def _closed(text: str) -> bool:
    """Whether the bracket opening `text` is closed (strings and escapes respected)."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in _OPENERS:
            depth += 1
        elif ch in _OPENERS.values():
            depth -= 1
            if depth <= 0:
                return True
    return False


def _partial_start(text: str) -> int:
    """How many characters at the end of `text` may begin a tag, a fence or a line-opening brace."""
    for size in range(min(len(text), max(len(tag) for tag in _TAGS)), 0, -1):
        tail = text[-size:]
        if any(tag.startswith(tail) for tag in _TAGS) or (_FENCE.startswith(tail.lstrip(" \t")) and (
                len(text) == size or text[-size - 1] == "\n")):
            return size
    tail = text[len(text.rstrip(" \t")) :]
    return len(tail) if tail and (len(text) == len(tail) or text[-len(tail) - 1] == "\n") else 0
