"""The NDJSON wire format of DESIGN §5 and the channel between producer and response."""

from __future__ import annotations

import asyncio
import json
import time

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
        channel.memory({"used_chars": 10, "budget_chars": 100, "turns_kept": 1, "turns_dropped": 0})
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


def test_lines_close_together_share_a_write_and_the_end_is_not_held_back() -> None:
    interval = 0.2  # generous, so the machine's scheduling noise cannot reorder what the test expects

    async def scenario() -> tuple[list[tuple[list[object], float]], float]:
        channel = EventChannel(flush_interval_s=interval)
        received: list[tuple[list[object], float]] = []
        started = time.monotonic()

        async def consume() -> None:
            async for chunk in channel.lines():
                received.append(([json.loads(line)["data"] for line in chunk.splitlines()], time.monotonic() - started))

        consumer = asyncio.create_task(consume())
        channel.text("a")  # the first line goes out at once
        await asyncio.sleep(interval / 4)
        channel.text("b")  # within the interval after that write: held, to be gathered ...
        await asyncio.sleep(interval / 4)
        channel.text("c")  # ... with this one
        await asyncio.sleep(interval * 2)
        d_sent = time.monotonic() - started
        channel.text("d")  # long after the last write: at once
        await asyncio.sleep(interval / 4)
        channel.done("s", "m")
        channel.close()  # within the interval, but the end is written at once
        await consumer
        return received, d_sent

    received, d_sent = asyncio.run(scenario())
    assert [data for data, _ in received] == [["a"], ["b", "c"], ["d"], [{"session_id": "s", "message_id": "m"}]]
    a, bc, d, done = (at for _, at in received)
    assert a < interval / 4
    assert bc >= interval
    assert d - d_sent < interval / 2  # not held for the interval: the last write was long before
    assert done - d < interval * 0.75
