/** Sorting the documents table by a column, both ways. Pure. */
import type { DocumentOut } from "@/api/types";

export type SortKey = "name" | "pages" | "blocks" | "added";
export interface Sort {
  key: SortKey;
  direction: "asc" | "desc";
}

export const DEFAULT_SORT: Sort = { key: "added", direction: "desc" };

const compare: Record<SortKey, (a: DocumentOut, b: DocumentOut) => number> = {
  name: (a, b) => a.filename.localeCompare(b.filename, undefined, { numeric: true, sensitivity: "base" }),
  pages: (a, b) => (a.pages ?? -1) - (b.pages ?? -1),
  blocks: (a, b) => a.blocks - b.blocks,
  added: (a, b) => a.created_at.localeCompare(b.created_at),
};

export function sortDocuments(documents: DocumentOut[], sort: Sort): DocumentOut[] {
  const sign = sort.direction === "asc" ? 1 : -1;
  return [...documents].sort((a, b) => sign * compare[sort.key](a, b) || a.id.localeCompare(b.id));
}

/** Clicking a column sorts by it (names A→Z first, numbers and dates biggest/newest first); again flips it. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, direction: current.direction === "asc" ? "desc" : "asc" };
  return { key, direction: key === "name" ? "asc" : "desc" };
}
