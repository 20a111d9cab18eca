/**
 * Ingestion run shapes (backend/api/ingest.py), from the generated schema (each file's stage and the
 * run's phase are enums there) with the run status narrowed to DBOS's values, which the schema leaves a
 * string. Then the shapes of document identity, versions, trash and refusals (issue #11).
 */
import type { components } from "@/api/schema";
import type { DocumentOut } from "@/api/types";

type Schemas = components["schemas"];

export type RunStatus = "PENDING" | "ENQUEUED" | "SUCCESS" | "ERROR" | "CANCELLED" | "MAX_RECOVERY_ATTEMPTS_EXCEEDED";
export type ItemStatus = Schemas["RunDocument"]["status"];

export type IngestItem = Schemas["RunDocument"];

export type IngestSnapshot = Omit<Schemas["RunSnapshot"], "status"> & { status: RunStatus };

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

/*
 * Document identity, versions, trash and refusals (issue #11, API-11.md). Written by hand from the
 * contract while the backend lands; once its OpenAPI schema is generated these are to be replaced by
 * `Schemas[...]` names (documents' identity fields, VersionOut, RefusalOut, the 409 details).
 */

export type OnConflict = "ask" | "replace" | "keep_both";
export type DocumentStatus = Schemas["DocumentOut"]["status"];

/** What API-11 adds to each document; optional so a list from an older server still type-checks. */
export interface DocumentIdentity {
  current_version: number;
  versions: number;
  trashed_at: string | null;
}

export type LibraryDocument = DocumentOut & Partial<DocumentIdentity>;

/** The existing document a conflicting upload would collide with (409 `name_conflict`). */
export interface ExistingDocument {
  id: string;
  filename: string;
  category: string | null;
  size_bytes: number | null;
  updated_at: string;
  status: DocumentStatus;
}

export interface NameConflict {
  /** The uploaded file's name. */
  filename: string;
  existing: ExistingDocument;
}

/** `GET /api/documents/{id}/versions`, newest first. */
export interface DocumentVersion {
  version: number;
  filename: string;
  sha256: string;
  size_bytes: number | null;
  pages: number | null;
  kind: string | null;
  created_at: string;
  current: boolean;
}

/** `GET /api/refusals`: a file refused at upload or URL import, until dismissed. */
export interface Refusal {
  id: string;
  filename: string;
  category: string | null;
  code: string;
  message: string;
  created_at: string;
}
