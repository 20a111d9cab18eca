import { describe, expect, it } from "vitest";
import { pictureParts, pipeCells, slideParts } from "./slide";

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

describe("pictureParts", () => {
  it("keeps a Word document's picture text apart and its other paragraphs as written", () => {
    expect(pictureParts("Plant cells\n\nThe board:\n\nText in picture:\nLight energy\nin\n\nAsk the tutor.\n\nBye")).toEqual([
      { kind: "text", text: "Plant cells\n\nThe board:" },
      { kind: "picture", text: "Light energy\nin" },
      { kind: "text", text: "Ask the tutor.\n\nBye" },
    ]);
  });

  it("leaves text without pictures whole", () => {
    expect(pictureParts("One\n\nTwo")).toEqual([{ kind: "text", text: "One\n\nTwo" }]);
  });
});
