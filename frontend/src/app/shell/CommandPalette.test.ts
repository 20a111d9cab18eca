import { describe, expect, it } from "vitest";
import { filterCommands } from "./CommandPalette";

describe("command palette filtering", () => {
  const commands = [
    { label: "Go to Library", keywords: "documents upload" },
    { label: "Go to Chat", keywords: "ask question" },
    { label: "New chat" },
  ];

  it("matches every typed word against labels and keywords", () => {
    expect(filterCommands(commands, "chat").map((c) => c.label)).toEqual(["Go to Chat", "New chat"]);
    expect(filterCommands(commands, "go upload").map((c) => c.label)).toEqual(["Go to Library"]);
    expect(filterCommands(commands, "")).toHaveLength(3);
  });
});
