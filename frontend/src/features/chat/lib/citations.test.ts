import { describe, expect, it } from "vitest";
import { citationFromHref, citedNumbers, isCovered, linkCitations, orderSources, plainSnippet, readingNotice, splitSources } from "./citations";

const known = new Set([1, 2, 3]);

describe("citation markers", () => {
  it("links [n] markers of known citations", () => {
    expect(linkCitations("Light is absorbed [1].", known)).toBe("Light is absorbed [1](#cite-1).");
  });

  it("links lists and runs of markers", () => {
    expect(linkCitations("Both [1, 2] and [2][3].", known)).toBe("Both [1](#cite-1)[2](#cite-2) and [2](#cite-2)[3](#cite-3).");
  });

  it("leaves unknown numbers, code and real links alone", () => {
    expect(linkCitations("See [7].", known)).toBe("See [7].");
    expect(linkCitations("Use `arr[1]` here [1]", known)).toBe("Use `arr[1]` here [1](#cite-1)");
    expect(linkCitations("```\nx = a[2]\n```\n[2]", known)).toBe("```\nx = a[2]\n```\n[2](#cite-2)");
    expect(linkCitations("[1](https://example.org) [1]", known)).toBe("[1](https://example.org) [1](#cite-1)");
  });

  it("does nothing without citations", () => {
    expect(linkCitations("Text [1]", new Set())).toBe("Text [1]");
  });

  it("reads citation links back", () => {
    expect(citationFromHref("#cite-3")).toBe(3);
    expect(citationFromHref("#cite-x")).toBeNull();
    expect(citationFromHref("https://example.org")).toBeNull();
    expect(citationFromHref(undefined)).toBeNull();
  });

  it("lists cited numbers in order of first use", () => {
    expect(citedNumbers("B [2], A [1, 2], C [3][2]")).toEqual([2, 1, 3]);
  });

  it("puts cited sources first", () => {
    const sources = [1, 2, 3, 4].map((n) => ({ n }));
    expect(orderSources(sources, [3, 1]).map((s) => s.n)).toEqual([3, 1, 2, 4]);
  });

  it("splits cited sources (in order of use) from the ones only searched", () => {
    const sources = [1, 2, 3, 4].map((n) => ({ n }));
    const { cited, rest } = splitSources(sources, [3, 1]);
    expect(cited.map((s) => s.n)).toEqual([3, 1]);
    expect(rest.map((s) => s.n)).toEqual([2, 4]);
    expect(splitSources(sources, []).cited).toEqual([]);
  });

  it("tells an answer the documents cover from one they do not", () => {
    expect(isCovered([{ relevant: false }, { relevant: true }])).toBe(true);
    expect(isCovered([{ relevant: false }, { relevant: false }])).toBe(false);
    expect(isCovered([{}])).toBe(true); // stored before relevance was judged
    expect(isCovered([])).toBe(true);
  });

  it("cleans Markdown out of snippets", () => {
    expect(plainSnippet("# Cells ## Organelles **Mitochondria**  produce `ATP`")).toBe("Cells Organelles Mitochondria produce ATP");
  });
});

describe("documents still being read", () => {
  it("says so in the user's words, from the search tool's summary", () => {
    expect(readingNotice([{ name: "search_knowledge_base", summary: "2 documents are still being read" }]))
      .toBe("2 documents are still being read — ask again when they are ready.");
    expect(readingNotice([{ name: "search_knowledge_base", summary: "1 document is still being read" }]))
      .toBe("1 document is still being read — ask again when it is ready.");
  });

  it("is nothing when the search found passages or another tool said it", () => {
    expect(readingNotice([{ name: "search_knowledge_base", summary: "3 passages from 1 document" }])).toBeNull();
    expect(readingNotice([{ name: "list_documents", summary: "2 documents are still being read" }])).toBeNull();
    expect(readingNotice([])).toBeNull();
  });
});
