import { describe, expect, it } from "vitest";
import { groundingMessage, isUngrounded, readingLabel } from "./grounding";
import { applyEvent, newTurn, turnPhase } from "./turns";

describe("grounding and reading words", () => {
  it("marks answers that do not stand on the documents", () => {
    expect(isUngrounded("uncited")).toBe(true);
    expect(isUngrounded("not_covered")).toBe(true);
    expect(isUngrounded("cited")).toBe(false);
    expect(isUngrounded(undefined)).toBe(false);
    expect(groundingMessage("uncited")).toMatch(/^Not from your documents/);
  });

  it("says how much the model is reading, and that it is still at it", () => {
    expect(readingLabel(1270, 0)).toBe("The model is reading (1,270 tokens)…");
    expect(readingLabel(1270, 42)).toMatch(/^The model is still reading \(1,270 tokens, 42 s so far\)/);
    expect(readingLabel(1270, 300)).toContain("5 min so far");
  });

  it("shows reading until the first line of the reply, then the answer", () => {
    let turn = newTurn("t", "q");
    turn = applyEvent(turn, { type: "progress", data: { stage: "reading", prompt_tokens: 1270, waited_s: 0 } });
    expect(turnPhase(turn)).toBe("reading");
    turn = applyEvent(turn, { type: "progress", data: { stage: "reading", prompt_tokens: 1270, waited_s: 10 } });
    expect(turn.reading?.waited_s).toBe(10);
    turn = applyEvent(turn, { type: "text", data: "Answer" });
    expect(turnPhase(turn)).toBe("answering");
    turn = applyEvent(turn, { type: "grounding", data: { status: "uncited", message: "Not from your documents" } });
    expect(turn.grounding?.status).toBe("uncited");
  });
});
