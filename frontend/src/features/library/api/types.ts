/**
 * Ingestion run shapes, from backend/ingest/progress.py (those endpoints return plain dicts, so they
 * are not in the generated schema).
 */
export type RunStatus = "PENDING" | "ENQUEUED" | "SUCCESS" | "ERROR" | "CANCELLED" | "MAX_RECOVERY_ATTEMPTS_EXCEEDED";
export type ItemStatus = "queued" | "extracting" | "storing" | "embedding" | "ready" | "skipped" | "failed";

export interface IngestItem {
  id: string;
  filename: string;
  status: ItemStatus;
  decision: string | null;
  error: string | null;
  warnings: string[];
  progress: { done: number; total: number; detail: string | null };
  pages: number | null;
  blocks: number | null;
  embedded: number | null;
}

export interface IngestSnapshot {
  workflow_id: string;
  status: RunStatus;
  source?: string;
  created_at?: string;
  documents: IngestItem[];
  steps: Array<{ name: string; status: string; started_at: string | null; finished_at: string | null }>;
  progress: { phase: string | null; done: number; total: number; detail: string | null };
}

export interface IngestRunSummary {
  workflow_id: string;
  status: RunStatus;
  source: string;
  phase: string | null;
  created_at: string;
  updated_at: string;
}

export type IngestEvent =
  | { type: "progress"; data: IngestSnapshot }
  | { type: "end"; data: { status: RunStatus } };

export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set([
  "SUCCESS",
  "ERROR",
  "CANCELLED",
  "MAX_RECOVERY_ATTEMPTS_EXCEEDED",
]);
