/** `POST /api/chat` as an async stream of typed events; lines that aren't events are skipped. */
import { apiStream } from "@/lib/api";
import type { ChatEvent, ChatRequest } from "./types";

const TYPES = new Set([
  "start", "model", "progress", "thinking", "tool", "metadata", "text", "grounding", "memory", "error", "done",
]);

export function isChatEvent(value: unknown): value is ChatEvent {
  return (
    typeof value === "object" && value !== null && "type" in value && "data" in value &&
    TYPES.has(String((value as { type: unknown }).type))
  );
}

export async function* streamChat(body: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatEvent> {
  const events = await apiStream("/api/chat", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  for await (const event of events) {
    if (event.type === "value" && isChatEvent(event.value)) yield event.value;
  }
}
