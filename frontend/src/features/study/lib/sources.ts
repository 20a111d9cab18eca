/**
 * The passages a generated item came from, grouped for display: one entry per document (in order of
 * first use) with the pages cited, so "from: lecture-3.pdf, p. 12, 14" reads as one line. Pure.
 */
import { groupByDocument } from "@/lib/byDocument";
import type { Source } from "../api/types";

export interface SourceGroup {
  document_id: string;
  filename: string;
  pages: number[];
}

export function groupSources(sources: readonly Source[]): SourceGroup[] {
  return groupByDocument(sources).map(({ document_id, filename, items }) => {
    const pages = new Set(items.flatMap((source) => (source.page ? [source.page] : [])));
    return { document_id, filename, pages: [...pages].sort((a, b) => a - b) };
  });
}

/** "lecture-3.pdf, p. 12, 14" / "notes.md". */
export function sourceGroupLabel(group: SourceGroup): string {
  if (!group.pages.length) return group.filename;
  return `${group.filename}, ${group.pages.length === 1 ? "p." : "pp."} ${group.pages.join(", ")}`;
}
