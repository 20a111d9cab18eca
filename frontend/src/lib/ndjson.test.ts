import { describe, expect, it } from "vitest";
import { chunkedStream, collect } from "@/test/streams";
import { readNdjson, StreamNetworkError, type NdjsonEvent } from "./ndjson";

const values = (events: NdjsonEvent[]) => events.map((event) => (event.type === "value" ? event.value : event));

describe("readNdjson", () => {
  it("joins a line split across chunks", async () => {
    const events = await collect(readNdjson(chunkedStream(['{"type":"te', 'xt","data":"hel', 'lo"}\n'])));
    expect(values(events)).toEqual([{ type: "text", data: "hello" }]);
  });

  it("splits several lines that arrive in one chunk", async () => {
    const events = await collect(readNdjson(chunkedStream(['{"a":1}\n{"a":2}\n{"a":3}\n'])));
    expect(values(events)).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
  });

  it("keeps a last line that has no newline", async () => {
    const events = await collect(readNdjson(chunkedStream(['{"a":1}\n{"a":', "2}"])));
    expect(values(events)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("skips blank lines and accepts CRLF line ends", async () => {
    const events = await collect(readNdjson(chunkedStream(['{"a":1}\r\n\r\n', '\n{"a":2}\r\n'])));
    expect(values(events)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("decodes a multi-byte character split between chunks", async () => {
    const bytes = new TextEncoder().encode('{"t":"é✓"}\n');
    const events = await collect(readNdjson(chunkedStream([bytes.slice(0, 8), bytes.slice(8)])));
    expect(values(events)).toEqual([{ t: "é✓" }]);
  });

  it("reports an invalid JSON line as an event and carries on", async () => {
    const events = await collect(readNdjson(chunkedStream(['{"a":1}\nnot json\n{"a":2}\n'])));
    expect(events[0]).toEqual({ type: "value", value: { a: 1 } });
    expect(events[1]).toMatchObject({ type: "invalid", line: "not json" });
    expect((events[1] as { error: string }).error).toBeTruthy();
    expect(events[2]).toEqual({ type: "value", value: { a: 2 } });
  });

  it("reports an unfinished, invalid last line as invalid", async () => {
    const events = await collect(readNdjson(chunkedStream(['{"a":1}\n{"a":'])));
    expect(events.map((e) => e.type)).toEqual(["value", "invalid"]);
  });

  it("throws StreamNetworkError when the connection breaks, after the lines it got", async () => {
    const seen: NdjsonEvent[] = [];
    const failing = readNdjson(chunkedStream(['{"a":1}\n{"a":'], new TypeError("network error")));
    await expect(async () => {
      for await (const event of failing) seen.push(event);
    }).rejects.toBeInstanceOf(StreamNetworkError);
    expect(values(seen)).toEqual([{ a: 1 }]);
  });

  it("rethrows an abort as an abort, not a network error", async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = readNdjson(chunkedStream([], new DOMException("aborted", "AbortError")), controller.signal);
    await expect(collect(aborted)).rejects.toMatchObject({ name: "AbortError" });
  });
});
