/**
 * The passages a generated item came from, grouped for display: one entry per document (in order of
 * first use) with the pages cited, so "from: lecture-3.pdf, p. 12, 14" reads as one line. Pure.
 */
import type { Source } from "../api/types";

export interface SourceGroup {
  document_id: string;
  filename: string;
  pages: number[];
}

export function groupSources(sources: readonly Source[]): SourceGroup[] {
  const groups = new Map<string, SourceGroup>();
  for (const source of sources) {
    let group = groups.get(source.document_id);
    if (!group) {
      group = { document_id: source.document_id, filename: source.filename, pages: [] };
      groups.set(source.document_id, group);
    }
    if (source.page && !group.pages.includes(source.page)) group.pages.push(source.page);
  }
  for (const group of groups.values()) group.pages.sort((a, b) => a - b);
  return [...groups.values()];
}

/** "lecture-3.pdf, p. 12, 14" / "notes.md". */
export function sourceGroupLabel(group: SourceGroup): string {
  if (!group.pages.length) return group.filename;
  return `${group.filename}, ${group.pages.length === 1 ? "p." : "pp."} ${group.pages.join(", ")}`;
}
