/**
 * A chat turn as the UI shows it — question, reasoning, tool calls, sources, answer — built either
 * live from stream events (`applyEvent`) or from a stored transcript (`turnsFromTranscript`), so a
 * streamed answer and the same answer after a reload look identical. Pure.
 */
import type {
  AttachmentMeta,
  ChatErrorInfo,
  ChatEvent,
  Citation,
  GroundingInfo,
  MemoryInfo,
  ModelInfo,
  ProgressInfo,
  ToolCallEvent,
  TranscriptMessage,
} from "../api/types";
import { groundingMessage } from "./grounding";

export type TurnStatus = "streaming" | "complete" | "partial" | "error" | "stopped";

export interface ChatTurn {
  key: string;
  userMessageId?: string;
  answerId?: string;
  question: string;
  attachments: AttachmentMeta[];
  thinking: string;
  /** Text the model wrote before it called tools ("Let me look that up"). */
  preface: string;
  tools: ToolCallEvent[];
  citations: Citation[];
  answer: string;
  status: TurnStatus;
  error?: ChatErrorInfo;
  memory?: MemoryInfo;
  /** The answering model and what it can do (absent in older transcripts). */
  model?: ModelInfo;
  /** Whether the answer stands on the documents (absent for small talk and older transcripts). */
  grounding?: GroundingInfo;
  /** Set while the model reads its prompt: no line of its reply has come yet. */
  reading?: ProgressInfo;
}

export function newTurn(key: string, question: string, attachments: AttachmentMeta[] = []): ChatTurn {
  return { key, question, attachments, thinking: "", preface: "", tools: [], citations: [], answer: "", status: "streaming" };
}

function upsertTool(tools: ToolCallEvent[], tool: ToolCallEvent): ToolCallEvent[] {
  const index = tools.findIndex((item) => item.id === tool.id);
  if (index < 0) return [...tools, tool];
  return tools.map((item, i) => (i === index ? { ...item, ...tool } : item));
}

export function applyEvent(turn: ChatTurn, event: ChatEvent): ChatTurn {
  // Any line but a reading notice means the model (or a tool) has moved on.
  const moved = event.type === "progress" || event.type === "model" ? turn : { ...turn, reading: undefined };
  return applyLine(moved, event);
}

function applyLine(turn: ChatTurn, event: ChatEvent): ChatTurn {
  switch (event.type) {
    case "start": {
      // From here on the turn is keyed like its stored version, so swapping the live turn for the
      // stored one keeps the same component (and any edit in progress).
      const userMessageId = event.data.user_message_id ?? turn.userMessageId;
      return { ...turn, key: userMessageId ?? turn.key, answerId: event.data.message_id, userMessageId };
    }
    case "model":
      return { ...turn, model: event.data };
    case "progress":
      return { ...turn, reading: event.data };
    case "grounding":
      return { ...turn, grounding: event.data };
    case "thinking":
      return { ...turn, thinking: turn.thinking + event.data };
    case "tool": {
      // Text streamed before a tool call was the model thinking aloud, not the answer.
      const moved = event.data.status === "started" && turn.answer ? { preface: turn.preface + turn.answer, answer: "" } : {};
      return { ...turn, ...moved, tools: upsertTool(turn.tools, event.data) };
    }
    case "metadata":
      if (turn.citations.some((c) => c.n === event.data.n)) return turn;
      return { ...turn, citations: [...turn.citations, event.data].sort((a, b) => a.n - b.n) };
    case "text":
      return { ...turn, answer: turn.answer + event.data };
    case "memory":
      return { ...turn, memory: event.data };
    case "error":
      return { ...turn, error: event.data };
    case "done":
      return { ...turn, answerId: event.data.message_id, status: finalStatus(turn) };
  }
}

function finalStatus(turn: ChatTurn): TurnStatus {
  if (!turn.error || turn.error.code === "model_unavailable") return "complete";
  return turn.answer ? "partial" : "error";
}

/** What the assistant is doing right now, for the live status line. */
export function turnPhase(turn: ChatTurn): "thinking" | "searching" | "reading" | "answering" | "waiting" | "done" {
  if (turn.status !== "streaming") return "done";
  if (turn.reading) return "reading";
  if (turn.answer) return "answering";
  if (turn.tools.some((tool) => tool.status === "started")) return "searching";
  if (turn.tools.length) return "waiting";
  if (turn.thinking) return "thinking";
  return "waiting";
}

function asArray<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function toolsOf(messages: TranscriptMessage[]): ToolCallEvent[] {
  const summaries = new Map(
    messages.filter((m) => m.role === "tool" && m.tool_call_id).map((m) => [m.tool_call_id as string, m.tool_summary ?? undefined]),
  );
  return messages.flatMap((m) =>
    asArray<{ id: string; name: string; args: Record<string, unknown>; by?: "quire" | "model" }>(m.tool_calls).map(
      (call) => ({
        id: call.id,
        name: call.name,
        args: call.args ?? {},
        status: summaries.has(call.id) ? "finished" : "started",
        summary: summaries.get(call.id),
        by: call.by,
      }),
    ),
  );
}

/** Stored statuses: complete, error, or partial (cut short — or still being answered). */
function statusOf(value: string): TurnStatus {
  return value === "complete" || value === "error" ? value : "partial";
}

/** Groups a stored transcript (ordered by turn, seq) into turns. */
export function turnsFromTranscript(messages: TranscriptMessage[]): ChatTurn[] {
  const byTurn = new Map<number, TranscriptMessage[]>();
  messages.forEach((m) => byTurn.set(m.turn, [...(byTurn.get(m.turn) ?? []), m]));
  const turns: ChatTurn[] = [];
  for (const group of byTurn.values()) {
    const user = group.find((m) => m.role === "user");
    const assistants = group.filter((m) => m.role === "assistant");
    const rounds = assistants.filter((m) => asArray(m.tool_calls).length > 0);
    const final = [...assistants].reverse().find((m) => asArray(m.tool_calls).length === 0);
    const answer = final?.content ?? "";
    const error = (final?.error ?? undefined) as ChatErrorInfo | undefined;
    turns.push({
      key: user?.id ?? `turn-${group[0]?.turn}`,
      userMessageId: user?.id,
      answerId: final?.id,
      question: user?.content ?? "",
      attachments: asArray<AttachmentMeta>(user?.attachments),
      thinking: final?.thinking ?? "",
      preface: rounds.map((m) => m.content).filter(Boolean).join("\n\n"),
      tools: toolsOf(group),
      citations: asArray<Citation>(final?.citations).sort((a, b) => a.n - b.n),
      answer,
      status: final ? statusOf(final.status) : "error",
      error,
      memory: final?.memory ?? undefined,
      model: final?.model ?? undefined,
      grounding: final?.grounding ? { status: final.grounding, message: groundingMessage(final.grounding) } : undefined,
    });
  }
  return turns;
}

/** The conversation's memory as of its latest answer that used the model (answers without it have none). */
export function latestMemory(turns: ChatTurn[]): MemoryInfo | undefined {
  return turns.findLast((turn) => turn.memory)?.memory;
}
