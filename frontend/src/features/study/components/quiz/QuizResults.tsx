/** An attempt's result: the score (graded by the server), what it means, and every question reviewed. */
import { Check, RotateCcw, X } from "lucide-react";
import { Button } from "@/components/Button";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/format";
import type { Attempt, Question } from "@/features/study/api/types";
import { formatScore, LETTERS, scoreMessage, scoreTone } from "@/features/study/lib/quiz";
import { SourceLinks } from "../SourceLinks";

const TONE_TEXT = { ok: "text-ok", accent: "text-accent", warn: "text-warn" } as const;

export function QuizResults({ attempt, questions, onRetake, retaking, onBack }: {
  attempt: Attempt;
  questions: Question[];
  onRetake: () => void;
  retaking: boolean;
  onBack?: () => void;
}) {
  const answers = new Map(attempt.answers.map((answer) => [answer.question_id, answer]));
  const tone = scoreTone(attempt.score);
  return (
    <div className="space-y-6">
      <section aria-label="Score" className="rounded-2xl border border-line bg-surface p-5 text-center shadow-card sm:p-8" data-testid="quiz-results">
        <p className="text-xs font-medium tracking-wide text-ink-faint uppercase">{attempt.finished_at ? "Your score" : "Score so far"}</p>
        <p className={cn("mt-1 text-5xl font-semibold tracking-tight tabular-nums", TONE_TEXT[tone])} data-testid="score">{formatScore(attempt.score)}</p>
        <p className="mt-1 text-sm font-medium">{attempt.correct} of {attempt.total} correct</p>
        <p className="mx-auto mt-2 max-w-md text-sm text-ink-muted">{scoreMessage(attempt.score)}</p>
        <p className="mt-1 text-xs text-ink-faint">{formatDateTime(attempt.finished_at ?? attempt.started_at)}</p>
        <div className="mt-5 flex flex-wrap justify-center gap-2">
          <Button variant="primary" icon={<RotateCcw size={15} />} onClick={onRetake} loading={retaking}>Retake the quiz</Button>
          {onBack && <Button onClick={onBack}>Back to the overview</Button>}
        </div>
      </section>

      <section aria-labelledby="review-title" className="space-y-3">
        <h2 id="review-title" className="text-sm font-semibold">Review your answers</h2>
        <ol className="space-y-3">
          {[...questions].sort((a, b) => a.position - b.position).map((question, index) => {
            const answer = answers.get(question.id);
            return (
              <li key={question.id} className="rounded-2xl border border-line bg-surface p-4" data-testid="review-item">
                <div className="flex items-start gap-3">
                  <span className={cn("mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full",
                    !answer ? "bg-surface-2 text-ink-faint" : answer.correct ? "bg-ok-soft text-ok" : "bg-danger-soft text-danger")}
                    aria-label={!answer ? "Not answered" : answer.correct ? "Correct" : "Incorrect"}>
                    {!answer ? <span className="text-xs">–</span> : answer.correct ? <Check size={14} strokeWidth={3} /> : <X size={14} strokeWidth={3} />}
                  </span>
                  <div className="min-w-0 flex-1 space-y-2">
                    <p className="text-sm font-medium">{index + 1}. {question.question}</p>
                    {answer ? (
                      <div className="space-y-1 text-[13px]">
                        {!answer.correct && (
                          <p className="text-danger">Your answer: {LETTERS[answer.choice_index]}) {question.options[answer.choice_index]}</p>
                        )}
                        <p className="text-ok">Answer: {LETTERS[answer.correct_index]}) {question.options[answer.correct_index]}</p>
                        <p className="leading-relaxed text-ink-muted">{answer.explanation}</p>
                      </div>
                    ) : (
                      <p className="text-[13px] text-ink-faint">Not answered in this attempt.</p>
                    )}
                    <SourceLinks sources={question.sources} />
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      </section>
    </div>
  );
}
