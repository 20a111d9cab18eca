/**
 * One question at a time: choose an option (click, or keys 1–4 / A–D), check it, and get the verdict at
 * once with the explanation and the passages it comes from; then on to the next (Enter). A wrong answer,
 * or one marked "Not sure", becomes a card in the Mistakes deck of the quiz's documents.
 */
import { useEffect, useState } from "react";
import { ArrowRight, Check, Layers, X } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/Button";
import { Kbd } from "@/components/Kbd";
import { Progress } from "@/components/Progress";
import { useToast } from "@/components/Toast";
import { useHotkey } from "@/hooks/useHotkey";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { isTypingTarget, onRadioGroupKeyDown } from "@/lib/keys";
import { useAnswer } from "@/features/study/api/quizzes";
import type { Attempt, GradedAnswer, Question } from "@/features/study/api/types";
import { choiceForKey, LETTERS, QUESTION_TYPE_LABEL } from "@/features/study/lib/quiz";
import { SourceLinks } from "../SourceLinks";

function optionState(index: number, chosen: number | null, graded: GradedAnswer | null) {
  if (!graded) return index === chosen ? "chosen" : "idle";
  if (index === graded.correct_index) return "correct";
  if (index === graded.choice_index) return "wrong";
  return "faded";
}

const OPTION_STYLES = {
  idle: "border-line-strong bg-surface hover:border-accent/60 hover:bg-surface-2",
  chosen: "border-accent bg-accent-soft ring-1 ring-accent",
  correct: "border-ok bg-ok-soft",
  wrong: "border-danger bg-danger-soft",
  faded: "border-line bg-surface opacity-60",
} as const;

export function QuestionPlayer({ quizId, question, number, total, attempt, onAnswered, onNext }: {
  quizId: string;
  question: Question;
  number: number;
  total: number;
  attempt: Attempt;
  onAnswered: (graded: GradedAnswer) => void;
  onNext: () => void;
}) {
  const [chosen, setChosen] = useState<number | null>(null);
  const [unsure, setUnsure] = useState(false);
  const [graded, setGraded] = useState<GradedAnswer | null>(null);
  const answer = useAnswer(quizId);
  const toast = useToast();
  const last = graded?.attempt.finished_at !== null && graded?.attempt.finished_at !== undefined;

  const check = () => {
    if (chosen === null || graded || answer.isPending) return;
    answer.mutate({ attemptId: attempt.id, questionId: question.id, choice: chosen, unsure }, {
      onSuccess: (result) => {
        setGraded(result);
        onAnswered(result);
      },
      onError: (error) => toast({ tone: "error", title: "The answer wasn't saved", body: errorMessage(error) }),
    });
  };

  useHotkey("enter", () => (graded ? onNext() : check()));
  useEffect(() => {
    if (graded) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      const index = choiceForKey(event.key, question.options.length);
      if (index === null) return;
      event.preventDefault();
      setChosen(index);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [graded, question.options.length]);

  const answeredSoFar = graded ? graded.attempt.answered : attempt.answered;
  const correctSoFar = graded ? graded.attempt.correct : attempt.correct;
  return (
    <article className="rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-6" data-testid="question" aria-labelledby={`q-${question.id}`}>
      <div className="mb-2 flex items-center justify-between gap-3 text-[13px] text-ink-muted">
        <span className="font-medium text-ink">Question {number} of {total}</span>
        <span>{QUESTION_TYPE_LABEL[question.type]} · {correctSoFar} of {answeredSoFar} correct</span>
      </div>
      <Progress value={answeredSoFar / total} label={`${answeredSoFar} of ${total} answered`} />
      <h2 id={`q-${question.id}`} className="mt-5 text-lg leading-snug font-medium text-ink">{question.question}</h2>

      <div role="radiogroup" aria-labelledby={`q-${question.id}`} className="mt-4 grid gap-2"
        onKeyDown={(event) => !graded && onRadioGroupKeyDown(event, setChosen)}>
        {question.options.map((option, index) => {
          const state = optionState(index, chosen, graded);
          // Roving tabindex: the group is one Tab stop (the chosen option, else the first); arrows move.
          const tabStop = index === (chosen ?? 0);
          return (
            <button
              key={index}
              type="button"
              role="radio"
              aria-checked={chosen === index}
              tabIndex={tabStop ? 0 : -1}
              autoFocus={tabStop && !graded}
              disabled={graded !== null || answer.isPending}
              onClick={() => setChosen(index)}
              data-state={state}
              className={cn("flex min-h-11 items-center gap-3 rounded-xl border px-3 py-2.5 text-left text-sm transition-colors disabled:cursor-default", OPTION_STYLES[state])}
            >
              <span className={cn(
                "flex size-6 shrink-0 items-center justify-center rounded-md text-xs font-semibold",
                state === "correct" ? "bg-ok text-white dark:text-[#0b1a10]" : state === "wrong" ? "bg-danger text-white dark:text-[#1a0b0b]" : state === "chosen" ? "bg-accent text-accent-ink" : "bg-surface-2 text-ink-muted",
              )}>
                {state === "correct" ? <Check size={14} strokeWidth={3} /> : state === "wrong" ? <X size={14} strokeWidth={3} /> : LETTERS[index]}
              </span>
              <span className="min-w-0 flex-1 break-words">{option}</span>
              {state === "correct" && <span className="sr-only">(correct answer)</span>}
              {state === "wrong" && <span className="sr-only">(your answer, incorrect)</span>}
            </button>
          );
        })}
      </div>

      {graded ? (
        <div className="mt-5 space-y-3" data-testid="feedback" data-correct={graded.correct}>
          <div role="status" className={cn("rounded-xl px-4 py-3", graded.correct ? "bg-ok-soft" : "bg-danger-soft")}>
            <p className={cn("text-sm font-semibold", graded.correct ? "text-ok" : "text-danger")}>
              {graded.correct ? "Correct" : `Not quite — the answer is ${LETTERS[graded.correct_index]}: ${question.options[graded.correct_index] ?? ""}`}
            </p>
            <p className="mt-1 text-sm leading-relaxed text-ink">{graded.explanation}</p>
          </div>
          <SourceLinks sources={graded.sources} />
          {graded.mistake_card && (
            <p className="flex flex-wrap items-center gap-1.5 text-[13px] text-ink-muted" data-testid="mistake-card">
              <Layers size={14} className="shrink-0" />
              {graded.correct ? "Marked not sure, so" : "So you remember it next time,"} it is now a card in your
              <Link to={`/study/decks/${graded.mistake_card.deck_id}`} className="font-medium text-accent hover:underline">Mistakes deck</Link>, due for review.
            </p>
          )}
          <div className="flex items-center justify-end gap-3">
            <span className="hidden text-xs text-ink-faint sm:inline-flex sm:items-center sm:gap-1">Press <Kbd>Enter</Kbd></span>
            <Button variant="primary" onClick={onNext} autoFocus>
              {last ? "See results" : "Next question"} <ArrowRight size={15} />
            </Button>
          </div>
        </div>
      ) : (
        <div className="mt-5 flex flex-wrap items-center justify-end gap-3">
          <label className="mr-auto inline-flex cursor-pointer items-center gap-2 text-[13px] text-ink-muted" title="A right answer you were not sure of becomes a card too">
            <input type="checkbox" checked={unsure} onChange={(event) => setUnsure(event.target.checked)} className="size-4 accent-[var(--q-accent)]" />
            Not sure
          </label>
          <span className="hidden text-xs text-ink-faint sm:inline-flex sm:items-center sm:gap-1"><Kbd>1</Kbd>–<Kbd>{question.options.length}</Kbd> to choose, <Kbd>Enter</Kbd> to check</span>
          <Button variant="primary" onClick={check} disabled={chosen === null} loading={answer.isPending}>Check answer</Button>
        </div>
      )}
    </article>
  );
}
