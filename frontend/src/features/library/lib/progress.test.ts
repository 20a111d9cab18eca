import { describe, expect, it } from "vitest";
import type { IngestItem } from "../api/types";
import { afterCancel, cancelOutcome, cancelWarning, inFlight, isActive, overallFraction, progressLabel, runSummary, stageFraction } from "./progress";

function item(change: Partial<IngestItem>): IngestItem {
  return {
    id: "d1", filename: "notes.pdf", kind: "pdf", status: "queued", decision: null, error: null, warnings: [], page_warnings: [], read_as: null,
    progress: { done: 0, total: 0, detail: "" }, pages: null, blocks: null, embedded: null, steps: [], ...change,
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
    expect(progressLabel(item({ status: "ready", kind: "pptx", pages: 12, blocks: 14 }))).toBe("Ready · 12 slides, 14 passages");
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

  it("tells files a cancel stopped, with or without an earlier version kept, from files that failed on their own", () => {
    const message = "Ingestion was cancelled; upload the file again to add it.";
    const stopped = item({ id: "stopped", status: "failed", error: message });
    const replacing = item({ id: "replacing", status: "failed", error: message }); // its document keeps version 1
    const broken = item({ id: "broken", status: "failed", error: "The PDF is encrypted." });
    const ready = item({ id: "ready", status: "ready" });
    const library: Record<string, string> = { stopped: "failed", replacing: "ready", broken: "failed", ready: "ready" };
    const statusOf = (id: string) => library[id];
    expect(afterCancel(stopped, "CANCELLED", statusOf)).toBe("cancelled");
    expect(afterCancel(replacing, "CANCELLED", statusOf)).toBe("earlier");
    expect(afterCancel(broken, "CANCELLED", statusOf)).toBeNull();
    expect(afterCancel(stopped, "SUCCESS", statusOf)).toBeNull();
    expect(runSummary([ready, replacing, stopped, broken], "CANCELLED", statusOf)).toBe("1 of 4 ready · 1 failed · 2 cancelled");
    expect(cancelOutcome([ready, replacing, stopped, stopped], statusOf)).toBe(
      "Cancelled — 1 file already ready stays in your library; 3 weren't added (upload them again to add them).");
    expect(cancelOutcome([stopped], statusOf)).toBe("Cancelled — nothing was added; upload it again to add it.");
    expect(cancelOutcome([ready], statusOf)).toBe("Cancelled, but every file was already in your library — nothing was lost.");
  });

  it("counts the files a cancel would stop and says none of them is added", () => {
    const items = [item({ status: "ready" }), item({ status: "embedding" }), item({ status: "queued" }), item({ status: "failed" })];
    expect(inFlight(items).map((i) => i.status)).toEqual(["embedding", "queued"]);
    expect(cancelWarning([
      item({ filename: "intro.md", status: "embedding" }),
      item({ filename: "scan.pdf", status: "extracting" }),
      item({ filename: "done.md", status: "ready" }),
    ])).toBe("intro.md and scan.pdf aren't ready yet and won't be added — you can upload them again later. "
      + "A file that replaces an earlier version keeps that version.");
    expect(cancelWarning([item({ filename: "scan.pdf", status: "extracting" })]))
      .toBe("scan.pdf isn't ready yet and won't be added — you can upload it again later. "
      + "A file that replaces an earlier version keeps that version.");
  });
});
