"""Conversation memory: stored turns replayed to the model within a character budget.

The budget counts everything the model is sent — system prompt, history, tool calls and results, the
new question and the current request's tool rounds. Over budget, the oldest whole turn (question, tool
calls, results, answer) is dropped; never half a turn, and never the turn being answered.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import groupby
from typing import Any

from backend.agent.stream import MemoryInfo

# A vision model spends a few hundred tokens per image; counted as characters so images share the budget.
IMAGE_CHARS = 1000

Message = dict[str, Any]


def message_chars(message: Message) -> int:
    """Characters of one message as the model reads it (text, tool calls; images are counted per turn)."""
    chars = len(message.get("content") or "")
    if message.get("tool_calls"):
        chars += len(json.dumps(message["tool_calls"], ensure_ascii=False))
    return chars


@dataclass
class Turn:
    number: int
    messages: list[Message]
    image_message_ids: list[str] = field(default_factory=list)
    image_count: int = 0

    @cached_property
    def chars(self) -> int:  # a stored turn never changes; fitting the window asks for this again and again
        return sum(message_chars(m) for m in self.messages) + self.image_count * IMAGE_CHARS


def model_message(row: dict[str, Any]) -> Message | None:
    """A stored message as Ollama expects it, or None when it carries nothing to replay."""
    role = row["role"]
    if role == "user":
        return {"role": "user", "content": row["model_content"] or row["content"]}
    if role == "tool":
        return {"role": "tool", "content": row["content"], "tool_name": row["tool_name"]}
    calls = [{"function": {"name": c["name"], "arguments": c["args"]}} for c in row["tool_calls"] or []]
    if not calls and not row["content"]:
        return None
    message: Message = {"role": "assistant", "content": row["content"]}
    if calls:
        message["tool_calls"] = calls
    return message


def turns_from_rows(rows: Sequence[dict[str, Any]]) -> list[Turn]:
    """Group stored messages (ordered by turn, seq) into turns of model messages."""
    turns = []
    for number, group in groupby(rows, key=lambda row: row["turn"]):
        group_rows = list(group)
        messages = [m for m in (model_message(row) for row in group_rows) if m is not None]
        with_images = [(row["id"], _image_count(row)) for row in group_rows if _image_count(row)]
        turns.append(Turn(number, messages, [mid for mid, _ in with_images], sum(n for _, n in with_images)))
    return turns


def _image_count(row: dict[str, Any]) -> int:
    return sum(1 for item in row.get("attachments") or [] if item.get("kind") == "image")


class MemoryWindow:
    """The messages of one model call: system prompt, the newest history turns that fit, the current turn."""

    def __init__(self, system: Message, history: list[Turn], current: list[Message], budget: int,
                 current_images: int = 0, tools_chars: int = 0) -> None:
        self.system = system
        self.history = list(history)
        self.current = current
        self.budget = budget
        self.current_images = current_images
        self.tools_chars = tools_chars  # the tool definitions sent with each call count too
        self.turns_dropped = 0

    @property
    def used_chars(self) -> int:
        fixed = self.tools_chars + message_chars(self.system) + sum(message_chars(m) for m in self.current)
        return fixed + self.current_images * IMAGE_CHARS + sum(turn.chars for turn in self.history)

    @property
    def turns_kept(self) -> int:
        return len(self.history)

    def stats(self) -> MemoryInfo:
        """The stream's `memory` line (DESIGN §5), also stored with the answer."""
        return {"used_chars": self.used_chars, "budget_chars": self.budget, "turns_kept": self.turns_kept,
                "turns_dropped": self.turns_dropped}

    def fit(self) -> None:
        """Drop the oldest whole turns until everything fits (the current turn always stays)."""
        used = self.used_chars
        while self.history and used > self.budget:
            used -= self.history.pop(0).chars
            self.turns_dropped += 1

    def messages(self) -> list[Message]:
        self.fit()
        return [self.system, *(m for turn in self.history for m in turn.messages), *self.current]
