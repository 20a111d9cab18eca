/**
 * The vault's embedding model: the one searches use, the models one can switch to, and a switch's
 * progress (re-read every second while one runs). Switching and cancelling re-read it and the vault stats.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { components } from "@/api/schema";
import { apiJson, apiSend } from "@/lib/api";
import { progressKeys } from "./progress";

export type Embedding = components["schemas"]["EmbeddingOut"];

export const embeddingKey = ["vault", "embedding"] as const;

export function useEmbedding() {
  return useQuery({
    queryKey: embeddingKey,
    queryFn: () => apiJson<Embedding>("/api/vault/embedding"),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.switch ? 1000 : false),
  });
}

/** Switch to `model` (the active one ends a switch), or cancel the switch with `null`. */
export function useSwitchEmbedding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (model: string | null) =>
      model === null
        ? apiSend<Embedding>("DELETE", "/api/vault/embedding/switch")
        : apiSend<Embedding>("PUT", "/api/vault/embedding", { model }),
    onSuccess: (state) => queryClient.setQueryData(embeddingKey, state),
    onSettled: () => queryClient.invalidateQueries({ queryKey: progressKeys.vault }),
  });
}
