import { describe, expect, it } from "vitest";
import { matchScore, searchPalette, type GroupSpec } from "./paletteSearch";

const GROUPS: GroupSpec[] = [
  { name: "Go to", browse: true },
  { name: "Study", browse: true },
  { name: "Conversations", browse: false, limit: 2 },
  { name: "Documents", browse: false, limit: 2 },
  { name: "Passages", browse: false, limit: 2, matchedByServer: true },
];

const items = [
  { label: "Go to Library", keywords: "documents upload", group: "Go to" },
  { label: "Go to Chat", keywords: "ask question", group: "Go to" },
  { label: "New quiz", keywords: "questions test", group: "Study" },
  { label: "New flashcards", keywords: "cards deck", group: "Study" },
  { label: "Photosynthesis questions", group: "Conversations" },
  { label: "What is a quiz bowl?", group: "Conversations" },
  { label: "cell-biology-lecture.pdf", keywords: "Biology PDF", group: "Documents" },
  { label: "biology-notes.md", keywords: "Biology MD", group: "Documents" },
  { label: "microbiology.pdf", keywords: "PDF", group: "Documents" },
  { label: "Chlorophyll absorbs red and blue light", group: "Passages" },
  { label: "Leaves are green", group: "Passages" },
  { label: "A third passage", group: "Passages" },
];

const labels = (query: string) => searchPalette(items, query, GROUPS).map((group) => [group.name, group.items.map((i) => i.label)]);

describe("command palette search", () => {
  it("needs every word, in the label or the keywords", () => {
    expect(matchScore({ label: "Go to Library", keywords: "documents upload" }, "go upload")).toBeGreaterThan(0);
    expect(matchScore({ label: "Go to Library", keywords: "documents upload" }, "go chat")).toBe(0);
  });

  it("ranks the start of the label over the start of a word over the middle of one over keywords", () => {
    const score = (label: string, keywords = "") => matchScore({ label, keywords }, "bio");
    expect(score("biology-notes.md")).toBeGreaterThan(score("cell-biology-lecture.pdf"));
    expect(score("cell-biology-lecture.pdf")).toBeGreaterThan(score("microbiology.pdf"));
    expect(score("microbiology.pdf")).toBeGreaterThan(score("lecture.pdf", "Biology"));
    expect(matchScore({ label: "New quiz" }, "new q")).toBeGreaterThan(matchScore({ label: "Quiz: new notes" }, "new q"));
  });

  it("lists only the commands until something is typed", () => {
    expect(labels("")).toEqual([
      ["Go to", ["Go to Library", "Go to Chat"]],
      ["Study", ["New quiz", "New flashcards"]],
    ]);
  });

  it("puts the group with the best match first and caps the long groups", () => {
    expect(labels("bio")).toEqual([
      ["Documents", ["biology-notes.md", "cell-biology-lecture.pdf"]],
      ["Passages", ["Chlorophyll absorbs red and blue light", "Leaves are green"]],
    ]);
    expect(labels("questions").slice(0, 2)).toEqual([
      ["Conversations", ["Photosynthesis questions"]],
      ["Study", ["New quiz"]], // a keyword match only
    ]);
    expect(labels("quiz").slice(0, 2)).toEqual([
      ["Study", ["New quiz"]],
      ["Conversations", ["What is a quiz bowl?"]],
    ]);
    expect(labels("nothing like this")).toEqual([["Passages", ["Chlorophyll absorbs red and blue light", "Leaves are green"]]]);
  });

  it("keeps the server's passages in its order, after every name match, and hides them until something is typed", () => {
    const found = labels("quiz");
    expect(found[found.length - 1]).toEqual(["Passages", ["Chlorophyll absorbs red and blue light", "Leaves are green"]]);
    expect(labels("").some(([name]) => name === "Passages")).toBe(false);
  });
});
