import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiJson, apiSend, buildQuery, errorFromResponse, onUnauthorized } from "./api";

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

afterEach(() => vi.unstubAllGlobals());

describe("api client", () => {
  it("turns the server's error body into an ApiError", async () => {
    const error = await errorFromResponse(
      jsonResponse(422, { error: { code: "empty_query", message: "Type something.", details: [1] } }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: "empty_query", message: "Type something.", details: [1] });
  });

  it("describes a response without the error shape", async () => {
    const error = await errorFromResponse(new Response("<html>", { status: 502, statusText: "Bad Gateway" }));
    expect(error).toMatchObject({ status: 502, code: "http_error" });
  });

  it("tells listeners when the server wants a token", async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    vi.stubGlobal("fetch", vi.fn(async () => jsonResponse(401, { error: { code: "unauthorized", message: "Token." } })));
    await expect(apiJson("/api/documents")).rejects.toMatchObject({ status: 401, code: "unauthorized" });
    expect(listener).toHaveBeenCalledOnce();
    stop();
  });

  it("reports an unreachable server as a network error", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    }));
    await expect(apiJson("/api/health")).rejects.toMatchObject({ status: 0, code: "network" });
  });

  it("sends JSON bodies same-origin and reads 204 as undefined", async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal("fetch", fetchMock);
    await expect(apiSend("PATCH", "/api/documents/1", { category: "x" })).resolves.toBeUndefined();
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init).toMatchObject({ method: "PATCH", credentials: "same-origin", body: '{"category":"x"}' });
    expect(init.headers).toMatchObject({ "Content-Type": "application/json" });
  });

  it("builds query strings, repeating arrays and skipping empty values", () => {
    expect(buildQuery({ q: "cells", k: 5, documents: ["a", "b"], mode: undefined, x: "" })).toBe(
      "?q=cells&k=5&documents=a&documents=b",
    );
    expect(buildQuery({})).toBe("");
  });
});
