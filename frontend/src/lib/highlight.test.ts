import { describe, expect, it } from "vitest";
import { highlightSegments, queryTerms, readableMarkdown, withoutOverlap } from "./highlight";

describe("queryTerms", () => {
  it("keeps distinct words of two characters or more, lower-cased", () => {
    expect(queryTerms("Topologie, a topologie of R^2!")).toEqual(["topologie"]);
  });

  it("leaves out common words but keeps numbers", () => {
    expect(queryTerms("from the memory allocator at runtime 42")).toEqual(["memory", "allocator", "runtime", "42"]);
  });
});

describe("withoutOverlap", () => {
  it("drops the words a chunk repeats from the end of the one before", () => {
    expect(withoutOverlap("First part. It needs memory here.", "It needs memory here. Then more.")).toBe("Then more.");
  });

  it("keeps text that does not repeat", () => {
    expect(withoutOverlap("Something else entirely.", "A new paragraph.")).toBe("A new paragraph.");
    expect(withoutOverlap(undefined, "Alone.")).toBe("Alone.");
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

describe("readableMarkdown", () => {
  it("undoes escapes and drops inline tags", () => {
    expect(readableMarkdown("Rhino\\[edit\\] mode.<sup>\\[63\\]</sup> a \\* b")).toBe("Rhino[edit] mode.[63] a * b");
  });

  it("leaves a comparison alone", () => {
    expect(readableMarkdown("if a < b and c > d")).toBe("if a < b and c > d");
  });
});

describe("number terms", () => {
  it("keeps decimals together", () => {
    expect(queryTerms("Gentoo 45.2")).toEqual(["gentoo", "45.2"]);
    expect(highlightSegments("45.9 and 45.2", ["45.2"]).filter((s) => s.match).map((s) => s.text)).toEqual(["45.2"]);
  });
});
