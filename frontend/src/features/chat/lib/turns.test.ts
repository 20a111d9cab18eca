import { describe, expect, it } from "vitest";
import type { ErrorCode } from "@/api/types";
import type { ChatEvent, Citation, TranscriptMessage } from "../api/types";
import { applyEvent, latestMemory, newTurn, turnPhase, turnsFromTranscript } from "./turns";

const citation = (n: number): Citation => ({
  n, block_id: `b${n}`, document_id: "d1", filename: "bio.pdf", page: n, section: null, snippet: "s", score: 0.5,
  text: "", relevant: true,
});

function play(events: ChatEvent[]) {
  return events.reduce(applyEvent, newTurn("local-1", "How?"));
}

describe("a streamed turn", () => {
  it("builds up from the stream's events", () => {
    const turn = play([
      { type: "start", data: { session_id: "s", message_id: "a1", user_message_id: "u1" } },
      { type: "thinking", data: "Let me " },
      { type: "thinking", data: "think." },
      { type: "tool", data: { id: "c1", name: "search_knowledge_base", args: { query: "light" }, status: "started", by: "model" } },
      { type: "tool", data: { id: "c1", name: "search_knowledge_base", args: { query: "light" }, status: "finished", summary: "2 passages", by: "model" } },
      { type: "metadata", data: citation(2) },
      { type: "metadata", data: citation(1) },
      { type: "metadata", data: citation(1) },
      { type: "text", data: "Light [1]" },
      { type: "text", data: " and dark [2]." },
      { type: "memory", data: { used_chars: 10, budget_chars: 100, turns_kept: 0, turns_dropped: 0 } },
      { type: "done", data: { session_id: "s", message_id: "a1" } },
    ]);
    expect(turn).toMatchObject({
      key: "u1", userMessageId: "u1", answerId: "a1", thinking: "Let me think.", answer: "Light [1] and dark [2].", status: "complete",
    });
    expect(turn.tools).toEqual([{ id: "c1", name: "search_knowledge_base", args: { query: "light" }, status: "finished", summary: "2 passages", by: "model" }]);
    expect(turn.citations.map((c) => c.n)).toEqual([1, 2]);
    expect(turn.memory?.budget_chars).toBe(100);
  });

  it("moves text written before a tool call out of the answer", () => {
    const turn = play([
      { type: "text", data: "Let me look." },
      { type: "tool", data: { id: "c1", name: "calculator", args: {}, status: "started", by: "model" } },
      { type: "text", data: "42" },
    ]);
    expect(turn.preface).toBe("Let me look.");
    expect(turn.answer).toBe("42");
  });

  it("reports what it is doing", () => {
    expect(turnPhase(play([{ type: "thinking", data: "hm" }]))).toBe("thinking");
    expect(turnPhase(play([{ type: "tool", data: { id: "c", name: "x", args: {}, status: "started", by: "model" } }]))).toBe("searching");
    expect(turnPhase(play([{ type: "text", data: "A" }]))).toBe("answering");
  });

  it("ends as partial or error after a failure, but complete without a model", () => {
    const error = (code: ErrorCode): ChatEvent => ({ type: "error", data: { code, message: "m", retryable: true } });
    const done: ChatEvent = { type: "done", data: { session_id: "s", message_id: "a" } };
    expect(play([{ type: "text", data: "half" }, error("model_error"), done]).status).toBe("partial");
    expect(play([error("model_error"), done]).status).toBe("error");
    expect(play([{ type: "text", data: "passages" }, error("model_unavailable"), done]).status).toBe("complete");
  });
});

function message(change: Partial<TranscriptMessage>): TranscriptMessage {
  return {
    id: "m", turn: 1, seq: 0, role: "user", content: "", tool_calls: null, tool_call_id: null, tool_name: null,
    tool_summary: null, citations: [], thinking: null, attachments: [], scope: null, status: "complete", error: null,
    memory: null, created_at: "2026-11-30T10:00:00Z", ...change,
  };
}

describe("a stored transcript", () => {
  it("groups messages into turns with their tools, sources and answer", () => {
    const turns = turnsFromTranscript([
      message({ id: "u1", turn: 1, seq: 0, role: "user", content: "How?", attachments: [{ name: "a.png", kind: "image" }] }),
      message({ id: "r1", turn: 1, seq: 1, role: "assistant", content: "Searching.", tool_calls: [{ id: "c1", name: "search_knowledge_base", args: { query: "q" } }] }),
      message({ id: "t1", turn: 1, seq: 2, role: "tool", content: "...", tool_call_id: "c1", tool_name: "search_knowledge_base", tool_summary: "3 passages" }),
      message({ id: "a1", turn: 1, seq: 3, role: "assistant", content: "Because [1].", citations: [citation(1)], thinking: "hm" }),
      message({ id: "u2", turn: 2, seq: 0, role: "user", content: "And?" }),
      message({ id: "a2", turn: 2, seq: 1, role: "assistant", content: "", status: "error", error: { code: "model_error", message: "x", retryable: true } }),
    ]);
    expect(turns).toHaveLength(2);
    expect(turns[0]).toMatchObject({
      key: "u1", userMessageId: "u1", answerId: "a1", question: "How?", answer: "Because [1].", thinking: "hm",
      preface: "Searching.", status: "complete",
    });
    expect(turns[0]?.tools).toEqual([{ id: "c1", name: "search_knowledge_base", args: { query: "q" }, status: "finished", summary: "3 passages" }]);
    expect(turns[0]?.attachments[0]?.name).toBe("a.png");
    expect(turns[1]).toMatchObject({ status: "error", error: { code: "model_error" } });
  });
});

describe("the memory meter", () => {
  const memory = (used: number) => ({ used_chars: used, budget_chars: 48_000, turns_kept: 1, turns_dropped: 0 });

  it("comes back from the stored answers after a reload", () => {
    const turns = turnsFromTranscript([
      message({ id: "u1", turn: 1, role: "user", content: "How?" }),
      message({ id: "a1", turn: 1, seq: 1, role: "assistant", content: "Like this.", memory: memory(1200) }),
      message({ id: "u2", turn: 2, role: "user", content: "And?" }),
      message({ id: "a2", turn: 2, seq: 1, role: "assistant", content: "Also.", memory: memory(2500) }),
      // answered without the model: no memory figures, the meter keeps the previous ones
      message({ id: "u3", turn: 3, role: "user", content: "Still?" }),
      message({ id: "a3", turn: 3, seq: 1, role: "assistant", content: "Passages.", status: "error",
        error: { code: "model_unavailable", message: "x", retryable: true } }),
    ]);
    expect(turns.map((turn) => turn.memory?.used_chars)).toEqual([1200, 2500, undefined]);
    expect(latestMemory(turns)).toEqual(memory(2500));
    expect(latestMemory([])).toBeUndefined();
  });

  it("follows a streamed answer once its memory line arrives", () => {
    const [stored] = turnsFromTranscript([
      message({ id: "u1", turn: 1, role: "user", content: "How?" }),
      message({ id: "a1", turn: 1, seq: 1, role: "assistant", content: "Like this.", memory: memory(1200) }),
    ]);
    const streaming = play([{ type: "text", data: "Hm" }]);
    expect(latestMemory([stored!, streaming])?.used_chars).toBe(1200);
    const answered = applyEvent(streaming, { type: "memory", data: memory(3000) });
    expect(latestMemory([stored!, answered])?.used_chars).toBe(3000);
  });
});
