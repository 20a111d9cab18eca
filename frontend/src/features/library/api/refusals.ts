/**
 * Files that were not added (API-11 refusals): refused at upload or URL import, with the reason, kept
 * by the server until dismissed — so they survive a reload and a restart.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiSend } from "@/lib/api";
import type { Refusal, RefusalList, RefusalsDismissed } from "./types";

export const refusalsKey = ["refusals"] as const;

export async function fetchRefusals(): Promise<Refusal[]> {
  return (await apiJson<RefusalList>("/api/refusals")).refusals;
}

export function dismissRefusal(id: string): Promise<RefusalsDismissed> {
  return apiSend<RefusalsDismissed>("DELETE", `/api/refusals/${encodeURIComponent(id)}`);
}

export function dismissAllRefusals(): Promise<RefusalsDismissed> {
  return apiSend<RefusalsDismissed>("DELETE", "/api/refusals");
}

/** Newest first, whatever order the server sends. */
export function sortRefusals(refusals: readonly Refusal[]): Refusal[] {
  return [...refusals].sort((a, b) => b.created_at.localeCompare(a.created_at));
}

export function useRefusals() {
  return useQuery({ queryKey: refusalsKey, queryFn: fetchRefusals, select: sortRefusals });
}

/** Dismiss one (an id) or all (null); the list updates at once and is re-read afterwards. */
export function useDismissRefusals() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) => (id === null ? dismissAllRefusals() : dismissRefusal(id)),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: refusalsKey });
      const before = queryClient.getQueryData<Refusal[]>(refusalsKey);
      queryClient.setQueryData<Refusal[]>(refusalsKey, (list) => (id === null ? [] : list?.filter((r) => r.id !== id)));
      return { before };
    },
    onError: (_error, _id, context) => queryClient.setQueryData(refusalsKey, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: refusalsKey }),
  });
}
