import { describe, expect, it } from "vitest";
import { clockTime, lineAt } from "./overviews";

describe("lineAt", () => {
  const lines = [{ start_s: 0 }, { start_s: 2.5 }, { start_s: 6 }];
  it("is the last line started by then", () => {
    expect(lineAt(lines, 0)).toBe(0);
    expect(lineAt(lines, 2.49)).toBe(1);
    expect(lineAt(lines, 5.9)).toBe(1);
    expect(lineAt(lines, 60)).toBe(2);
  });
  it("is none for lines not timed yet", () => {
    expect(lineAt([{ start_s: null }], 3)).toBe(-1);
  });
});

describe("clockTime", () => {
  it("reads as minutes and seconds", () => {
    expect(clockTime(75.4)).toBe("1:15");
    expect(clockTime(5)).toBe("0:05");
  });
});
