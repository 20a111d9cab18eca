import { afterEach, describe, expect, it, vi } from "vitest";
import { chunkedStream } from "@/test/streams";
import type { IngestSnapshot } from "./types";
import { followRun } from "./ingest";

const snapshot = (status: string) => ({ workflow_id: "w1", status, documents: [], steps: [], progress: {} }) as unknown as IngestSnapshot;
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

afterEach(() => vi.unstubAllGlobals());

describe("followRun", () => {
  it("reconnects after the server goes away and finishes when the run ends", async () => {
    const responses = [
      () => new Response(chunkedStream([line({ type: "progress", data: snapshot("PENDING") })], new TypeError("network error"))),
      () => {
        throw new TypeError("Failed to fetch"); // server restarting
      },
      () => new Response(chunkedStream([
        line({ type: "progress", data: snapshot("PENDING") }),
        line({ type: "end", data: { status: "SUCCESS" } }),
      ])),
    ];
    const fetchMock = vi.fn(async () => (responses.shift() as () => Response)());
    vi.stubGlobal("fetch", fetchMock);
    const seen: string[] = [];
    const connections: boolean[] = [];
    const result = await followRun("w1", {
      onSnapshot: (s) => seen.push(s.status),
      onConnection: (connected) => connections.push(connected),
    }, new AbortController().signal);
    expect(result).toBe("SUCCESS");
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(seen).toEqual(["PENDING", "PENDING"]);
    expect(connections).toEqual([true, false, false, true]);
  }, 10_000);

  it("stops when the run is unknown", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ error: { code: "not_found", message: "No run" } }), { status: 404 })));
    await expect(followRun("gone", { onSnapshot: () => undefined }, new AbortController().signal)).resolves.toBe("GONE");
  });
});
