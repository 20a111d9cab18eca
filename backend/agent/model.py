"""The chat model as one request uses it: what it can do (`/api/show`), the context every call names, and
each call announced while the model reads — "the model is still reading (1,270 tokens)" — until its first
line arrives (a cold prompt on a CPU-only machine takes minutes)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, replace
from typing import Any

from backend.agent.stream import EventChannel, ModelInfo, Reasoning
from backend.llm.budget import answer_tokens, context_tokens, prompt_tokens
from backend.llm.capabilities import ModelFacts
from backend.llm.client import ChatDelta, LLMClient

READING_TICK_S = 5.0  # how often a `progress` line repeats while the model reads


@dataclass(frozen=True)
class ChatModel:
    llm: LLMClient
    facts: ModelFacts

    @property
    def context_tokens(self) -> int:
        return context_tokens(self.facts)

    @property
    def answer_tokens(self) -> int:
        return answer_tokens(self.context_tokens)

    @property
    def tools(self) -> bool:
        return self.facts.tools

    @property
    def thinking(self) -> bool:
        return self.facts.thinking

    def without_tools(self) -> ChatModel:
        return replace(self, facts=self.facts.without("tools"))

    def payload(self, reasoning: Reasoning) -> ModelInfo:
        """The stream's `model` line and the stored answer's `model`."""
        facts = self.facts
        return {"name": facts.name, "context_length": facts.context_length, "tools": facts.tools,
                "thinking": facts.thinking, "vision": facts.vision, "context_tokens": self.context_tokens,
                "reasoning": reasoning}

    async def stream(self, channel: EventChannel, messages: Sequence[Mapping[str, Any]],
                     tools: Sequence[Mapping[str, Any]] | None = None, think: bool = False,
                     **options: Any) -> AsyncGenerator[ChatDelta]:
        """One streamed call naming the model's context; `progress` lines while it reads the prompt."""
        tokens = prompt_tokens(messages, tools)
        channel.progress(tokens, 0.0)
        deltas = self.llm.achat_stream(messages, model=self.facts.name, tools=tools, think=think,
                                       options={"num_ctx": self.context_tokens, **options}, tick_s=READING_TICK_S)
        async with aclosing(deltas) as replies:
            async for delta in replies:
                if delta.waiting_s is None:
                    yield delta
                elif not delta.content:
                    channel.progress(tokens, delta.waiting_s)
