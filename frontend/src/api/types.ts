/**
 * API types the app uses, named, from the generated OpenAPI schema (`npm run gen:api`).
 */
import type { components } from "./schema";

type Schemas = components["schemas"];

export type DocumentOut = Schemas["DocumentOut"];
export type CategoryOut = Schemas["CategoryRow"];
export type UploadAccepted = Schemas["UploadAccepted"];
export type RejectedUpload = Schemas["RejectedUpload"];
export type SearchResponse = Schemas["SearchResponse"];
export type SearchHit = Schemas["Hit"];
/** Another place in a document holding the same text (a hit's or a citation's `also_at`). */
export type Location = Schemas["Location"];
/** Every error code the server may answer with (backend/errors.py `ErrorCode`). */
export type ErrorCode = Schemas["ErrorCode"];
export type ChatSession = Schemas["ChatSessionOut"];
export type DeckSummary = Schemas["DeckSummary"];

/**
 * `GET /api/health` (backend/api/health.py `Health`). Used as generated: no field the UI reads is
 * looser than it needs, so nothing is narrowed (`index` is an open dict of search stats the UI ignores).
 */
export type HealthStatus = Schemas["Health"];

/** One Quire process (server or worker) sharing the database, from `GET /api/health`. */
export type ProcessStatus = Schemas["ProcessStatus"];
/** One takeover of a dead (or hung, then fenced) process's work, from `GET /api/health`. */
export type Takeover = Schemas["Takeover"];
