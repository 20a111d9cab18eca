import { afterEach, describe, expect, it, vi } from "vitest";
import { apiFetch } from "./api";
import { connectionFailing, subscribeConnection } from "./connection";

afterEach(() => vi.unstubAllGlobals());

describe("connection state", () => {
  it("turns failing at the first request that cannot reach the server, and back on the next answer", async () => {
    const seen: boolean[] = [];
    const stop = subscribeConnection(() => seen.push(connectionFailing()));
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    await expect(apiFetch("/api/documents")).rejects.toMatchObject({ code: "network" });
    expect(connectionFailing()).toBe(true);
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(new Response("[]", { status: 200 })));
    await apiFetch("/api/documents");
    expect(connectionFailing()).toBe(false);
    expect(seen).toEqual([true, false]);
    stop();
  });

  it("counts a gateway error as unreachable but not Quire's own errors", async () => {
    for (const status of [404, 503]) {
      vi.stubGlobal("fetch", vi.fn().mockResolvedValue(new Response("{}", { status })));
      await expect(apiFetch("/api/x")).rejects.toMatchObject({ status });
      expect(connectionFailing()).toBe(false);
    }
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(new Response("", { status: 502 })));
    await expect(apiFetch("/api/x")).rejects.toMatchObject({ status: 502 });
    expect(connectionFailing()).toBe(true);
  });
});
