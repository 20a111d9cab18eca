/**
 * The chat stream's events (DESIGN §5, backend/agent/stream.py) and the transcript types, all generated
 * from the backend's OpenAPI schema: the stream's lines are listed there as `ChatStreamLine`.
 */
import type { components } from "@/api/schema";

type Schemas = components["schemas"];

export type TranscriptMessage = Schemas["ChatMessageOut"];
export type ChatSessionDetail = Schemas["ChatSessionDetail"];
export type { ChatSession } from "@/api/types";
/** How full the conversation's memory is: the stream's `memory` line, also stored with each answer. */
export type MemoryInfo = Schemas["MemoryInfo"];
/** The model that answers and what it can do: the stream's `model` line, also stored with each answer. */
export type ModelInfo = Schemas["ModelInfo"];
/** Whether an answer stands on the user's documents (backend/agent/grounding.py): the `grounding` line. */
export type GroundingInfo = Schemas["GroundingInfo"];
export type GroundingStatus = GroundingInfo["status"];
/** The model is reading a prompt of about `prompt_tokens` tokens (no line of its answer yet). */
export type ProgressInfo = Schemas["ReadingProgress"];

/** One source of an answer: the stream's `metadata` line, and each of a stored answer's `citations`
 * (`relevant`, `page_label`, `kind` and `also_at` are absent in answers stored before they existed). */
export type Citation = Schemas["ChatCitation"];

/** A tool call of the agent: the stream's `tool` line (`by` "quire": the search Quire runs itself for
 * every question; "model": the model's own call). The stream always says `by`; a call rebuilt from an
 * older stored transcript may not, so it is optional here. */
export type ToolCallEvent = Omit<Schemas["ToolCallEvent"], "by"> & { by?: Schemas["ToolCallEvent"]["by"] };

/** What failed: the stream's `error` line, or `connection_lost`, the web app's own when the stream
 * broke off before its end. */
export type ChatErrorInfo = Omit<Schemas["StreamError"], "code"> & { code: Schemas["ErrorCode"] | "connection_lost" };

/** One line of the stream. */
export type ChatEvent = Schemas["ChatStreamLine"];

/** `POST /api/chat`'s body (backend/api/chat.py `ChatRequest`). */
export type ChatRequest = Schemas["ChatRequest"];

/**
 * What the UI knows about an attachment (sent ones come back from the transcript with this shape). It
 * stays hand-written: the server stores each attachment's description as an open object (a picture's
 * and an extracted document's differ), which the schema does not spell out.
 */
export interface AttachmentMeta {
  name: string;
  kind?: string;
  mime_type?: string;
  size_bytes?: number;
}
