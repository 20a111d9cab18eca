/** Study guides: list, read, delete, and the Markdown export's address. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiSend } from "@/lib/api";
import { studyKeys } from "./keys";
import type { Guide, GuideSummary } from "./types";

const base = (id: string) => `/api/study/guides/${encodeURIComponent(id)}`;

export function useGuides() {
  return useQuery({ queryKey: studyKeys.guides, queryFn: () => apiJson<GuideSummary[]>("/api/study/guides") });
}

export function useGuide(id: string) {
  return useQuery({ queryKey: studyKeys.guide(id), queryFn: () => apiJson<Guide>(base(id)) });
}

export function useDeleteGuide() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>("DELETE", base(id)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: studyKeys.guides }),
  });
}

export function guideExportUrl(id: string): string {
  return `${base(id)}/export`;
}
