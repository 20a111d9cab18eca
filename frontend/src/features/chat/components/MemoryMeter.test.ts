import { describe, expect, it } from "vitest";
import type { MemoryInfo } from "../api/types";
import { memoryDescription, memoryLabel } from "./MemoryMeter";

const memory = (used: number, dropped = 0, kept = 3): MemoryInfo =>
  ({ used_chars: used, budget_chars: 1000, turns_kept: kept, turns_dropped: dropped }) as MemoryInfo;

describe("memory meter words", () => {
  it("says the whole chat is remembered and how full memory is", () => {
    expect(memoryLabel(memory(340))).toBe("Remembers the whole chat · 34% of memory used");
  });

  it("says how many of the oldest turns were forgotten, with the right plural", () => {
    expect(memoryLabel(memory(990, 1))).toMatch(/^Forgot the oldest turn · 9\d% of memory used$/);
    expect(memoryLabel(memory(990, 2))).toMatch(/^Forgot the 2 oldest turns · /);
    expect(memoryDescription(memory(10, 0, 1))).toContain("1 earlier turn remembered");
  });

  it("shows the model's context and what was left out to fit it", () => {
    const fitted = { ...memory(500), context_tokens: 4096, used_tokens: 3000, answer_tokens: 1024, passages_dropped: 3 };
    expect(memoryLabel(fitted)).toBe("Remembers the whole chat · 50% of memory used · 4k-token context · 3 passages left out to fit");
    expect(memoryDescription(fitted)).toContain(
      "Sent about 3,000 of the model's 4,096-token context (1,024 kept for the answer); 3 lower-ranked passages left out to fit.",
    );
  });
});
