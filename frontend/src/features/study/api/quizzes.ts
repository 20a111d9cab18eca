/** Quizzes: list, read, attempts (resume or start over), answers graded by the server, delete, export. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { operations } from "@/api/schema";
import { apiJson, apiSend, buildQuery } from "@/lib/api";
import { studyKeys } from "./keys";
import { useDeleteRecord } from "./records";
import type { Attempt, GradedAnswer, Quiz, QuizSummary } from "./types";

const base = (id: string) => `/api/study/quizzes/${encodeURIComponent(id)}`;

export function useQuizzes() {
  return useQuery({ queryKey: studyKeys.quizzes, queryFn: () => apiJson<QuizSummary[]>("/api/study/quizzes") });
}

export function useQuiz(id: string) {
  return useQuery({ queryKey: studyKeys.quiz(id), queryFn: () => apiJson<Quiz>(base(id)) });
}

export function useAttempts(id: string) {
  return useQuery({ queryKey: studyKeys.attempts(id), queryFn: () => apiJson<Attempt[]>(`${base(id)}/attempts`) });
}

export function useStartAttempt(quizId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (restart: boolean) => apiSend<Attempt>("POST", `${base(quizId)}/attempts`, { restart }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: studyKeys.attempts(quizId) });
      void queryClient.invalidateQueries({ queryKey: studyKeys.quizzes }); // its open attempt changed
    },
  });
}

export function useAnswer(quizId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ attemptId, questionId, choice, unsure = false }: { attemptId: string; questionId: string; choice: number; unsure?: boolean }) =>
      apiSend<GradedAnswer>("POST", `${base(quizId)}/attempts/${encodeURIComponent(attemptId)}/answers`,
        { question_id: questionId, choice_index: choice, unsure }),
    onSuccess: (graded) => {
      queryClient.setQueryData<Attempt[]>(studyKeys.attempts(quizId), (all) =>
        all?.map((attempt) => (attempt.id === graded.attempt.id ? graded.attempt : attempt)));
      // The hub's card shows the open attempt's progress (and the best score once it is finished).
      void queryClient.invalidateQueries({ queryKey: studyKeys.quizzes });
      if (graded.attempt.finished_at) void queryClient.invalidateQueries({ queryKey: studyKeys.quiz(quizId) });
      // A wrong or unsure answer became a card: the decks, the weak spots and the plans change with it.
      if (graded.mistake_card) {
        void queryClient.invalidateQueries({ queryKey: studyKeys.decks });
        void queryClient.invalidateQueries({ queryKey: studyKeys.weakSpots });
        void queryClient.invalidateQueries({ queryKey: studyKeys.plans });
      }
    },
  });
}

export function useDeleteQuiz() {
  return useDeleteRecord<QuizSummary>(base, studyKeys.quizzes, studyKeys.quiz);
}

/** What the printable export shows: the `mode` query parameter of `GET /api/study/quizzes/{id}/export`. */
export type QuizExportMode = NonNullable<
  NonNullable<operations["export_quiz_api_study_quizzes__quiz_id__export_get"]["parameters"]["query"]>["mode"]
>;

export function quizExportUrl(id: string, mode: QuizExportMode): string {
  return `${base(id)}/export${buildQuery({ mode })}`;
}
