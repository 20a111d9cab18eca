/**
 * Words and numbers for ingestion progress, from a run item's state: "Extracting · page 3 of 21 (OCR)",
 * "Embedding · batch 4 of 12", "Ready · 21 pages, 340 passages", or the error in words. Pure.
 */
import type { Tone } from "@/components/Badge";
import { plural } from "@/lib/format";
import type { IngestItem, ItemStatus } from "../api/types";

const STAGE: Record<ItemStatus, string> = {
  queued: "Queued",
  extracting: "Extracting",
  storing: "Storing",
  embedding: "Embedding",
  ready: "Ready",
  skipped: "Unchanged",
  failed: "Failed",
};

/** Stage order for a simple stepper: queued → extracting → storing → embedding → ready. */
export const STAGES: ItemStatus[] = ["queued", "extracting", "storing", "embedding", "ready"];

export function stageName(status: ItemStatus): string {
  return STAGE[status] ?? status;
}

/** The server's detail when it says something beyond the stage ("page 3 of 21 (OCR)", "batch 4 of 12"). */
function usefulDetail(item: IngestItem): string | null {
  const detail = item.progress.detail?.trim();
  if (!detail || ["ready", "failed", "unchanged", "queued"].includes(detail)) return null;
  // Stored but not yet embedding (another file's batches go first): keyword search already finds it.
  if (item.status === "embedding" && item.progress.total === 0) return "waiting its turn";
  if (item.status === "storing" && /^\d+ chunks$/.test(detail)) return detail.replace("chunks", "passages");
  return detail;
}

export function progressLabel(item: IngestItem): string {
  switch (item.status) {
    case "failed":
      return item.error?.trim() || "Failed for an unknown reason.";
    case "skipped":
      return "Unchanged — already in your library";
    case "ready": {
      const parts: string[] = [];
      if (item.pages) parts.push(plural(item.pages, "page"));
      if (item.blocks !== null && item.blocks !== undefined) parts.push(plural(item.blocks, "passage"));
      const missing = item.blocks && item.embedded !== null ? item.blocks - item.embedded : 0;
      const note = missing > 0 ? ` · ${missing} not embedded yet (found by keyword search meanwhile)` : "";
      return (parts.length ? `Ready · ${parts.join(", ")}` : "Ready") + note;
    }
    default: {
      const detail = usefulDetail(item);
      return detail ? `${stageName(item.status)} · ${detail}` : stageName(item.status);
    }
  }
}

/** 0–1 within the current stage when the server counts it, otherwise undefined (indeterminate). */
export function stageFraction(item: IngestItem): number | undefined {
  const { done, total } = item.progress;
  if (item.status === "ready" || item.status === "skipped") return 1;
  if (item.status === "failed" || item.status === "queued") return undefined;
  if (total > 0) return Math.min(1, done / total);
  return undefined;
}

/** 0–1 across the whole pipeline, for one overall bar per file. */
export function overallFraction(item: IngestItem): number {
  if (item.status === "ready" || item.status === "skipped" || item.status === "failed") return 1;
  const weights: Partial<Record<ItemStatus, [number, number]>> = {
    queued: [0, 0.02],
    extracting: [0.02, 0.45],
    storing: [0.45, 0.55],
    embedding: [0.55, 1],
  };
  const [start, end] = weights[item.status] ?? [0, 0];
  const within = stageFraction(item) ?? 0;
  return start + (end - start) * within;
}

export function statusTone(status: ItemStatus | string): Tone {
  if (status === "ready") return "ok";
  if (status === "failed") return "danger";
  if (status === "skipped") return "neutral";
  return "accent";
}

export function isActive(status: ItemStatus | string): boolean {
  return !["ready", "failed", "skipped"].includes(status);
}

/** One line for the whole run: "2 of 3 ready · 1 failed". */
export function runSummary(items: IngestItem[]): string {
  const count = (status: ItemStatus) => items.filter((item) => item.status === status).length;
  const finished = count("ready") + count("skipped");
  const failed = count("failed");
  const parts = [`${finished} of ${items.length} ready`];
  if (failed) parts.push(`${failed} failed`);
  return parts.join(" · ");
}
