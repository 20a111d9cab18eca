import { describe, expect, it } from "vitest";
import { groupSources, sourceGroupLabel } from "./sources";

const source = (document_id: string, filename: string, page: number | null, block_id = `${document_id}-${page}`) =>
  ({ block_id, document_id, filename, page });

describe("sources", () => {
  it("groups passages by document in order of first use, pages sorted and unique", () => {
    const groups = groupSources([
      source("d1", "lecture-3.pdf", 14), source("d2", "notes.md", null), source("d1", "lecture-3.pdf", 12),
      source("d1", "lecture-3.pdf", 14, "other-block"),
    ]);
    expect(groups).toEqual([
      { document_id: "d1", filename: "lecture-3.pdf", pages: [12, 14] },
      { document_id: "d2", filename: "notes.md", pages: [] },
    ]);
  });

  it("reads as 'lecture-3.pdf, p. 12'", () => {
    expect(sourceGroupLabel({ document_id: "d", filename: "lecture-3.pdf", pages: [12] })).toBe("lecture-3.pdf, p. 12");
    expect(sourceGroupLabel({ document_id: "d", filename: "a.pdf", pages: [2, 5] })).toBe("a.pdf, pp. 2, 5");
  });
});
