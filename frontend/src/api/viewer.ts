/**
 * The viewer's reads (backend/api/viewer.py): a document's outline, windows of its extracted blocks,
 * PDF page images and the boxes of a passage on a page. All cached per document by React Query.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { components } from "@/api/schema";
import { apiJson } from "@/lib/api";

export type Outline = components["schemas"]["Outline"];
export type ViewerBlock = components["schemas"]["ViewerBlock"];
export type BlockWindow = components["schemas"]["BlockWindow"];
export type Highlights = components["schemas"]["PageHighlights"];

const base = (documentId: string) => `/api/documents/${encodeURIComponent(documentId)}`;

export function useOutline(documentId: string) {
  return useQuery({ queryKey: ["viewer", documentId, "outline"], queryFn: () => apiJson<Outline>(`${base(documentId)}/outline`) });
}

/** Which blocks to show: a page or slide, a window around a cited block, or a window from a position. */
export type BlockQuery = { page: number } | { around: string; limit?: number } | { start: number; limit?: number };

function blockParams(query: BlockQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  return params.toString();
}

export function useBlocks(documentId: string, query: BlockQuery | null) {
  return useQuery({
    queryKey: ["viewer", documentId, "blocks", query],
    queryFn: () => apiJson<BlockWindow>(`${base(documentId)}/blocks?${blockParams(query!)}`),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

/** Boxes on a page: of a passage (a block, or a text), or of every word beginning with one of `words`. */
export function useHighlights(documentId: string, page: number,
  passage: { block?: string; q?: string; words?: readonly string[] } | null) {
  return useQuery({
    queryKey: ["viewer", documentId, "highlights", page, passage],
    queryFn: () => {
      const params = new URLSearchParams();
      if (passage?.block) params.set("block", passage.block);
      else if (passage?.q) params.set("q", passage.q);
      else for (const word of passage?.words ?? []) params.append("words", word);
      return apiJson<Highlights>(`${base(documentId)}/pages/${page}/highlights?${params}`);
    },
    enabled: passage !== null && Boolean(passage.block || passage.q || passage.words?.length),
  });
}

export function pageImageUrl(documentId: string, page: number, scale: number): string {
  return `${base(documentId)}/pages/${page}.png?scale=${scale}`;
}
