import { describe, expect, it } from "vitest";
import type { DocumentOut } from "@/api/types";
import { nextSort, sortDocuments } from "./sort";

const doc = (id: string, filename: string, pages: number | null, blocks: number, created_at: string) =>
  ({ id, filename, pages, blocks, created_at }) as DocumentOut;

const docs = [
  doc("1", "Lecture 10.pdf", 30, 90, "2026-11-02T00:00:00Z"),
  doc("2", "lecture 2.pdf", 12, 40, "2026-11-03T00:00:00Z"),
  doc("3", "notes.md", null, 5, "2026-11-01T00:00:00Z"),
];

describe("sorting documents", () => {
  it("sorts names naturally and case-insensitively", () => {
    expect(sortDocuments(docs, { key: "name", direction: "asc" }).map((d) => d.id)).toEqual(["2", "1", "3"]);
  });

  it("sorts numbers and dates, documents without pages last when descending", () => {
    expect(sortDocuments(docs, { key: "pages", direction: "desc" }).map((d) => d.id)).toEqual(["1", "2", "3"]);
    expect(sortDocuments(docs, { key: "added", direction: "desc" }).map((d) => d.id)).toEqual(["2", "1", "3"]);
  });

  it("flips on a second click and starts sensibly on a new column", () => {
    expect(nextSort({ key: "added", direction: "desc" }, "added")).toEqual({ key: "added", direction: "asc" });
    expect(nextSort({ key: "added", direction: "desc" }, "name")).toEqual({ key: "name", direction: "asc" });
    expect(nextSort({ key: "name", direction: "asc" }, "blocks")).toEqual({ key: "blocks", direction: "desc" });
  });
});
