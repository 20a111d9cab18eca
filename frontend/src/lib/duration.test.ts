import { describe, expect, it } from "vitest";
import { formatClock, formatDuration, formatMinutesEstimate } from "./duration";

describe("durations", () => {
  it("says study time in words", () => {
    expect(formatDuration(0)).toBe("0 min");
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(60)).toBe("1 min");
    expect(formatDuration(12 * 60 + 20)).toBe("12 min");
    expect(formatDuration(3600)).toBe("1 h");
    expect(formatDuration(3600 + 5 * 60)).toBe("1 h 5 min");
    expect(formatDuration(-5)).toBe("0 min");
  });

  it("formats estimates and a waiting clock", () => {
    expect(formatMinutesEstimate(15)).toBe("~15 min");
    expect(formatMinutesEstimate(90)).toBe("~1 h 30 min");
    expect(formatClock(7)).toBe("0:07");
    expect(formatClock(92.6)).toBe("1:32");
  });
});
