/**
 * Name conflicts at upload (API-11): the server answers a drop with 409 `name_conflict` listing each
 * file whose name is already taken in the category by different content; the user picks Replace, Keep
 * both or Skip per file (or once for all), and the drop is re-sent in groups — replacements with
 * `on_conflict=replace`, copies with `keep_both`, the files that did not conflict as usual, skipped
 * ones not at all. Pure.
 */
import { ApiError } from "@/lib/api";
import type { NameConflict, OnConflict } from "../api/types";

export type ConflictChoice = "replace" | "keep_both" | "skip";

function isConflict(value: unknown): value is NameConflict {
  if (typeof value !== "object" || value === null) return false;
  const { filename, existing } = value as { filename?: unknown; existing?: unknown };
  return typeof filename === "string" && typeof existing === "object" && existing !== null
    && typeof (existing as { id?: unknown }).id === "string";
}

/** The conflicts of a 409 `name_conflict` answer, or null for any other error. */
export function nameConflicts(error: unknown): NameConflict[] | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== "name_conflict") return null;
  const details = error.details as { conflicts?: unknown } | null | undefined;
  const conflicts = Array.isArray(details?.conflicts) ? details.conflicts.filter(isConflict) : [];
  return conflicts.length ? conflicts : null;
}

/**
 * The choices after the user answered conflict `index`: with "apply to all", that answer also goes to
 * every conflict not answered yet. `choices` has one slot per conflict (undefined = not asked yet).
 */
export function recordChoice(choices: readonly (ConflictChoice | undefined)[], index: number, choice: ConflictChoice,
  applyToAll: boolean): (ConflictChoice | undefined)[] {
  return choices.map((current, i) => (i === index || (applyToAll && i > index && current === undefined) ? choice : current));
}

/** The first conflict still without an answer, or -1 when all are answered. */
export function nextUnanswered(choices: readonly (ConflictChoice | undefined)[]): number {
  return choices.findIndex((choice) => choice === undefined);
}

export interface ResendBatch {
  onConflict: OnConflict;
  files: File[];
}

export interface ResendPlan {
  batches: ResendBatch[];
  skipped: File[];
}

/** Which file of the drop a conflict is about: the same name, else the same name in another case. */
function fileFor(files: readonly File[], used: ReadonlySet<File>, name: string): File | undefined {
  const free = files.filter((file) => !used.has(file));
  return free.find((file) => file.name === name) ?? free.find((file) => file.name.toLowerCase() === name.toLowerCase());
}

/**
 * Groups a drop by what happens to each file. Files the server did not name in a conflict go with
 * `ask` (they may still conflict if someone else added the same name meanwhile: then the user is
 * asked again). A conflict without a choice counts as skipped: nothing is replaced unasked.
 */
export function planResend(files: readonly File[], conflicts: readonly NameConflict[],
  choices: readonly (ConflictChoice | undefined)[]): ResendPlan {
  const used = new Set<File>();
  const byChoice: Record<ConflictChoice, File[]> = { replace: [], keep_both: [], skip: [] };
  conflicts.forEach((conflict, index) => {
    const file = fileFor(files, used, conflict.filename);
    if (!file) return;
    used.add(file);
    byChoice[choices[index] ?? "skip"].push(file);
  });
  const plain = files.filter((file) => !used.has(file));
  const batches: ResendBatch[] = [
    { onConflict: "ask" as const, files: plain },
    { onConflict: "replace" as const, files: byChoice.replace },
    { onConflict: "keep_both" as const, files: byChoice.keep_both },
  ].filter((batch) => batch.files.length > 0);
  return { batches, skipped: byChoice.skip };
}
