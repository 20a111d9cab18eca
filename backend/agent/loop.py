"""Phase 2: the agent loop over Ollama's native tool calling (thinking off), one fresh loop per request.

Grounded by construction: before the model is called, Quire runs `search_knowledge_base` for the
question itself (`search_first`, a tool round `by` Quire), so every answer has passages to stand on
whether or not the model ever calls a tool — small local models often do not. Tools remain for follow-up
searches, reading and comparing documents; a model without tools gets no tool schemas and reads the
rounds as plain text.

Each round streams the model's reply (text deltas go to the user as soon as they are known not to be a
tool call written as text, backend/agent/disguise.py), runs the tools it asked for — natively or in
disguise — one after another, each bounded in time, and announces the citations they found before the
next model call. After `MAX_TOOL_ROUNDS` rounds the model must answer without tools. The loop keeps what
it did (rounds, text so far) on itself, so an error or a disconnect can still store a partial answer.
"""

from __future__ import annotations

import uuid
from contextlib import aclosing
from typing import Any, Literal

from backend.agent.context import RequestState
from backend.agent.disguise import CallFilter
from backend.agent.memory import MemoryWindow, Message
from backend.agent.model import ChatModel
from backend.agent.registry import ToolOutput, ToolRegistry
from backend.agent.stream import EventChannel
from backend.llm.client import ToolCall
from backend.llm.errors import CapabilityMissing
from backend.store.chat import NewMessage

MAX_TOOL_ROUNDS = 6
FINAL_NUDGE = ("[Quire: the tool budget for this question is used up. Answer now from the tool results above, "
               "citing them with their [n] numbers; do not call tools.]")
SEARCH = "search_knowledge_base"


class AgentLoop:
    def __init__(self, state: RequestState, channel: EventChannel, window: MemoryWindow,
                 registry: ToolRegistry, model: ChatModel) -> None:
        self.state = state
        self.channel = channel
        self.window = window
        self.registry = registry
        self.model = model
        self.rounds: list[NewMessage] = []  # finished tool rounds, as stored rows
        self.answer_parts: list[str] = []  # text of the round in progress (the answer, once tools are done)
        self.model_calls = 0
        self.text_emitted = False
        self.searched = False  # Quire's own search ran (a question, not small talk)
        self.calls_by_model: list[str] = []  # tool names, native or in disguise
        self.disguised_calls = 0  # of those, written as text

    @property
    def answer(self) -> str:
        return "".join(self.answer_parts)

    async def search_first(self, query: str) -> None:
        """Quire's own search for the question, before the model says anything."""
        await self._tool_round("", [ToolCall(SEARCH, {"query": query})], by="quire")
        self.searched = True

    async def run(self) -> str:
        """Run rounds until the model answers without calling a tool; returns the answer text.
        ModelUnavailable / ModelError propagate, with the partial state kept on the loop."""
        for round_number in range(MAX_TOOL_ROUNDS + 1):
            last = round_number == MAX_TOOL_ROUNDS
            if last:
                self.window.current.append({"role": "user", "content": FINAL_NUDGE})
            calls = await self._model_round(last)
            if not calls or last:
                break
            await self._tool_round(self.answer, calls)
        return self.answer

    async def _model_round(self, last: bool) -> list[ToolCall]:
        offer = self.model.tools and not last
        try:
            return await self._stream_round(self.registry.schemas() if offer else None)
        except CapabilityMissing as exc:
            if exc.capability != "tools" or not offer:
                raise
            self.model = self.model.without_tools()  # an Ollama that listed no capabilities refused them
            return await self._stream_round(None)

    async def _stream_round(self, tools: list[dict[str, Any]] | None) -> list[ToolCall]:
        self.answer_parts = []
        calls: list[ToolCall] = []
        disguised = CallFilter(self.registry.names())
        self.model_calls += 1
        messages = self.window.messages(plain=not self.model.tools)
        async with aclosing(self.model.stream(self.channel, messages, tools=tools)) as deltas:
            async for delta in deltas:
                self._show(disguised.feed(delta.content))
                calls.extend(delta.tool_calls)
        self._show(disguised.finish())
        self.disguised_calls += len(disguised.calls)
        calls.extend(disguised.calls)
        self.calls_by_model.extend(call.name for call in calls)
        return calls

    def _show(self, text: str) -> None:
        if text:
            self.answer_parts.append(text)
            self.text_emitted = True
            self.channel.text(text)

    async def _tool_round(self, content: str, calls: list[ToolCall], by: Literal["quire", "model"] = "model") -> None:
        ids = [f"call_{uuid.uuid4().hex[:12]}" for _ in calls]
        assistant: Message = {"role": "assistant", "content": content, "tool_calls": [
            {"function": {"name": call.name, "arguments": call.arguments}} for call in calls]}
        rows = [NewMessage(id=str(uuid.uuid4()), role="assistant", content=content, tool_calls=[
            {"id": call_id, "name": call.name, "args": call.arguments, "by": by}
            for call_id, call in zip(ids, calls, strict=True)
        ])]
        results: list[tuple[Message, ToolOutput, list[int]]] = []
        for call_id, call in zip(ids, calls, strict=True):
            self.channel.tool(call_id, call.name, call.arguments, "started", by=by)
            output = await self._run_tool(call)
            numbers = self.state.citations.register(list(output.sources))
            text = output.render(numbers)
            self.channel.tool(call_id, call.name, call.arguments, "finished", output.summary, by=by)
            results.append(({"role": "tool", "content": text, "tool_name": call.name}, output, numbers))
            rows.append(NewMessage(id=str(uuid.uuid4()), role="tool", content=text, tool_call_id=call_id,
                                   tool_name=call.name, tool_summary=output.summary))
        # A round enters the conversation (and the transcript) only once all its tools have answered.
        self.window.current.append(assistant)
        for message, output, numbers in results:
            self.window.add_results(message, output.ranked(numbers) if output.ranked else None)
        self.rounds.extend(rows)
        self.answer_parts = []
        for citation in self.state.citations.take_new():
            self.channel.metadata(citation.payload())

    async def _run_tool(self, call: ToolCall) -> ToolOutput:
        tool = self.registry.get(call.name)
        if tool is None:
            available = ", ".join(self.registry.names())
            return ToolOutput.plain(f"Error: there is no tool {call.name!r}. Available tools: {available}.",
                                    "unknown tool")
        return await tool.run(call.arguments)
