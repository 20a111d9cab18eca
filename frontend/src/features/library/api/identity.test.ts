/** The identity endpoints' clients against fetch responses shaped exactly as API-11 describes them. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api";
import { retryDocument } from "./documents";
import { dismissAllRefusals, dismissRefusal, fetchRefusals, sortRefusals } from "./refusals";
import { fetchTrash } from "./trash";
import { fetchVersions, versionFileUrl } from "./versions";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function stubFetch(...responses: Response[]) {
  const mock = vi.fn(async (_path: string, _init?: RequestInit) => responses.shift() as Response);
  vi.stubGlobal("fetch", mock);
  return mock;
}

afterEach(() => vi.unstubAllGlobals());

const REFUSALS = {
  refusals: [
    { id: "r1", filename: "scan.pdf", category: "Physics", code: "encrypted_pdf",
      message: "This PDF is password-protected.", created_at: "2026-12-01T10:00:00Z" },
    { id: "r2", filename: "photo.heic", category: null, code: "unsupported_type",
      message: "Quire can't read .heic files.", created_at: "2026-12-01T11:30:00Z" },
  ],
};

describe("refusals", () => {
  it("lists them newest first", async () => {
    const fetchMock = stubFetch(json(REFUSALS));
    const refusals = sortRefusals(await fetchRefusals());
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/refusals");
    expect(refusals.map((r) => [r.filename, r.message])).toEqual([
      ["photo.heic", "Quire can't read .heic files."],
      ["scan.pdf", "This PDF is password-protected."],
    ]);
  });

  it("dismisses one by id, or all", async () => {
    const fetchMock = stubFetch(json({ dismissed: 1 }), json({ dismissed: 2 }));
    await dismissRefusal("r1");
    await dismissAllRefusals();
    expect(fetchMock.mock.calls.map(([path, init]) => [init?.method, path])).toEqual([
      ["DELETE", "/api/refusals/r1"],
      ["DELETE", "/api/refusals"],
    ]);
  });
});

describe("versions", () => {
  it("reads the list, newest first as sent, with the current one marked", async () => {
    const fetchMock = stubFetch(json({
      versions: [
        { version: 2, filename: "Lecture01.pdf", sha256: "b".repeat(64), size_bytes: 52001, pages: 12, kind: "pdf",
          created_at: "2026-12-01T12:00:00Z", current: true },
        { version: 1, filename: "Lecture01.pdf", sha256: "a".repeat(64), size_bytes: 48213, pages: 11, kind: "pdf",
          created_at: "2026-11-30T09:12:00Z", current: false },
      ],
    }));
    const versions = await fetchVersions("doc 1");
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/documents/doc%201/versions");
    expect(versions.map((v) => [v.version, v.current])).toEqual([[2, true], [1, false]]);
    expect(versionFileUrl("doc 1", 1)).toBe("/api/documents/doc%201/versions/1/file");
  });
});

describe("trash and retry", () => {
  it("asks for the trashed documents only", async () => {
    const fetchMock = stubFetch(json([]));
    await fetchTrash();
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/documents?status=trashed");
  });

  it("retries a failed document and reports a 409 not_failed as an ApiError", async () => {
    const fetchMock = stubFetch(
      json({ workflow_id: "w9", documents: [{ id: "d1", filename: "slides.pptx", status: "queued" }] }, 202),
      json({ error: { code: "not_failed", message: "Only a failed document can be retried." } }, 409),
    );
    await expect(retryDocument("d1")).resolves.toMatchObject({ workflow_id: "w9" });
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe("POST");
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/documents/d1/retry");
    const error = await retryDocument("d1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("not_failed");
  });
});
