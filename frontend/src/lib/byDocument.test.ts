import { describe, expect, it } from "vitest";
import { groupByDocument } from "./byDocument";

describe("groupByDocument", () => {
  it("keeps each document's items together, documents in the order of their first item", () => {
    const a1 = { document_id: "a", filename: "a.pdf", n: 1 };
    const b1 = { document_id: "b", filename: "b.md", n: 2 };
    const a2 = { document_id: "a", filename: "a.pdf", n: 3 };
    expect(groupByDocument([a1, b1, a2])).toEqual([
      { document_id: "a", filename: "a.pdf", items: [a1, a2] },
      { document_id: "b", filename: "b.md", items: [b1] },
    ]);
    expect(groupByDocument([])).toEqual([]);
  });
});
