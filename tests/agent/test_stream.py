"""The NDJSON wire format of DESIGN §5 and the channel between producer and response."""

from __future__ import annotations

import asyncio
import json

from backend.agent.stream import EventChannel, encode


def test_encode_is_one_compact_line() -> None:
    line = encode("text", "Zeile 1\nZeile 2 — ü")
    assert line.endswith(b"\n")
    assert line.count(b"\n") == 1
    assert json.loads(line) == {"type": "text", "data": "Zeile 1\nZeile 2 — ü"}
    assert "ü".encode() in line


def test_channel_delivers_in_order_and_stops_at_close() -> None:
    async def scenario() -> list[dict[str, object]]:
        channel = EventChannel()
        channel.start("s", "m", "u")
        channel.tool("t1", "calculator", {"expression": "1+1"}, "finished", "= 2")
        channel.memory(10, 100, 1, 0)
        channel.error("model_error", "boom", True)
        channel.done("s", "m")
        channel.close()
        channel.text("after close is ignored")
        chunks = [chunk async for chunk in channel.lines()]
        assert len(chunks) == 1  # lines queued together are written together
        return [json.loads(line) for chunk in chunks for line in chunk.splitlines()]

    events = asyncio.run(scenario())
    assert [e["type"] for e in events] == ["start", "tool", "memory", "error", "done"]
    assert events[0]["data"] == {"session_id": "s", "message_id": "m", "user_message_id": "u"}
    assert events[1]["data"] == {"id": "t1", "name": "calculator", "args": {"expression": "1+1"},
                                 "status": "finished", "summary": "= 2"}
    assert events[2]["data"] == {"used_chars": 10, "budget_chars": 100, "turns_kept": 1, "turns_dropped": 0}
    assert events[3]["data"] == {"code": "model_error", "message": "boom", "retryable": True}
