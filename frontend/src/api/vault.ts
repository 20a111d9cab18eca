/**
 * Server state every feature reads: the documents, the categories and the health of the vault.
 * One set of query keys, so a change made on one screen (an upload, a delete) refreshes all of them.
 */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api";
import type { CategoryOut, DocumentOut, HealthStatus } from "./types";

export const vaultKeys = {
  documents: ["documents"] as const,
  categories: ["categories"] as const,
  health: ["health"] as const,
};

export function fetchDocuments(): Promise<DocumentOut[]> {
  return apiJson<DocumentOut[]>("/api/documents");
}

export function useDocuments(options: { refetchInterval?: number | false } = {}) {
  return useQuery({ queryKey: vaultKeys.documents, queryFn: fetchDocuments, ...options });
}

/**
 * The documents a question or a study item may draw on: never a failed one (nothing usable in it) nor
 * one in the trash. Documents still being ingested are offered — they are searchable once ready.
 */
export function pickableDocuments<T extends Pick<DocumentOut, "status">>(documents: readonly T[] | undefined): T[] {
  return (documents ?? []).filter((doc) => doc.status !== "failed" && doc.status !== "trashed");
}

export function useCategories() {
  return useQuery({ queryKey: vaultKeys.categories, queryFn: () => apiJson<CategoryOut[]>("/api/categories") });
}

/** The server's health, polled every 30 s — every 5 s while requests are failing to reach it. */
export function useHealth({ failing = false }: { failing?: boolean } = {}) {
  return useQuery({
    queryKey: vaultKeys.health,
    queryFn: () => apiJson<HealthStatus>("/api/health"),
    // While passages are being embedded the light, the library and the upload card count them down.
    refetchInterval: (query) => (failing ? 5_000 : query.state.data?.embedder?.progress ? 3_000 : 30_000),
    refetchOnWindowFocus: true,
  });
}

/** True when chat can reach its model; undefined while unknown. */
export function chatModelReady(health: HealthStatus | undefined): boolean | undefined {
  if (!health) return undefined;
  return health.ollama.reachable && health.ollama.chat_model.present;
}

export function documentFileUrl(documentId: string, page?: number | null): string {
  return `/api/documents/${encodeURIComponent(documentId)}/file${page ? `#page=${page}` : ""}`;
}
