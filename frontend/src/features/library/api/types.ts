/**
 * Ingestion run shapes (backend/api/ingest.py), from the generated schema with their status fields
 * narrowed to the values the server sends: DBOS's run statuses and each file's stage.
 */
import type { components } from "@/api/schema";

type Schemas = components["schemas"];

export type RunStatus = "PENDING" | "ENQUEUED" | "SUCCESS" | "ERROR" | "CANCELLED" | "MAX_RECOVERY_ATTEMPTS_EXCEEDED";
export type ItemStatus = "queued" | "extracting" | "storing" | "embedding" | "ready" | "skipped" | "failed";

export type IngestItem = Omit<Schemas["RunDocument"], "status"> & { status: ItemStatus };

export type IngestSnapshot = Omit<Schemas["RunSnapshot"], "status" | "documents"> & {
  status: RunStatus;
  documents: IngestItem[];
};

export type IngestRunSummary = Omit<Schemas["RunSummary"], "status"> & { status: RunStatus };

export type IngestEvent =
  | { type: "progress"; data: IngestSnapshot }
  | { type: "end"; data: { status: RunStatus } };

export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set([
  "SUCCESS",
  "ERROR",
  "CANCELLED",
  "MAX_RECOVERY_ATTEMPTS_EXCEEDED",
]);
