import { describe, expect, it } from "vitest";
import type { Guide } from "../api/types";
import { guideLines, numberCitations } from "./guides";

const source = (block: string, page: number | null = null) => ({ block_id: block, document_id: "d", filename: "cells.pdf", page });

const guide: Pick<Guide, "title" | "guide_type" | "entries"> = {
  title: "Briefing: cells.pdf",
  guide_type: "briefing",
  entries: [
    { heading: "Energy", text: "Mitochondria make ATP.", sources: [source("a", 2)] },
    { heading: "Energy", text: "ATP is spent.", sources: [source("b", 3), source("a", 2)] },
    { heading: "Proteins", text: "Ribosomes translate.", sources: [] },
  ],
};

describe("study guide citations", () => {
  it("number each passage once, in order of first use", () => {
    const numbered = numberCitations(guide);
    expect(numbered.entries.map((e) => e.marks)).toEqual([[1], [2, 1], []]);
    expect(numbered.sources.map((s) => s.block_id)).toEqual(["a", "b"]);
  });

  it("lay a briefing out under its section headings with the sources last", () => {
    expect(guideLines(guide)).toEqual([
      { kind: "title", text: "Briefing: cells.pdf" },
      { kind: "heading", text: "Energy" },
      { kind: "item", text: "• Mitochondria make ATP. [1]" },
      { kind: "item", text: "• ATP is spent. [2][1]" },
      { kind: "heading", text: "Proteins" },
      { kind: "item", text: "• Ribosomes translate. " },
      { kind: "heading", text: "Sources" },
      { kind: "item", text: "1. cells.pdf, p. 2" },
      { kind: "item", text: "2. cells.pdf, p. 3" },
    ]);
  });
});
