import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api";
import type { NameConflict } from "../api/types";
import { nameConflicts, nextUnanswered, planResend, recordChoice } from "./conflicts";

/** A 409 body exactly as API-11 describes it. */
const CONFLICT_BODY = {
  error: {
    code: "name_conflict",
    message: "2 files have the name of a document already in this category.",
    details: {
      conflicts: [
        {
          filename: "Lecture01.pdf",
          existing: {
            id: "7b0c1f0e-0000-4000-8000-000000000001", filename: "Lecture01.pdf", category: "Physics",
            size_bytes: 48213, updated_at: "2026-11-30T09:12:00Z", status: "ready",
          },
        },
        {
          filename: "notes.md",
          existing: {
            id: "7b0c1f0e-0000-4000-8000-000000000002", filename: "Notes.md", category: "Physics",
            size_bytes: 912, updated_at: "2026-11-29T18:00:00Z", status: "ready",
          },
        },
      ],
    },
  },
};

const file = (name: string) => new File([name], name, { type: "text/plain" });
const names = (files: File[]) => files.map((f) => f.name);

describe("nameConflicts", () => {
  it("reads the conflicts of a 409 name_conflict answer", () => {
    const { code, message, details } = CONFLICT_BODY.error;
    const conflicts = nameConflicts(new ApiError(409, code, message, details));
    expect(conflicts?.map((c) => [c.filename, c.existing.category, c.existing.size_bytes])).toEqual([
      ["Lecture01.pdf", "Physics", 48213],
      ["notes.md", "Physics", 912],
    ]);
  });

  it("is null for any other error, or a 409 without usable details", () => {
    expect(nameConflicts(new ApiError(409, "not_trashed", "No"))).toBeNull();
    expect(nameConflicts(new ApiError(400, "name_conflict", "No", CONFLICT_BODY.error.details))).toBeNull();
    expect(nameConflicts(new ApiError(409, "name_conflict", "No", { conflicts: [{ filename: "x" }] }))).toBeNull();
    expect(nameConflicts(new Error("boom"))).toBeNull();
  });
});

describe("recordChoice", () => {
  it("answers one conflict, or with apply-to-all every one not answered yet", () => {
    const start = [undefined, undefined, undefined];
    const first = recordChoice(start, 0, "replace", false);
    expect(first).toEqual(["replace", undefined, undefined]);
    expect(nextUnanswered(first)).toBe(1);
    const all = recordChoice(first, 1, "keep_both", true);
    expect(all).toEqual(["replace", "keep_both", "keep_both"]);
    expect(nextUnanswered(all)).toBe(-1);
  });
});

describe("planResend", () => {
  const conflicts = CONFLICT_BODY.error.details.conflicts as NameConflict[];

  it("groups the drop by choice: others with ask, replacements, copies; skipped ones are not sent", () => {
    const drop = [file("Lecture01.pdf"), file("notes.md"), file("exam.txt")];
    const plan = planResend(drop, conflicts, ["replace", "skip"]);
    expect(plan.batches.map((b) => [b.onConflict, names(b.files)])).toEqual([
      ["ask", ["exam.txt"]],
      ["replace", ["Lecture01.pdf"]],
    ]);
    expect(names(plan.skipped)).toEqual(["notes.md"]);
  });

  it("sends keep-both files on their own and drops empty groups", () => {
    const plan = planResend([file("Lecture01.pdf"), file("notes.md")], conflicts, ["keep_both", "keep_both"]);
    expect(plan.batches.map((b) => [b.onConflict, names(b.files)])).toEqual([["keep_both", ["Lecture01.pdf", "notes.md"]]]);
    expect(plan.skipped).toEqual([]);
  });

  it("matches a conflict to its file regardless of case and never replaces unasked", () => {
    const drop = [file("LECTURE01.PDF"), file("notes.md")];
    const plan = planResend(drop, conflicts, [undefined, "replace"]);
    expect(plan.batches.map((b) => [b.onConflict, names(b.files)])).toEqual([["replace", ["notes.md"]]]);
    expect(names(plan.skipped)).toEqual(["LECTURE01.PDF"]);
  });
});
