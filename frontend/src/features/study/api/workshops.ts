/**
 * Workshops: the outline, lessons written on first open (`GET .../lessons/{n}` is 200 with the lesson
 * or 202 with the job writing it), completion, regeneration and the recap quiz.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, apiJson, apiSend } from "@/lib/api";
import { studyKeys } from "./keys";
import { useDeleteRecord } from "./records";
import type { Job, Lesson, Workshop, WorkshopProgress, WorkshopSummary } from "./types";

const base = (id: string) => `/api/study/workshops/${encodeURIComponent(id)}`;

export type LessonResult = { kind: "lesson"; lesson: Lesson } | { kind: "writing"; job: Job };

export function useWorkshops() {
  return useQuery({ queryKey: studyKeys.workshops, queryFn: () => apiJson<WorkshopSummary[]>("/api/study/workshops") });
}

export function useWorkshop(id: string) {
  return useQuery({ queryKey: studyKeys.workshop(id), queryFn: () => apiJson<Workshop>(base(id)) });
}

export async function fetchLesson(id: string, n: number): Promise<LessonResult> {
  const response = await apiFetch(`${base(id)}/lessons/${n}`, { headers: { Accept: "application/json" } });
  const body: unknown = await response.json();
  return response.status === 202 ? { kind: "writing", job: body as Job } : { kind: "lesson", lesson: body as Lesson };
}

export function useLesson(id: string, n: number) {
  return useQuery({ queryKey: studyKeys.lesson(id, n), queryFn: () => fetchLesson(id, n), staleTime: 60_000 });
}

export function useCompleteLesson(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ n, completed }: { n: number; completed: boolean }) =>
      apiSend<WorkshopProgress>("POST", `${base(id)}/lessons/${n}/complete`, { completed }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: studyKeys.workshop(id) });
      void queryClient.invalidateQueries({ queryKey: studyKeys.workshops });
    },
  });
}

export function useRegenerateLesson(id: string) {
  return useMutation({
    mutationFn: (n: number) => apiSend<Job>("POST", `${base(id)}/lessons/${n}/regenerate`),
  });
}

export function useRecap(id: string) {
  return useMutation({ mutationFn: () => apiSend<Job>("POST", `${base(id)}/recap`) });
}

export function useDeleteWorkshop() {
  return useDeleteRecord<WorkshopSummary>(base, studyKeys.workshops, studyKeys.workshop);
}
