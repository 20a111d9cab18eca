import { describe, expect, it } from "vitest";
import { pipeCells, slideParts } from "./slide";

describe("slideParts", () => {
  it("splits text, tables and notes", () => {
    const parts = slideParts("Title\n\nA bullet\nanother\n\n| A | B |\n| 1 | a\\|b |\n\nNotes: say hello");
    expect(parts).toEqual([
      { kind: "text", text: "Title" },
      { kind: "text", text: "A bullet\nanother" },
      { kind: "table", rows: [["A", "B"], ["1", "a|b"]] },
      { kind: "notes", text: "say hello" },
    ]);
  });

  it("keeps the text read from a picture apart", () => {
    expect(slideParts("Cells\n\nText in picture:\nMitochondria produce\nenergy\n\nNotes: ask")).toEqual([
      { kind: "text", text: "Cells" },
      { kind: "picture", text: "Mitochondria produce\nenergy" },
      { kind: "notes", text: "ask" },
    ]);
  });

  it("does not read an ordinary line as a row", () => {
    expect(pipeCells("a | b")).toBeNull();
  });
});
