/** Audio overviews: list, read (polled while the lines are being spoken), delete. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiSend } from "@/lib/api";
import { studyKeys } from "./keys";
import type { Overview, OverviewSummary } from "./types";

const base = (id: string) => `/api/study/overviews/${encodeURIComponent(id)}`;
const SPEAKING_POLL_MS = 1500;

export function useOverviews() {
  return useQuery({ queryKey: studyKeys.overviews, queryFn: () => apiJson<OverviewSummary[]>("/api/study/overviews") });
}

export function useOverview(id: string) {
  return useQuery({
    queryKey: studyKeys.overview(id),
    queryFn: () => apiJson<Overview>(base(id)),
    refetchInterval: (query) => (query.state.data?.state === "synthesizing" ? SPEAKING_POLL_MS : false),
  });
}

export function useDeleteOverview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>("DELETE", base(id)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: studyKeys.overviews }),
  });
}
