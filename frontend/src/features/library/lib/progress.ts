/**
 * Words and numbers for ingestion progress, from a run item's state: "Extracting · page 3 of 21 (OCR)",
 * "Embedding · batch 4 of 12", "Ready · 21 pages, 340 passages" ("12 slides" for a deck), or the error in words. Pure.
 */
import type { Tone } from "@/components/Badge";
import { listNames, plural } from "@/lib/format";
import { formatLength } from "@/lib/location";
import type { IngestItem, ItemStatus, RunStatus } from "../api/types";

const STAGE: Record<ItemStatus, string> = {
  queued: "Queued",
  extracting: "Extracting",
  storing: "Storing",
  embedding: "Embedding",
  ready: "Ready",
  skipped: "Unchanged",
  failed: "Failed",
};

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
      if (item.pages) parts.push(formatLength(item.kind, item.pages));
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

/** A document's status in the library list, by id (undefined while unknown). */
export type DocumentStatusOf = (documentId: string) => string | undefined;

/**
 * What a cancel did to a file: the server takes every file it had not finished out of the run, saying it
 * was cancelled — one already stored but not ready yet (waiting for or getting its embeddings) too, so
 * nothing of it stays. "earlier" when the library keeps the document at the version it had before (its
 * document is ready), "cancelled" when the file is not in the library at all. Null for files the cancel
 * didn't touch (finished before it, or failed on their own with their own error).
 */
export function afterCancel(item: IngestItem, run: RunStatus | undefined, statusOf: DocumentStatusOf): "earlier" | "cancelled" | null {
  if (run !== "CANCELLED" || item.status !== "failed" || !/cancel/i.test(item.error ?? "")) return null;
  return statusOf(item.id) === "ready" ? "earlier" : "cancelled";
}

/** Files still being worked on, which cancelling would stop. */
export function inFlight(items: IngestItem[]): IngestItem[] {
  return items.filter((item) => isActive(item.status));
}

/** What cancelling now would do to the files in flight, in words: none of them is added. */
export function cancelWarning(items: IngestItem[]): string {
  const pending = inFlight(items).map((item) => item.filename);
  if (!pending.length) return "";
  const one = pending.length === 1;
  return `${listNames(pending)} ${one ? "isn't" : "aren't"} ready yet and won't be added — you can upload `
    + `${one ? "it" : "them"} again later. A file that replaces an earlier version keeps that version.`;
}

function tally(items: IngestItem[], run: RunStatus | undefined, statusOf: DocumentStatusOf) {
  let ready = 0, failed = 0, cancelled = 0;
  for (const item of items) {
    const outcome = afterCancel(item, run, statusOf);
    if (outcome !== null) cancelled += 1;
    else if (item.status === "ready" || item.status === "skipped") ready += 1;
    else if (item.status === "failed") failed += 1;
  }
  return { ready, failed, cancelled };
}

/** One line for the whole run: "2 of 3 ready · 1 failed" (and "· 1 cancelled" after a cancel). */
export function runSummary(items: IngestItem[], run?: RunStatus, statusOf: DocumentStatusOf = () => undefined): string {
  const { ready, failed, cancelled } = tally(items, run, statusOf);
  const parts = [`${ready} of ${items.length} ready`];
  if (failed) parts.push(`${failed} failed`);
  if (cancelled) parts.push(`${cancelled} cancelled`);
  return parts.join(" · ");
}

/** What a cancel left behind, in a sentence: what stays in the library and what to upload again. */
export function cancelOutcome(items: IngestItem[], statusOf: DocumentStatusOf): string {
  const { ready, cancelled } = tally(items, "CANCELLED", statusOf);
  if (!cancelled) return "Cancelled, but every file was already in your library — nothing was lost.";
  const again = cancelled === 1 ? "upload it again to add it" : "upload them again to add them";
  if (!ready) return `Cancelled — nothing was added; ${again}.`;
  return `Cancelled — ${plural(ready, "file")} already ready ${ready === 1 ? "stays" : "stay"} in your library; `
    + `${cancelled} ${cancelled === 1 ? "wasn't" : "weren't"} added (${again}).`;
}
