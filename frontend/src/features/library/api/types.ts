/**
 * Ingestion run shapes (backend/api/ingest.py), from the generated schema (each file's stage and the
 * run's phase are enums there) with the run status narrowed to DBOS's values, which the schema leaves a
 * string. Then the shapes of document identity, versions, trash and refusals (issue #11).
 */
import type { components, operations } from "@/api/schema";

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
 * Document identity, versions, trash and refusals (issue #11, API-11.md), from the generated schema.
 */

/** How an upload treats a name already used in its category: the upload endpoint's `on_conflict`. */
export type OnConflict = NonNullable<
  NonNullable<operations["upload_documents_api_documents_post"]["parameters"]["query"]>["on_conflict"]
>;
export type DocumentStatus = Schemas["DocumentOut"]["status"];

/** A document with its identity (current version, version count, when trashed). */
export type LibraryDocument = Schemas["DocumentOut"];

/** The existing document a conflicting upload would collide with (409 `name_conflict`). */
export type ExistingDocument = Schemas["ExistingDocumentOut"];
/** One uploaded file whose name is taken: `error.details.conflicts[]` of a 409 `name_conflict`. */
export type NameConflict = Schemas["NameConflictOut"];

/** `GET /api/documents/{id}/versions`, newest first. */
export type DocumentVersion = Schemas["VersionRow"];
export type VersionList = Schemas["VersionList"];
/** `DELETE /api/documents/{id}/versions/{version}`. */
export type VersionDeleted = Schemas["VersionDeleted"];

/** `DELETE /api/trash`: how many documents were deleted for good. */
export type TrashEmptied = Schemas["TrashEmptied"];

/** `GET /api/refusals`: a file refused at upload or URL import, until dismissed. */
export type Refusal = Schemas["Refusal"];
export type RefusalList = Schemas["RefusalList"];
/** `DELETE /api/refusals[/{id}]`: how many were dismissed. */
export type RefusalsDismissed = Schemas["RefusalsDismissed"];
