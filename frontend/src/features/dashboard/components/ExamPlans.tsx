/**
 * The dashboard's view of the study loop: today's plan of every exam still ahead (what to review and learn,
 * whether the student is on track) and how FSRS schedules reviews — its default parameters or the ones
 * fitted to the student's own reviews, with how much better the fit predicts them.
 */
import { CalendarClock, Gauge, Play } from "lucide-react";
import { Link } from "react-router";
import { usePlans, useOptimizeScheduler, useScheduler, type Plan } from "@/api/studyLoop";
import { Button } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { PlanStatusBadge } from "@/components/PlanStatusBadge";
import { errorMessage } from "@/lib/api";
import { formatDateTime, plural } from "@/lib/format";

const pct = (value: number) => `${Math.round(value * 100)}%`;

function PlanRow({ plan }: { plan: Plan }) {
  const left = plan.today.reviews_due + plan.today.new_due;
  return (
    <li className="flex flex-wrap items-center gap-3 py-3 first:pt-0 last:pb-0" data-testid="dashboard-plan">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          <Link to={`/study/plans/${plan.id}`} className="truncate hover:text-accent">{plan.title}</Link>
          <PlanStatusBadge status={plan.status} />
        </p>
        <p className="mt-0.5 text-[13px] text-ink-muted">
          {plan.days_left ? `Exam in ${plural(plan.days_left, "day")}` : "Exam today"} · today {plural(plan.today.reviews_due, "review")}, {plan.today.new_due} new, {plan.today.reviews_done} done
          {plan.today.quiz && !plan.today.quiz.done ? " · a quiz" : ""} · {pct(plan.retention_now)} remembered now, {pct(plan.retention_planned)} with the plan
        </p>
      </div>
      {left > 0 && <ButtonLink to={`/study/plans/${plan.id}/review`} size="sm" variant="primary" icon={<Play size={14} />}>Study {left}</ButtonLink>}
    </li>
  );
}

export function ExamPlansPanel() {
  const plans = usePlans();
  const ahead = (plans.data ?? []).filter((plan) => plan.status !== "exam_passed");
  return (
    <section aria-labelledby="plans-title" className="rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-5">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id="plans-title" className="flex items-center gap-2 text-sm font-semibold"><CalendarClock size={16} /> Today's plan</h2>
        <ButtonLink to="/study/plans/new" size="sm">New exam plan</ButtonLink>
      </div>
      {plans.isError && <p role="alert" className="text-sm text-danger">{errorMessage(plans.error)}</p>}
      {plans.isSuccess && ahead.length === 0 && (
        <p className="text-[13px] text-ink-muted">No exam ahead. Set an exam date and Quire plans each day's reviews so your cards are remembered on the day.</p>
      )}
      <ul className="divide-y divide-line">{ahead.map((plan) => <PlanRow key={plan.id} plan={plan} />)}</ul>
    </section>
  );
}

export function SchedulerPanel() {
  const scheduler = useScheduler();
  const optimize = useOptimizeScheduler();
  const data = scheduler.data;
  if (!data) return null;
  const fit = data.fit;
  const ready = data.spaced_reviews >= data.needed;
  return (
    <section aria-labelledby="scheduler-title" className="rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-5" data-testid="scheduler-panel">
      <h2 id="scheduler-title" className="mb-3 flex items-center gap-2 text-sm font-semibold"><Gauge size={16} /> Review scheduling</h2>
      {fit ? (
        <div className="space-y-1.5 text-[13px]">
          <p>FSRS uses parameters fitted to your {plural(fit.reviews, "review")} of {plural(fit.cards, "card")} ({formatDateTime(fit.created_at)}).</p>
          <p className="text-ink-muted" data-testid="scheduler-fit">
            How well they predict what you remembered (lower is better): log loss {fit.log_loss_before.toFixed(3)} → <b className="text-ink">{fit.log_loss_after.toFixed(3)}</b>,
            error {fit.rmse_before.toFixed(3)} → <b className="text-ink">{fit.rmse_after.toFixed(3)}</b> (defaults → yours).
          </p>
        </div>
      ) : (
        <p className="text-[13px] text-ink-muted">
          FSRS's default parameters. After {data.needed} reviews made a day or more apart (you have {data.spaced_reviews}), they are fitted to how you remember.
        </p>
      )}
      {data.hint && <p className="mt-2 text-xs text-warn">{data.hint}</p>}
      {ready && data.optimizer_installed && (
        <Button size="sm" className="mt-3" loading={optimize.isPending} onClick={() => optimize.mutate()}>Fit to my reviews now</Button>
      )}
      {optimize.isError && <p role="alert" className="mt-2 text-xs text-danger">{errorMessage(optimize.error)}</p>}
    </section>
  );
}
