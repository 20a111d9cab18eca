/**
 * The study loop's server state: weak spots to practise, items whose source changed (and the choices
 * about them) and the model's card drafts from a passage.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiSend } from "@/lib/api";
import { studyKeys } from "./keys";
import type { CardDraft, CardKind, Job, ResolveInput, ScopeIn, SourceChanges, UpdateDraft } from "./types";

export function useWeakSpots(scope?: ScopeIn) {
  return useQuery({
    queryKey: [...studyKeys.weakSpots, scope ?? null],
    queryFn: () => apiSend<{ passages: number; days: number }>("POST", "/api/study/weak-spots/count", { scope: scope ?? {} }),
  });
}

export function startWeakSpots(clientToken: string, scope?: ScopeIn, count: 5 | 10 | 20 = 10): Promise<Job> {
  return apiSend<Job>("POST", "/api/study/weak-spots", { scope: scope ?? {}, count, client_token: clientToken });
}

export function useSourceChanges() {
  return useQuery({ queryKey: studyKeys.changes, queryFn: () => apiJson<SourceChanges>("/api/study/changes") });
}

export function draftUpdate(ref: Pick<ResolveInput, "item_kind" | "item_id" | "block_id">): Promise<UpdateDraft> {
  return apiSend<UpdateDraft>("POST", "/api/study/changes/draft", ref);
}

export function useResolveChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ResolveInput) => apiSend<void>("POST", "/api/study/changes/resolve", input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: studyKeys.changes });
      void queryClient.invalidateQueries({ queryKey: studyKeys.decks });
      void queryClient.invalidateQueries({ queryKey: studyKeys.quizzes });
    },
  });
}

export function draftCard(blockId: string, kind: CardKind): Promise<CardDraft> {
  return apiSend<CardDraft>("POST", "/api/study/drafts/card", { block_id: blockId, kind });
}
