import { describe, expect, it } from "vitest";
import { highlightSegments, queryTerms } from "./highlight";

describe("queryTerms", () => {
  it("keeps distinct words of two characters or more, lower-cased", () => {
    expect(queryTerms("Topologie, a topologie of R^2!")).toEqual(["topologie", "of"]);
  });
});

describe("highlightSegments", () => {
  it("marks whole words that start with a term, case-insensitively", () => {
    const segments = highlightSegments("Die Topologie ist topologisch schön", ["topolog"]);
    expect(segments.filter((s) => s.match).map((s) => s.text)).toEqual(["Topologie", "topologisch"]);
    expect(segments.map((s) => s.text).join("")).toBe("Die Topologie ist topologisch schön");
  });

  it("does not mark a term inside another word", () => {
    expect(highlightSegments("paper tape", ["ape"]).some((s) => s.match)).toBe(false);
  });

  it("treats markup in the text as text", () => {
    const segments = highlightSegments("<img src=x onerror=alert(1)> owner", ["owner"]);
    expect(segments[0]).toEqual({ text: "<img src=x onerror=alert(1)> ", match: false });
    expect(segments[1]).toEqual({ text: "owner", match: true });
  });

  it("escapes terms that look like patterns", () => {
    expect(highlightSegments("a+b aab c", ["a+b"]).filter((s) => s.match).map((s) => s.text)).toEqual(["a+b"]);
  });
});
