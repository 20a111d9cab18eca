/** `GET /api/search` for screens outside chat: hybrid search over passages, debounced by the caller. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api";
import { groupByDocument } from "@/lib/byDocument";
import { formatLocation } from "@/lib/location";
import type { SearchHit, SearchResponse } from "./types";

export const MIN_SEARCH_CHARS = 2;

export function usePassageSearch(query: string, options: { k?: number; categories?: string[] } = {}) {
  const q = query.trim();
  const k = options.k ?? 30;
  const categories = options.categories ?? [];
  return useQuery({
    queryKey: ["search", q, k, categories],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ q, k: String(k) });
      for (const category of categories) params.append("categories", category);
      return apiJson<SearchResponse>(`/api/search?${params}`, { signal });
    },
    enabled: q.length >= MIN_SEARCH_CHARS,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

export interface HitGroup {
  documentId: string;
  filename: string;
  hits: SearchHit[];
}

/** Hits grouped by document, documents in the order of their best hit. */
export function groupHits(hits: readonly SearchHit[]): HitGroup[] {
  return groupByDocument(hits).map(({ document_id, filename, items }) => ({
    documentId: document_id, filename, hits: items,
  }));
}

/** Where a hit sits, in the words citations use ("Page 4", "Page iv (page 6)", "Slide 2", 'Sheet "arts"'),
 * else its section. */
export function hitPlace(hit: Pick<SearchHit, "page" | "section" | "page_label" | "document_kind">): string | null {
  const where = formatLocation({ page: hit.page, page_label: hit.page_label, section: hit.section,
    kind: hit.document_kind }, "long");
  if (where) return where.charAt(0).toUpperCase() + where.slice(1);
  return hit.section ? hit.section.split(" > ").slice(-2).join(" › ") : null;
}
