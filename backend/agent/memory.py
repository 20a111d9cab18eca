"""Conversation memory: stored turns replayed to the model within a character budget.

The budget counts everything the model is sent — system prompt, tool definitions, history, tool calls
and results, the new question and the current request's tool rounds — and is the smaller of the user's
`CHAT_MEMORY_CHARS` and what the model's context holds besides the answer (backend/llm/budget.py).
Over budget, the oldest whole turn (question, tool calls, results, answer) is dropped; never half a turn,
and never the turn being answered. If the current turn alone is still too large, its search results
lose their lowest-ranked passages first (the fifth passage of every search before any fourth), so the
model reads the best passages whole instead of a prompt the server cut somewhere.

A model without tools reads tool rounds as plain text: results join the user's message, tool-call-only
messages go (its chat template may drop `tool` messages altogether).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import groupby
from typing import Any

from backend.agent.quoting import RankedPassages
from backend.agent.stream import MemoryInfo
from backend.llm.budget import tokens_of

# Characters of conversation sent to the model per turn at most (older whole turns are dropped); an
# attachment's text may take half of it.
CHAT_MEMORY_CHARS = 48_000
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
                 current_images: int = 0, tools_chars: int = 0, context_tokens: int = 0,
                 answer_tokens: int = 0) -> None:
        self.system = system
        self.history = list(history)
        self.current = current
        self.budget = budget
        self.current_images = current_images
        self.tools_chars = tools_chars  # the tool definitions sent with each call count too
        self.context_tokens = context_tokens  # the model's context (`num_ctx`), for the meter
        self.answer_tokens = answer_tokens
        self.turns_dropped = 0
        self._ranked: list[tuple[Message, RankedPassages]] = []  # the current turn's trimmable results

    def add_results(self, message: Message, ranked: RankedPassages | None = None) -> None:
        """Append a tool result to the current turn; `ranked` passages may be trimmed to fit."""
        self.current.append(message)
        if ranked is not None:
            self._ranked.append((message, ranked))

    @property
    def passages_dropped(self) -> int:
        return sum(ranked.dropped for _, ranked in self._ranked)

    @property
    def used_chars(self) -> int:
        fixed = self.tools_chars + message_chars(self.system) + sum(message_chars(m) for m in self.current)
        return fixed + self.current_images * IMAGE_CHARS + sum(turn.chars for turn in self.history)

    @property
    def turns_kept(self) -> int:
        return len(self.history)

    def stats(self) -> MemoryInfo:
        """The stream's `memory` line (DESIGN §5 and the token budget), also stored with the answer."""
        used = self.used_chars
        return {"used_chars": used, "budget_chars": self.budget, "turns_kept": self.turns_kept,
                "turns_dropped": self.turns_dropped, "context_tokens": self.context_tokens,
                "used_tokens": tokens_of(used), "answer_tokens": self.answer_tokens,
                "passages_dropped": self.passages_dropped}

    def fit(self) -> None:
        """Drop the oldest whole turns, then the lowest-ranked passages, until everything fits (the current
        turn always stays, if need be without passages)."""
        used = self.used_chars
        while self.history and used > self.budget:
            used -= self.history.pop(0).chars
            self.turns_dropped += 1
        while used > self.budget and (lowest := self._lowest_ranked()) is not None:
            message, ranked = lowest
            before = len(message["content"])
            ranked.drop_lowest()
            message["content"] = ranked.render()
            used += len(message["content"]) - before

    def _lowest_ranked(self) -> tuple[Message, RankedPassages] | None:
        """The result whose last passage ranks lowest (the earlier search on a tie)."""
        left = [(message, ranked) for message, ranked in self._ranked if ranked.labelled]
        return max(left, key=lambda item: len(item[1].labelled), default=None)

    def messages(self, plain: bool = False) -> list[Message]:
        """What the model is sent; `plain` for a model without tools (tool rounds as text)."""
        self.fit()
        messages = [self.system, *(m for turn in self.history for m in turn.messages), *self.current]
        return as_plain_text(messages) if plain else messages


def as_plain_text(messages: list[Message]) -> list[Message]:
    """The conversation for a model without tools: each tool result joins the user message before it (or
    becomes one), an assistant message that only called tools goes, tool calls leave the others."""
    plain: list[Message] = []
    for message in messages:
        role = message["role"]
        if role == "tool":
            text = f"[Quire: result of {message.get('tool_name') or 'a tool'}]\n{message['content']}"
            if plain and plain[-1]["role"] == "user":
                plain[-1] = {**plain[-1], "content": f"{plain[-1]['content']}\n\n{text}"}
            else:
                plain.append({"role": "user", "content": text})
        elif role == "assistant" and message.get("tool_calls"):
            if message.get("content"):
                plain.append({"role": "assistant", "content": message["content"]})
        else:
            plain.append(message)
    return plain
