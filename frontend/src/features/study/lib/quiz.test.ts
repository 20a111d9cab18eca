import { describe, expect, it } from "vitest";
import type { Attempt, Question } from "../api/types";
import { attemptsOverview, choiceForKey, formatScore, inProgressLabel, nextQuestionIndex, scoreTone } from "./quiz";

const question = (id: string, position: number): Question =>
  ({ id, position, type: "mcq", question: `Q${id}?`, options: ["a", "b", "c", "d"], sources: [] });

const attempt = (id: string, started: string, finished: string | null, score: number, answered: string[] = []): Attempt => ({
  id, quiz_id: "q", started_at: started, finished_at: finished, total: 3, answered: answered.length,
  correct: Math.round(score * 3), score,
  answers: answered.map((question_id) => ({ question_id, choice_index: 0, correct: true, unsure: false, correct_index: 0, explanation: "", answered_at: started })),
});

describe("quiz progress", () => {
  const questions = [question("c", 3), question("a", 1), question("b", 2)];

  const answered = (...ids: string[]) => ({ answers: attempt("x", "2026-01-01T00:00:00Z", null, 0, ids).answers });

  it("resumes at the first unanswered question in position order", () => {
    expect(nextQuestionIndex(questions, { answers: [] })).toBe(0);
    expect(nextQuestionIndex(questions, answered("a"))).toBe(1);
    expect(nextQuestionIndex(questions, answered("a", "c"))).toBe(1);
    expect(nextQuestionIndex(questions, answered("a", "b", "c"))).toBe(-1);
  });

  it("picks an option by number or letter, only among the options there are", () => {
    expect(["1", "4", "a", "D"].map((key) => choiceForKey(key, 4))).toEqual([0, 3, 0, 3]);
    expect(choiceForKey("3", 2)).toBeNull(); // a true/false question has two
    expect(choiceForKey("c", 2)).toBeNull();
    expect(choiceForKey("Enter", 4)).toBeNull();
    expect(choiceForKey("5", 4)).toBeNull();
  });

  it("says how far an unfinished attempt got", () => {
    expect(inProgressLabel({ answered: 3, total: 10 })).toBe("In progress 3/10");
  });

  it("formats scores as whole percentages and picks a tone", () => {
    expect(formatScore(0.8)).toBe("80%");
    expect(formatScore(2 / 3)).toBe("67%");
    expect(formatScore(0)).toBe("0%");
    expect([scoreTone(0.9), scoreTone(0.6), scoreTone(0.2)]).toEqual(["ok", "accent", "warn"]);
  });

  it("finds the attempt to resume, the finished ones newest first and the best score", () => {
    const overview = attemptsOverview([
      attempt("old", "2026-01-01T10:00:00Z", "2026-01-01T10:05:00Z", 0.4),
      attempt("open", "2026-01-03T10:00:00Z", null, 0.1),
      attempt("best", "2026-01-02T10:00:00Z", "2026-01-02T10:05:00Z", 0.9),
    ]);
    expect(overview.open?.id).toBe("open");
    expect(overview.finished.map((a) => a.id)).toEqual(["best", "old"]);
    expect(overview.best).toBe(0.9);
    expect(attemptsOverview([]).best).toBeUndefined();
  });
});
