/**
 * The vault's embedding model: the one searches use, the models one can switch to, and a switch's
 * progress (re-read every second while one runs). Switching, cancelling and a switch's end re-read the
 * vault stats too.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { components } from "@/api/schema";
import { apiJson, apiSend } from "@/lib/api";
import { progressKeys } from "./progress";

export type Embedding = components["schemas"]["EmbeddingOut"];

export const embeddingKey = ["vault", "embedding"] as const;

export function useEmbedding() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: embeddingKey,
    queryFn: async () => {
      const next = await apiJson<Embedding>("/api/vault/embedding");
      // A switch just ended: the vault stats name the new model and count its vectors.
      if (queryClient.getQueryData<Embedding>(embeddingKey)?.switch && !next.switch) {
        await queryClient.invalidateQueries({ queryKey: progressKeys.vault });
      }
      return next;
    },
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
