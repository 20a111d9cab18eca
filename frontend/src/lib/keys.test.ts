import { describe, expect, it } from "vitest";
import { radioKeyTarget } from "./keys";

describe("radio group keys", () => {
  it("moves with the arrows, wrapping at both ends, and jumps with Home/End", () => {
    expect(radioKeyTarget("ArrowDown", 0, 4)).toBe(1);
    expect(radioKeyTarget("ArrowRight", 3, 4)).toBe(0);
    expect(radioKeyTarget("ArrowUp", 0, 4)).toBe(3);
    expect(radioKeyTarget("ArrowLeft", 2, 4)).toBe(1);
    expect(radioKeyTarget("Home", 2, 4)).toBe(0);
    expect(radioKeyTarget("End", 0, 4)).toBe(3);
  });

  it("ignores other keys and empty groups", () => {
    expect(radioKeyTarget("Enter", 0, 4)).toBeNull();
    expect(radioKeyTarget("a", 0, 4)).toBeNull();
    expect(radioKeyTarget("ArrowDown", 0, 0)).toBeNull();
  });
});
