/**
 * One drop of files, end to end: sent with `on_conflict=ask`; if the server answers that some names
 * are taken in the category (409), the user is asked per file (Replace / Keep both / Skip), then the
 * drop is re-sent in groups by answer — the files that did not conflict as before, skipped ones not at
 * all. A group sent with `ask` can meet a new conflict (someone added the name meanwhile): then the
 * user is asked again about those.
 */
import { plural } from "@/lib/format";
import { uploadFiles } from "../api/documents";
import type { NameConflict, OnConflict } from "../api/types";
import { planResend, type ConflictChoice } from "../lib/conflicts";
import { ingestStore } from "./ingestStore";

/** Asks the user about each conflict; resolves with one choice per conflict (in order). */
export type AskConflicts = (conflicts: NameConflict[], files: File[]) => Promise<ConflictChoice[]>;

function dropLabel(files: File[]): string {
  return files.length === 1 ? (files[0]?.name ?? "1 file") : plural(files.length, "file");
}

export interface DropResult {
  /** Files left out because the user chose Skip (or closed the question). */
  skipped: File[];
}

export async function uploadDrop(files: File[], category: string | null, ask: AskConflicts,
  onConflict: OnConflict = "ask"): Promise<DropResult> {
  if (!files.length) return { skipped: [] };
  const conflicts = await ingestStore.submit(dropLabel(files),
    (onProgress) => uploadFiles(files, category, onConflict, onProgress));
  if (!conflicts) return { skipped: [] };
  const plan = planResend(files, conflicts, await ask(conflicts, files));
  const results = await Promise.all(plan.batches.map((batch) => uploadDrop(batch.files, category, ask, batch.onConflict)));
  return { skipped: [...plan.skipped, ...results.flatMap((result) => result.skipped)] };
}
