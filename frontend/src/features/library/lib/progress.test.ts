import { describe, expect, it } from "vitest";
import type { IngestItem } from "../api/types";
import { isActive, overallFraction, progressLabel, runSummary, stageFraction } from "./progress";

function item(change: Partial<IngestItem>): IngestItem {
  return {
    id: "d1", filename: "notes.pdf", status: "queued", decision: null, error: null, warnings: [],
    progress: { done: 0, total: 0, detail: null }, pages: null, blocks: null, embedded: null, ...change,
  };
}

describe("progress labels", () => {
  it("names each stage with the server's detail", () => {
    expect(progressLabel(item({ status: "queued", progress: { done: 0, total: 0, detail: "queued" } }))).toBe("Queued");
    expect(progressLabel(item({ status: "extracting", progress: { done: 3, total: 21, detail: "page 3 of 21" } })))
      .toBe("Extracting · page 3 of 21");
    expect(progressLabel(item({ status: "extracting", progress: { done: 4, total: 21, detail: "page 4 of 21 (OCR)" } })))
      .toBe("Extracting · page 4 of 21 (OCR)");
    expect(progressLabel(item({ status: "storing", progress: { done: 0, total: 0, detail: "120 chunks" } })))
      .toBe("Storing · 120 passages");
    expect(progressLabel(item({ status: "embedding", progress: { done: 3, total: 12, detail: "batch 4 of 12" } })))
      .toBe("Embedding · batch 4 of 12");
    expect(progressLabel(item({ status: "embedding", progress: { done: 0, total: 0, detail: "340 blocks stored, waiting for embedding" } })))
      .toBe("Embedding · waiting its turn");
  });

  it("sums up a finished file", () => {
    expect(progressLabel(item({ status: "ready", pages: 21, blocks: 340 }))).toBe("Ready · 21 pages, 340 passages");
    expect(progressLabel(item({ status: "ready", pages: null, blocks: 1 }))).toBe("Ready · 1 passage");
    expect(progressLabel(item({ status: "ready", pages: 2, blocks: 10, embedded: 7 })))
      .toBe("Ready · 2 pages, 10 passages · 3 not embedded yet (found by keyword search meanwhile)");
    expect(progressLabel(item({ status: "skipped" }))).toBe("Unchanged — already in your library");
  });

  it("gives the error in words, or says it is unknown", () => {
    expect(progressLabel(item({ status: "failed", error: "The PDF is encrypted." }))).toBe("The PDF is encrypted.");
    expect(progressLabel(item({ status: "failed", error: null }))).toBe("Failed for an unknown reason.");
  });

  it("measures progress within a stage and across the pipeline", () => {
    const extracting = item({ status: "extracting", progress: { done: 10, total: 20, detail: "page 10 of 20" } });
    expect(stageFraction(extracting)).toBe(0.5);
    expect(stageFraction(item({ status: "storing" }))).toBeUndefined();
    const embedding = item({ status: "embedding", progress: { done: 6, total: 12, detail: "batch 7 of 12" } });
    expect(overallFraction(embedding)).toBeGreaterThan(overallFraction(extracting));
    expect(overallFraction(item({ status: "ready" }))).toBe(1);
  });

  it("tells active from finished and sums up a run", () => {
    expect(isActive("embedding")).toBe(true);
    expect(isActive("failed")).toBe(false);
    const items = [item({ status: "ready" }), item({ status: "skipped" }), item({ status: "failed" }), item({ status: "extracting" })];
    expect(runSummary(items)).toBe("2 of 4 ready · 1 failed");
  });
});
