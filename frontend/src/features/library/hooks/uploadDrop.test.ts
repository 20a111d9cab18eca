/**
 * A drop with name conflicts, through the real upload client: the server (a fake XMLHttpRequest
 * answering as API-11 says) refuses the drop with 409 `name_conflict`, the user's answers decide how the
 * files are re-sent.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { NameConflict } from "../api/types";
import type { ConflictChoice } from "../lib/conflicts";
import { ingestStore } from "./ingestStore";
import { uploadDrop } from "./uploadDrop";

interface SentRequest {
  files: string[];
  onConflict: string | null;
  category: string | null;
}

/** Names already taken in "Physics" by other content. */
let taken: Set<string>;
let sent: SentRequest[];

function existing(name: string) {
  return { id: `id-${name}`, filename: name, category: "Physics", size_bytes: 1200,
    updated_at: "2026-11-30T09:12:00Z", status: "ready" };
}

class FakeXhr {
  status = 0;
  responseText = "";
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  withCredentials = false;
  open(method: string, url: string) {
    expect([method, url]).toEqual(["POST", "/api/documents"]);
  }
  setRequestHeader() {}
  send(form: FormData) {
    const files = form.getAll("files").map((file) => (file as File).name);
    const onConflict = form.get("on_conflict") as string | null;
    sent.push({ files, onConflict, category: form.get("category") as string | null });
    const conflicts = onConflict === "ask" ? files.filter((name) => taken.has(name)) : [];
    if (conflicts.length) {
      this.status = 409;
      this.responseText = JSON.stringify({ error: {
        code: "name_conflict",
        message: `${conflicts.length} file(s) have the name of a document already in this category.`,
        details: { conflicts: conflicts.map((name) => ({ filename: name, existing: existing(name) })) },
      } });
    } else {
      this.status = 202;
      this.responseText = JSON.stringify({
        workflow_id: null,
        documents: files.map((name) => ({ id: `new-${name}`, filename: name, status: "queued" })),
        rejected: [],
      });
    }
    queueMicrotask(() => this.onload?.());
  }
}

const drop = (...names: string[]) => names.map((name) => new File([`new ${name}`], name));

beforeEach(() => {
  taken = new Set(["Lecture01.pdf", "notes.md"]);
  sent = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
  ingestStore.getEntries().forEach((entry) => ingestStore.dismiss(entry.key));
});

describe("uploadDrop", () => {
  it("sends a drop without conflicts once, asking nothing", async () => {
    const ask = vi.fn();
    await uploadDrop(drop("exam.txt"), "Physics", ask);
    expect(ask).not.toHaveBeenCalled();
    expect(sent).toEqual([{ files: ["exam.txt"], onConflict: "ask", category: "Physics" }]);
  });

  it("asks about the conflicting files, then re-sends them grouped by answer", async () => {
    const asked: NameConflict[][] = [];
    const ask = vi.fn(async (conflicts: NameConflict[]): Promise<ConflictChoice[]> => {
      asked.push(conflicts);
      return ["replace", "keep_both"];
    });
    const result = await uploadDrop(drop("Lecture01.pdf", "notes.md", "exam.txt"), "Physics", ask);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.map((c) => [c.filename, c.existing.category])).toEqual([["Lecture01.pdf", "Physics"], ["notes.md", "Physics"]]);
    expect(sent[0]).toEqual({ files: ["Lecture01.pdf", "notes.md", "exam.txt"], onConflict: "ask", category: "Physics" });
    expect(sent.slice(1)).toEqual(expect.arrayContaining([
      { files: ["exam.txt"], onConflict: "ask", category: "Physics" },
      { files: ["Lecture01.pdf"], onConflict: "replace", category: "Physics" },
      { files: ["notes.md"], onConflict: "keep_both", category: "Physics" },
    ]));
    expect(sent).toHaveLength(4);
    expect(result.skipped).toEqual([]);
    // Nothing of the 409 is left on screen as a failed upload.
    expect(ingestStore.getEntries().some((entry) => entry.error)).toBe(false);
  });

  it("never sends a skipped file", async () => {
    const result = await uploadDrop(drop("Lecture01.pdf", "notes.md"), "Physics", async () => ["skip", "skip"]);
    expect(sent).toHaveLength(1); // only the first, refused, attempt
    expect(result.skipped.map((file) => file.name)).toEqual(["Lecture01.pdf", "notes.md"]);
  });

  it("asks again when a file that did not conflict meets a name added meanwhile", async () => {
    const ask = vi.fn(async (conflicts: NameConflict[]): Promise<ConflictChoice[]> => {
      taken.add("exam.txt"); // someone else adds exam.txt while the user is deciding
      return conflicts.map(() => "replace");
    });
    await uploadDrop(drop("Lecture01.pdf", "exam.txt"), "Physics", ask);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(ask.mock.calls[1]?.[0].map((c) => c.filename)).toEqual(["exam.txt"]);
    expect(sent.filter((request) => request.onConflict === "replace").flatMap((request) => request.files).sort())
      .toEqual(["Lecture01.pdf", "exam.txt"]);
  });
});
