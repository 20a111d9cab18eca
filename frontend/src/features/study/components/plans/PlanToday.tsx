/**
 * Today's plan of an exam plan: what to review and learn today, what is done, the quiz when one is
 * planned, and whether the student is on track. Shown on the plan's page and on the dashboard.
 */
import { useState } from "react";
import { CalendarClock, Crosshair, ListChecks, Play } from "lucide-react";
import { useNavigate } from "react-router";
import { Badge } from "@/components/Badge";
import { PlanStatusBadge } from "@/components/PlanStatusBadge";
import { Button } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { plural } from "@/lib/format";
import { startGeneration } from "@/features/study/api/jobs";
import { startWeakSpots } from "@/features/study/api/loop";
import type { Plan } from "@/features/study/api/types";
import { pendingJobs } from "@/features/study/hooks/pendingJobs";
import { newClientToken } from "@/features/study/lib/jobs";
import { examWhen, percent, todayLeft } from "@/features/study/lib/plans";

function PlanQuiz({ plan }: { plan: Plan }) {
  const quiz = plan.today.quiz;
  const navigate = useNavigate();
  const toast = useToast();
  const [token] = useState(newClientToken);
  const [busy, setBusy] = useState(false);
  if (!quiz) return null;
  const scope = { document_ids: plan.scope.document_ids, categories: plan.scope.categories };
  const start = async () => {
    setBusy(true);
    try {
      const job = quiz.kind === "weak_spots"
        ? await startWeakSpots(token, scope, 5)
        : await startGeneration("quiz", { scope, difficulty: "intermediate", count: 5, types: ["mcq", "true_false"] }, token);
      pendingJobs.add({ job_id: job.job_id, kind: job.kind, label: plan.title, started_at: Date.now() });
      navigate(`/study/jobs/${encodeURIComponent(job.job_id)}`);
    } catch (error) {
      toast({ tone: "error", title: "The quiz couldn't be started", body: errorMessage(error) });
      setBusy(false);
    }
  };
  const Icon = quiz.kind === "weak_spots" ? Crosshair : ListChecks;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-line px-3 py-2.5" data-testid="plan-quiz">
      <p className="flex items-center gap-2 text-sm">
        <Icon size={16} className="shrink-0 text-ink-muted" />
        <span>
          <span className="font-medium">{quiz.kind === "weak_spots" ? "Practise your weak spots" : "A short quiz"}</span>
          <span className="text-ink-muted"> — {quiz.questions} questions: {quiz.reason}.</span>
        </span>
      </p>
      {quiz.done ? <Badge tone="ok">Done today</Badge> : <Button size="sm" onClick={() => void start()} loading={busy}>Start quiz</Button>}
    </div>
  );
}

export function PlanToday({ plan, showTitle = false }: { plan: Plan; showTitle?: boolean }) {
  const left = todayLeft(plan);
  const { today } = plan;
  return (
    <div className="space-y-3" data-testid="plan-today" data-status={plan.status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          {showTitle && <p className="truncate text-sm font-semibold">{plan.title}</p>}
          <p className="flex items-center gap-1.5 text-[13px] text-ink-muted">
            <CalendarClock size={14} /> Exam {examWhen(plan)} · target {percent(plan.target_retention)}
          </p>
        </div>
        <PlanStatusBadge status={plan.status} />
      </div>
      <p className="text-sm text-ink" data-testid="plan-message">{plan.message}</p>
      <dl className="grid grid-cols-3 gap-2 text-center">
        <div className="rounded-xl bg-surface-2 px-2 py-2">
          <dt className="text-xs text-ink-muted">Reviews due</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="plan-reviews-due">{today.reviews_due}</dd>
        </div>
        <div className="rounded-xl bg-surface-2 px-2 py-2">
          <dt className="text-xs text-ink-muted">New to learn</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="plan-new-due">{today.new_due}</dd>
        </div>
        <div className="rounded-xl bg-surface-2 px-2 py-2">
          <dt className="text-xs text-ink-muted">Done today</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="plan-done">{today.reviews_done}</dd>
        </div>
      </dl>
      <p className="text-xs text-ink-muted" data-testid="plan-retention">
        Remembered at the exam if you stopped now: <b className="text-ink">{percent(plan.retention_now)}</b> · following the plan: <b className="text-ink">{percent(plan.retention_planned)}</b> ({plan.at_target} of {plural(plan.cards, "card")} at the target)
      </p>
      <PlanQuiz plan={plan} />
      {left > 0 && (
        <ButtonLink to={`/study/plans/${plan.id}/review`} variant="primary" icon={<Play size={15} />}>
          Review today's {plural(left, "card")}
        </ButtonLink>
      )}
    </div>
  );
}
