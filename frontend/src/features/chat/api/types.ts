/**
 * The chat stream's events (DESIGN §5, backend/agent/stream.py) and the transcript types. The stream
 * is NDJSON, so its events are described here; the request and the transcript come from the generated
 * schema.
 */
import type { components } from "@/api/schema";

export type TranscriptMessage = components["schemas"]["ChatMessageOut"];
export type ChatSessionDetail = components["schemas"]["ChatSessionDetail"];
export type { ChatSession } from "@/api/types";
/** How full the conversation's memory is: the stream's `memory` line, also stored with each answer. */
export type MemoryInfo = components["schemas"]["ChatMemoryOut"];
/** The model that answers and what it can do: the stream's `model` line, also stored with each answer. */
export type ModelInfo = components["schemas"]["ChatModelOut"];
/** Whether an answer stands on the user's documents (backend/agent/grounding.py). */
export type GroundingStatus = NonNullable<TranscriptMessage["grounding"]>;

export interface GroundingInfo {
  status: GroundingStatus;
  message: string;
}

/** The model is reading a prompt of about `prompt_tokens` tokens (no line of its answer yet). */
export interface ProgressInfo {
  stage: "reading";
  prompt_tokens: number;
  waited_s: number;
}

/** One source of an answer: the stream's `metadata` line, and each of a stored answer's `citations`. */
export interface Citation {
  n: number;
  block_id: string;
  document_id: string;
  filename: string;
  page: number | null;
  section: string | null;
  snippet: string;
  score: number;
  /** The whole passage (the server adds it to the contract's fields). */
  text?: string;
  /** Relevant enough to answer from; false: only the closest match. Absent in answers stored before it existed. */
  relevant?: boolean;
  /** The printed page label of a PDF page ("iv"), when the document has one. */
  page_label?: string | null;
  /** The cited document's kind (pdf, pptx, xlsx, …); absent in older transcripts. */
  kind?: string | null;
  /** Other places of the document holding the same text (a repeated passage is one source); absent in older transcripts. */
  also_at?: { block_id: string; page: number | null; page_label: string | null; section: string | null }[];
}

export interface ToolCallEvent {
  id: string;
  name: string;
  args: Record<string, unknown>;
  status: "started" | "finished";
  summary?: string;
  /** "quire": the search Quire runs itself for every question; "model": the model's own call. */
  by?: "quire" | "model";
}

export interface ChatErrorInfo {
  code: string;
  message: string;
  retryable: boolean;
}

export type ChatEvent =
  | { type: "start"; data: { session_id: string; message_id: string; user_message_id?: string } }
  | { type: "model"; data: ModelInfo }
  | { type: "progress"; data: ProgressInfo }
  | { type: "grounding"; data: GroundingInfo }
  | { type: "thinking"; data: string }
  | { type: "tool"; data: ToolCallEvent }
  | { type: "metadata"; data: Citation }
  | { type: "text"; data: string }
  | { type: "memory"; data: MemoryInfo }
  | { type: "error"; data: ChatErrorInfo }
  | { type: "done"; data: { session_id: string; message_id: string } };

/** `POST /api/chat`'s body (backend/agent/chat.py `ChatRequest`). */
export type ChatRequest = components["schemas"]["ChatRequest"];

/**
 * What the UI knows about an attachment (sent ones come back from the transcript with this shape).
 * This and `Citation` stay hand-written: the schema types a stored message's attachments and citations
 * as open dicts (`ChatMessageOut`), and the stream's events are NDJSON lines OpenAPI does not describe.
 */
export interface AttachmentMeta {
  name: string;
  kind?: string;
  mime_type?: string;
  size_bytes?: number;
}
