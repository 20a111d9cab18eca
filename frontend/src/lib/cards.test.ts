import { describe, expect, it } from "vitest";
import { clozeNumbers, hideAsCloze, normaliseAnswer, typedMatches } from "./cards";

describe("cloze deletions", () => {
  it("finds the numbers used, ignoring empty deletions", () => {
    expect(clozeNumbers("{{c2::ATP}} by {{c1::mitochondria::organelle}} and {{c2::again}} {{c5::}}")).toEqual([1, 2]);
    expect(clozeNumbers("no deletions")).toEqual([]);
  });

  it("hides the selection as the next number", () => {
    const text = "Mitochondria make ATP.";
    expect(hideAsCloze(text, 0, 12)).toEqual({ text: "{{c1::Mitochondria}} make ATP.", cursor: 20 });
    const second = hideAsCloze("{{c1::Mitochondria}} make ATP.", 26, 29);
    expect(second.text).toBe("{{c1::Mitochondria}} make {{c2::ATP}}.");
  });
});

describe("typed answers", () => {
  it("forgive case, accents, spacing and punctuation", () => {
    expect(normaliseAnswer("  Mitochondría!  ")).toBe("mitochondria");
    expect(typedMatches("the  Krebs-cycle", "The Krebs cycle")).toBe(true);
    expect(typedMatches("ATP", "ADP")).toBe(false);
    expect(typedMatches("", "")).toBe(false);
  });
});
