/**
 * A quiz: an overview (start, resume the unfinished attempt or start over, past attempts), the player
 * (one question at a time with immediate feedback), and the results with every answer reviewed.
 */
import { useMemo, useState } from "react";
import { Play, RotateCcw, Trash2 } from "lucide-react";
import { useParams } from "react-router";
import { Badge } from "@/components/Badge";
import { Button, IconButton } from "@/components/Button";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { formatDateTime, formatRelative, plural } from "@/lib/format";
import { useAttempts, useDeleteQuiz, useQuiz, useStartAttempt } from "@/features/study/api/quizzes";
import type { Attempt, Question, Quiz } from "@/features/study/api/types";
import { attemptsOverview, formatScore, inProgressLabel, nextQuestionIndex, QUESTION_TYPE_LABEL, scoreTone } from "@/features/study/lib/quiz";
import { DeleteRecordDialog } from "../DeleteRecordDialog";
import { SourceLinks } from "../SourceLinks";
import { PageShell, Panel, StudyHeader } from "../StudyLayout";
import { QuizExportMenu } from "./ExportMenu";
import { QuestionPlayer } from "./QuestionPlayer";
import { QuizResults } from "./QuizResults";

type View = { mode: "overview" } | { mode: "play"; attempt: Attempt } | { mode: "results"; attempt: Attempt };

function byPosition(questions: Question[]): Question[] {
  return [...questions].sort((a, b) => a.position - b.position);
}

function Player({ quiz, initial, onFinished }: { quiz: Quiz; initial: Attempt; onFinished: (attempt: Attempt) => void }) {
  const [attempt, setAttempt] = useState(initial);
  const [pinned, setPinned] = useState<string | null>(null);
  const questions = useMemo(() => byPosition(quiz.questions), [quiz.questions]);
  const question = pinned ? questions.find((q) => q.id === pinned) : questions[nextQuestionIndex(questions, attempt)];
  if (!question) return <QuizResults attempt={attempt} questions={questions} onRetake={() => onFinished(attempt)} retaking={false} />;
  return (
    <QuestionPlayer
      key={question.id}
      quizId={quiz.id}
      question={question}
      number={questions.indexOf(question) + 1}
      total={questions.length}
      attempt={attempt}
      onAnswered={(graded) => {
        setPinned(question.id);
        setAttempt(graded.attempt);
      }}
      onNext={() => {
        setPinned(null);
        if (attempt.finished_at) onFinished(attempt);
      }}
    />
  );
}

function Overview({ quiz, attempts, onStart, starting, onReview }: {
  quiz: Quiz;
  attempts: Attempt[];
  onStart: (restart: boolean) => void;
  starting: boolean;
  onReview: (attempt: Attempt) => void;
}) {
  const { open, finished, best } = attemptsOverview(attempts);
  const sources = useMemo(() => quiz.questions.flatMap((q) => q.sources), [quiz.questions]);
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <Panel className="space-y-4">
        <div>
          <p className="text-sm text-ink-muted">
            {plural(quiz.question_count, "question")}, one at a time. Each answer is graded straight away, with an
            explanation and the passage it comes from.
          </p>
          {quiz.question_count < quiz.requested_count && (
            <p className="mt-1 text-xs text-ink-faint">
              {quiz.requested_count} were asked for; {quiz.question_count} passed the checks for a clear, well-formed question.
            </p>
          )}
        </div>
        {open ? (
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="primary" icon={<Play size={15} />} onClick={() => onStart(false)} loading={starting}>
              Resume — question {Math.min(open.answered + 1, open.total)} of {open.total}
            </Button>
            <Button icon={<RotateCcw size={15} />} onClick={() => onStart(true)} disabled={starting}>Start over</Button>
          </div>
        ) : (
          <Button variant="primary" icon={<Play size={15} />} onClick={() => onStart(false)} loading={starting}>
            {finished.length ? "Take it again" : "Start the quiz"}
          </Button>
        )}
        <SourceLinks sources={sources} label="Made from" max={4} className="border-t border-line pt-4" />
      </Panel>

      <Panel title="History" id="history-title">
        {best !== undefined && <p className="mb-3 text-[13px] text-ink-muted">Best score <span className="font-semibold text-ink">{formatScore(best)}</span></p>}
        {open || finished.length ? (
          <ul className="-mx-2 divide-y divide-line" data-testid="attempt-history">
            {open && (
              <li className="flex items-center gap-3 px-2 py-2" data-testid="open-attempt">
                <Badge tone="accent" dot>{inProgressLabel(open)}</Badge>
                <span className="min-w-0 flex-1 truncate text-[13px] text-ink-muted" title={`Started ${formatDateTime(open.started_at)}`}>
                  {formatRelative(open.started_at)}
                </span>
                <Button size="sm" variant="ghost" onClick={() => onStart(false)} disabled={starting}>Resume</Button>
              </li>
            )}
            {finished.map((attempt) => (
              <li key={attempt.id} className="flex items-center gap-3 px-2 py-2">
                <Badge tone={scoreTone(attempt.score)}>{formatScore(attempt.score)}</Badge>
                <span className="min-w-0 flex-1 truncate text-[13px] text-ink-muted" title={formatDateTime(attempt.finished_at ?? attempt.started_at)}>
                  {attempt.correct}/{attempt.total} · {formatRelative(attempt.finished_at ?? attempt.started_at)}
                </span>
                <Button size="sm" variant="ghost" onClick={() => onReview(attempt)}>Review</Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-ink-muted">No attempts yet. Your scores will appear here.</p>
        )}
      </Panel>
    </div>
  );
}

export function QuizPage() {
  const { quizId = "" } = useParams();
  const toast = useToast();
  const quiz = useQuiz(quizId);
  const attempts = useAttempts(quizId);
  const start = useStartAttempt(quizId);
  const remove = useDeleteQuiz();
  const [view, setView] = useState<View>({ mode: "overview" });
  const [confirming, setConfirming] = useState(false);

  const begin = (restart: boolean) =>
    start.mutate(restart, {
      onSuccess: (attempt) => setView({ mode: "play", attempt }),
      onError: (error) => toast({ tone: "error", title: "The quiz couldn't start", body: errorMessage(error) }),
    });

  const data = quiz.data;
  const types = data?.types.map((type) => QUESTION_TYPE_LABEL[type]).join(" and ");
  const difficulty = data ? data.difficulty[0]?.toUpperCase() + data.difficulty.slice(1) : "";

  return (
    <PageShell>
      <StudyHeader
        back={{ to: "/study", label: "Study" }}
        title={data?.title ?? (quiz.isError ? "Quiz not found" : "Quiz")}
        badges={data ? <><Badge tone="accent">{difficulty}</Badge>{data.workshop_id && <Badge>Workshop recap</Badge>}</> : undefined}
        subtitle={data ? `${plural(data.question_count, "question")} · ${types}` : undefined}
        actions={data && (
          <>
            {view.mode !== "overview" && <Button onClick={() => setView({ mode: "overview" })}>Overview</Button>}
            <QuizExportMenu quizId={data.id} />
            <IconButton label="Delete quiz" onClick={() => setConfirming(true)} className="hover:text-danger"><Trash2 size={16} /></IconButton>
          </>
        )}
      />
      {(quiz.isPending || attempts.isPending) && <SkeletonRows rows={6} label="Loading the quiz" />}
      {quiz.isError && <p role="alert" className="text-sm text-danger">This quiz couldn't be opened: {errorMessage(quiz.error)}</p>}
      {data && attempts.data && view.mode === "overview" && (
        <Overview quiz={data} attempts={attempts.data} onStart={begin} starting={start.isPending}
          onReview={(attempt) => setView({ mode: "results", attempt })} />
      )}
      {data && view.mode === "play" && (
        <div className="mx-auto max-w-3xl">
          <Player key={view.attempt.id} quiz={data} initial={view.attempt} onFinished={(attempt) => setView({ mode: "results", attempt })} />
        </div>
      )}
      {data && view.mode === "results" && (
        <div className="mx-auto max-w-3xl">
          <QuizResults attempt={view.attempt} questions={data.questions} onRetake={() => begin(true)} retaking={start.isPending}
            onBack={() => setView({ mode: "overview" })} />
        </div>
      )}
      <DeleteRecordDialog open={confirming} id={quizId} remove={remove} onCancel={() => setConfirming(false)}
        title="Delete this quiz?"
        description="The quiz and every attempt at it are removed. Your study time and badges stay."
        confirmLabel="Delete quiz" />
    </PageShell>
  );
}
