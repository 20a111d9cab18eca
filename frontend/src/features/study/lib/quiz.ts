/** Taking a quiz: where the taker is, how the score reads, and the state of past attempts. Pure. */
import type { Attempt, Question } from "../api/types";

export const LETTERS = ["A", "B", "C", "D"] as const;

/** Index (in position order) of the first question this attempt hasn't answered; -1 when all are. */
export function nextQuestionIndex(questions: readonly Question[], attempt: Pick<Attempt, "answers">): number {
  const answered = new Set(attempt.answers.map((answer) => answer.question_id));
  return [...questions].sort((a, b) => a.position - b.position).findIndex((q) => !answered.has(q.id));
}

/** Keys 1–4 or A–D pick an option (of those the question has); anything else is null. */
export function choiceForKey(key: string, options: number): number | null {
  const lower = key.toLowerCase();
  const index = /^[1-4]$/.test(lower) ? Number(lower) - 1 : /^[a-d]$/.test(lower) ? lower.charCodeAt(0) - 97 : -1;
  return index >= 0 && index < options ? index : null;
}

/** 0.8 → "80%"; a score is a share of correct answers. */
export function formatScore(score: number): string {
  return `${Math.round(Math.max(0, Math.min(1, score)) * 100)}%`;
}

export function scoreTone(score: number): "ok" | "accent" | "warn" {
  if (score >= 0.8) return "ok";
  if (score >= 0.5) return "accent";
  return "warn";
}

export function scoreMessage(score: number): string {
  if (score >= 1) return "Perfect — you know this material.";
  if (score >= 0.8) return "Strong result. Review the ones you missed and you've got it.";
  if (score >= 0.5) return "A good base. The explanations below show what to revisit.";
  return "This material needs another pass — read the explanations and their sources, then retake it.";
}

/** "In progress 3/10": how far the unfinished attempt got. */
export function inProgressLabel(open: { answered: number; total: number }): string {
  return `In progress ${open.answered}/${open.total}`;
}

export interface AttemptsOverview {
  open: Attempt | undefined;
  finished: Attempt[];
  best: number | undefined;
}

/** The unfinished attempt to resume (newest), the finished ones (newest first) and the best score. */
export function attemptsOverview(attempts: readonly Attempt[]): AttemptsOverview {
  const newestFirst = [...attempts].sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at));
  const finished = newestFirst.filter((attempt) => attempt.finished_at);
  return {
    open: newestFirst.find((attempt) => !attempt.finished_at),
    finished,
    best: finished.length ? Math.max(...finished.map((attempt) => attempt.score)) : undefined,
  };
}

export const QUESTION_TYPE_LABEL = { mcq: "Multiple choice", true_false: "True / false" } as const;
