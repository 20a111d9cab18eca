// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { NameConflict } from "../api/types";
import { conflictPrompts } from "../hooks/conflictPrompts";
import { ConflictDialog } from "./ConflictDialog";

afterEach(cleanup);

const conflict = (filename: string, category: string): NameConflict => ({
  filename,
  existing: { id: `id-${filename}`, filename, category, size_bytes: 2048, updated_at: "2026-11-30T09:12:00Z", status: "ready" },
});

const conflicts = [conflict("Lecture01.pdf", "Physics"), conflict("Lecture02.pdf", "Physics"), conflict("Lecture03.pdf", "Physics")];
const files = conflicts.map((c) => new File(["x"], c.filename));

describe("ConflictDialog", () => {
  it("asks one file at a time, starting on Replace, and applies an answer to all that are left", async () => {
    render(<ConflictDialog />);
    let answer: Promise<unknown> = Promise.resolve();
    act(() => {
      answer = conflictPrompts.ask(conflicts, files);
    });
    expect(screen.getByRole("heading", { name: "“Lecture01.pdf” is already in “Physics”" })).toBeInTheDocument();
    expect(screen.getByText("Conflict 1 of 3")).toBeInTheDocument();
    expect(screen.getByText("2.0 KB")).toBeInTheDocument(); // the existing document's size
    expect(screen.getByRole("button", { name: "Replace" })).toHaveFocus();

    fireEvent.click(screen.getByRole("button", { name: "Replace" }));
    expect(screen.getByRole("heading", { name: "“Lecture02.pdf” is already in “Physics”" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Replace" })).toHaveFocus();
    fireEvent.click(screen.getByLabelText("Apply to all 2 conflicts left in this drop"));
    fireEvent.click(screen.getByRole("button", { name: "Keep both" }));

    await expect(answer).resolves.toEqual(["replace", "keep_both", "keep_both"]);
    expect(screen.queryByRole("heading", { name: /is already in/ })).toBeNull();
  });

  it("skips the files not answered yet when closed", async () => {
    render(<ConflictDialog />);
    let answer: Promise<unknown> = Promise.resolve();
    act(() => {
      answer = conflictPrompts.ask(conflicts, files);
    });
    fireEvent.click(screen.getByRole("button", { name: "Keep both" }));
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await expect(answer).resolves.toEqual(["keep_both", "skip", "skip"]);
  });
});
