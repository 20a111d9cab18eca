/**
 * API types the app uses, named. Most come from the generated OpenAPI schema; the few endpoints the
 * backend returns as untyped dicts (health, ingest runs) are described here by hand from their code.
 */
import type { components } from "./schema";

type Schemas = components["schemas"];

export type DocumentOut = Schemas["DocumentOut"];
export type CategoryOut = Schemas["CategoryOut"];
export type UploadAccepted = Schemas["UploadAccepted"];
export type RejectedUpload = Schemas["RejectedUpload"];
export type SearchResponse = Schemas["SearchResponse"];
export type SearchHit = Schemas["SearchHit"];
export type ChatSession = Schemas["ChatSessionOut"];
export type DeckSummary = Schemas["DeckSummary"];

/** `GET /api/health` (backend/api/health.py). */
export interface HealthStatus {
  status: "ok" | "degraded";
  version: string;
  postgres: { ok: boolean; embedded: boolean };
  dbos: { ok: boolean; error?: string };
  ollama: {
    reachable: boolean;
    host: string;
    models: string[];
    chat_model: { name: string; present: boolean };
    embed_model: { name: string; present: boolean };
    error: string | null;
  };
  embedder: { kind: string; model: string };
  /** Speech to text for the composer's mic (optional install: requirements-voice.txt). */
  voice: { available: boolean; model: string | null; multilingual: boolean; hint: string | null };
  processes: ProcessStatus[];
  hints: string[];
}

/** One Quire process (server or worker) sharing the database, from `GET /api/health`. */
export interface ProcessStatus {
  executor_id: string;
  mode: "server" | "worker";
  hostname: string;
  pid: number;
  address: string | null;
  started_at: string;
  last_seen: string;
  alive: boolean;
  this_process: boolean;
  activity: { pending_workflows: number; by_workflow: Record<string, number> };
  taken_over_by: string | null;
  recovered_workflows: number;
}
