"""Phase 2: the agent loop over Ollama's native tool calling (thinking off), one fresh loop per request.

Each round streams the model's reply (text deltas go straight to the user), runs the tools it asked for
one after another — each bounded in time — and announces the citations they found before the next
model call. After `MAX_TOOL_ROUNDS` rounds the model must answer without tools. The loop keeps what it
did (rounds, text so far) on itself, so an error or a disconnect can still store a partial answer.
"""

from __future__ import annotations

import uuid
from contextlib import aclosing
from typing import Any

from backend.agent.context import RequestState
from backend.agent.memory import MemoryWindow, Message
from backend.agent.registry import ToolOutput, ToolRegistry
from backend.agent.stream import EventChannel
from backend.llm.client import ToolCall
from backend.store.chat import NewMessage

MAX_TOOL_ROUNDS = 6
FINAL_NUDGE = ("[Quire: the tool budget for this question is used up. Answer now from the tool results above, "
               "citing them with their [n] numbers; do not call tools.]")


class AgentLoop:
    def __init__(self, state: RequestState, channel: EventChannel, window: MemoryWindow,
                 registry: ToolRegistry) -> None:
        self.state = state
        self.channel = channel
        self.window = window
        self.registry = registry
        self.rounds: list[NewMessage] = []  # finished tool rounds, as stored rows
        self.answer_parts: list[str] = []  # text of the round in progress (the answer, once tools are done)
        self.text_emitted = False

    @property
    def answer(self) -> str:
        return "".join(self.answer_parts)

    async def run(self) -> str:
        """Run rounds until the model answers without calling a tool; returns the answer text.
        ModelUnavailable / ModelError propagate, with the partial state kept on the loop."""
        for round_number in range(MAX_TOOL_ROUNDS + 1):
            last = round_number == MAX_TOOL_ROUNDS
            if last:
                self.window.current.append({"role": "user", "content": FINAL_NUDGE})
            calls = await self._model_round(tools=None if last else self.registry.schemas())
            if not calls or last:
                break
            await self._tool_round(self.answer, calls)
        return self.answer

    async def _model_round(self, tools: list[dict[str, Any]] | None) -> list[ToolCall]:
        self.answer_parts = []
        calls: list[ToolCall] = []
        stream = self.state.services.llm.achat_stream(self.window.messages(), tools=tools, think=False)
        async with aclosing(stream) as deltas:
            async for delta in deltas:
                if delta.content:
                    self.answer_parts.append(delta.content)
                    self.text_emitted = True
                    self.channel.text(delta.content)
                calls.extend(delta.tool_calls)
        return calls

    async def _tool_round(self, content: str, calls: list[ToolCall]) -> None:
        ids = [f"call_{uuid.uuid4().hex[:12]}" for _ in calls]
        assistant: Message = {"role": "assistant", "content": content, "tool_calls": [
            {"function": {"name": call.name, "arguments": call.arguments}} for call in calls]}
        rows = [NewMessage(id=str(uuid.uuid4()), role="assistant", content=content, tool_calls=[
            {"id": call_id, "name": call.name, "args": call.arguments} for call_id, call in zip(ids, calls, strict=True)
        ])]
        results: list[Message] = []
        for call_id, call in zip(ids, calls, strict=True):
            self.channel.tool(call_id, call.name, call.arguments, "started")
            output = await self._run_tool(call)
            text = output.render(self.state.citations.register(list(output.sources)))
            self.channel.tool(call_id, call.name, call.arguments, "finished", output.summary)
            results.append({"role": "tool", "content": text, "tool_name": call.name})
            rows.append(NewMessage(id=str(uuid.uuid4()), role="tool", content=text, tool_call_id=call_id,
                                   tool_name=call.name, tool_summary=output.summary))
        # A round enters the conversation (and the transcript) only once all its tools have answered.
        self.window.current.extend([assistant, *results])
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
