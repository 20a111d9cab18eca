/** Exam plans: list (nearest exam first, each with today's plan), one plan, create, change, delete, today's cards. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiSend } from "@/lib/api";
import { studyKeys } from "./keys";
import type { Plan, PlanCards, PlanInput } from "./types";

const base = (id: string) => `/api/study/plans/${encodeURIComponent(id)}`;

export { usePlans } from "@/api/studyLoop";

export function usePlan(id: string) {
  return useQuery({ queryKey: studyKeys.plan(id), queryFn: () => apiJson<Plan>(base(id)) });
}

export function usePlanCards(id: string) {
  // One snapshot per session, like a deck's due cards.
  return useQuery({ queryKey: studyKeys.planCards(id), queryFn: () => apiJson<PlanCards>(`${base(id)}/today`), staleTime: Infinity, gcTime: 0 });
}

export function useCreatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlanInput) => apiSend<Plan>("POST", "/api/study/plans", input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: studyKeys.plans }),
  });
}

export function useUpdatePlan(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: { exam_date?: string; title?: string; target_retention?: number }) => apiSend<Plan>("PATCH", base(id), patch),
    onSuccess: (plan) => {
      queryClient.setQueryData(studyKeys.plan(id), plan);
      void queryClient.invalidateQueries({ queryKey: studyKeys.plans, exact: true });
    },
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>("DELETE", base(id)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: studyKeys.plans }),
  });
}
