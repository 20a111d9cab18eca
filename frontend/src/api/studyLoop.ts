/**
 * Study-loop state that screens outside the study hub show too (the dashboard): exam plans with today's
 * plan, and the FSRS scheduler's parameters (default or fitted to the user's reviews, with the fit's
 * before/after). Same query keys as the study hub's own, so a review there refreshes them here.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiSend } from "@/lib/api";
import type { components } from "./schema";

type Schemas = components["schemas"];
export type Plan = Schemas["PlanOut"];
export type SchedulerStatus = Schemas["SchedulerOut"];
export type StudyJob = Schemas["JobOut"];

export const loopKeys = {
  plans: ["study", "plans"] as const,
  scheduler: ["study", "scheduler"] as const,
};

export function fetchPlans(): Promise<Plan[]> {
  return apiJson<Plan[]>("/api/study/plans");
}

export function usePlans() {
  return useQuery({ queryKey: loopKeys.plans, queryFn: fetchPlans });
}

export function useScheduler() {
  return useQuery({ queryKey: loopKeys.scheduler, queryFn: () => apiJson<SchedulerStatus>("/api/study/scheduler") });
}

export function useOptimizeScheduler() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<StudyJob>("POST", "/api/study/scheduler/optimize"),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: loopKeys.scheduler }),
  });
}
