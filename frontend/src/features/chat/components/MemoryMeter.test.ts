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
});
