/**
 * Exam plan screens: a new plan (date, what it covers, target), a plan's page (today's plan, the days to
 * the exam, retention now and planned, settings), and today's review session across the plan's decks.
 */
import { useMemo, useState } from "react";
import { CalendarPlus, Trash2 } from "lucide-react";
import { Navigate, useNavigate, useParams } from "react-router";
import { useDocuments } from "@/api/vault";
import { Button } from "@/components/Button";
import { ConfirmDialog } from "@/components/Dialog";
import { TextInput } from "@/components/Input";
import { describeScope, EMPTY_SCOPE, ScopePicker, scopeIsEmpty, type Scope } from "@/components/ScopePicker";
import { SkeletonRows } from "@/components/Skeleton";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { formatDate, plural } from "@/lib/format";
import { useDecks } from "@/features/study/api/decks";
import { useCreatePlan, useDeletePlan, usePlan, usePlanCards, useUpdatePlan } from "@/features/study/api/plans";
import type { Plan } from "@/features/study/api/types";
import { percent } from "@/features/study/lib/plans";
import { withoutKindPrefix } from "@/features/study/lib/titles";
import { Session } from "../decks/ReviewPage";
import { Segmented } from "../Segmented";
import { PageShell, Panel, StudyHeader } from "../StudyLayout";
import { PlanToday } from "./PlanToday";

const TARGETS = [0.8, 0.85, 0.9, 0.95].map((value) => ({ value, label: percent(value) }));

function isoDay(offset: number): string {
  const day = new Date();
  day.setDate(day.getDate() + offset);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
}

export function NewPlanPage() {
  const navigate = useNavigate();
  const documents = useDocuments();
  const decks = useDecks();
  const create = useCreatePlan();
  const [title, setTitle] = useState("");
  const [date, setDate] = useState(isoDay(14));
  const [scope, setScope] = useState<Scope>(EMPTY_SCOPE);
  const [deckIds, setDeckIds] = useState<string[]>([]);
  const [target, setTarget] = useState(0.9);
  const names = useMemo(() => new Map((documents.data ?? []).map((doc) => [doc.id, doc.filename])), [documents.data]);
  const submit = () => create.mutate(
    { exam_date: date, title: title.trim() || null, target_retention: target, scope: { ...scope, deck_ids: deckIds } },
    { onSuccess: (plan) => navigate(`/study/plans/${plan.id}`, { replace: true }) },
  );
  return (
    <PageShell narrow>
      <StudyHeader back={{ to: "/study", label: "Study" }} title="New exam plan"
        subtitle="Quire plans each day's reviews so the cards you choose are remembered on the day." />
      <form aria-label="New exam plan" className="space-y-5 rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-6"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}>
        <label className="block space-y-1">
          <span className="text-sm font-medium">Exam date</span>
          <TextInput type="date" required min={isoDay(0)} value={date} onChange={(event) => setDate(event.target.value)} aria-label="Exam date" />
        </label>
        <label className="block space-y-1">
          <span className="text-sm font-medium">Name <span className="font-normal text-ink-faint">(optional)</span></span>
          <TextInput value={title} onChange={(event) => setTitle(event.target.value)} maxLength={200} className="w-full" placeholder="Biology final" />
        </label>
        <div className="space-y-1.5">
          <p className="text-sm font-medium">What the exam covers</p>
          <ScopePicker value={scope} onChange={setScope} side="bottom" />
          <p className="text-xs text-ink-faint">
            {scopeIsEmpty(scope) && deckIds.length === 0 ? "Every card you have." : `Cards made from ${scopeIsEmpty(scope) ? "the decks below" : describeScope(scope, names)}${deckIds.length && !scopeIsEmpty(scope) ? " and the decks below" : ""}.`}
          </p>
          {(decks.data ?? []).length > 0 && (
            <fieldset className="flex flex-wrap gap-1.5" aria-label="Decks">
              {(decks.data ?? []).map((deck) => {
                const on = deckIds.includes(deck.id);
                return (
                  <button key={deck.id} type="button" aria-pressed={on} onClick={() => setDeckIds(on ? deckIds.filter((id) => id !== deck.id) : [...deckIds, deck.id])}
                    className={cn("rounded-full border px-2.5 py-1 text-[13px]", on ? "border-accent bg-accent-soft text-accent-soft-ink" : "border-line-strong text-ink-muted hover:border-accent/50")}>
                    {withoutKindPrefix(deck.title, "Deck")} <span className="text-ink-faint">{deck.card_count}</span>
                  </button>
                );
              })}
            </fieldset>
          )}
        </div>
        <div className="space-y-1.5">
          <p className="text-sm font-medium">Remembered on the day</p>
          <Segmented label="Target retrievability" value={target} options={TARGETS} onChange={setTarget} />
          <p className="text-xs text-ink-faint">The chance of recalling each card at the exam; higher means more reviews.</p>
        </div>
        {create.isError && <p role="alert" className="text-[13px] text-danger">{errorMessage(create.error)}</p>}
        <div className="flex justify-end border-t border-line pt-4">
          <Button type="submit" variant="primary" icon={<CalendarPlus size={15} />} loading={create.isPending}>Make the plan</Button>
        </div>
      </form>
    </PageShell>
  );
}

function Forecast({ plan }: { plan: Plan }) {
  const most = Math.max(1, ...plan.days.map((d) => d.reviews + d.new));
  return (
    <div>
      <ol className="flex h-28 items-end gap-1" aria-label="Cards planned per day" data-testid="plan-forecast">
        {plan.days.map((day, index) => (
          <li key={day.date} className="flex h-full min-w-1.5 flex-1 flex-col justify-end" title={`${formatDate(day.date)}: ${plural(day.reviews, "review")}, ${day.new} new${day.quiz ? ", a quiz" : ""}`}>
            <span className="block rounded-t-sm bg-ok/70" style={{ height: `${(day.new / most) * 100}%` }} />
            <span className={cn("block bg-accent", day.new ? "" : "rounded-t-sm")} style={{ height: `${(day.reviews / most) * 100}%` }} />
            <span className={cn("mt-1 block h-1 rounded-full", day.quiz ? "bg-warn" : "bg-transparent", index === 0 && "ring-1 ring-ink-faint")} />
          </li>
        ))}
      </ol>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-muted">
        <span><span className="mr-1 inline-block size-2 rounded-sm bg-accent" />reviews</span>
        <span><span className="mr-1 inline-block size-2 rounded-sm bg-ok/70" />new cards</span>
        <span><span className="mr-1 inline-block h-1 w-3 rounded-full bg-warn align-middle" />quiz day</span>
        <span>{plural(plan.days.reduce((sum, d) => sum + d.reviews + d.new, 0), "card")} over {plural(plan.days.length, "day")}</span>
      </p>
    </div>
  );
}

export function PlanPage() {
  const { planId = "" } = useParams();
  const plan = usePlan(planId);
  const update = useUpdatePlan(planId);
  const remove = useDeletePlan();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState(false);
  if (plan.isError) return <Navigate to="/study" replace />;
  const data = plan.data;
  return (
    <PageShell narrow>
      <StudyHeader back={{ to: "/study", label: "Study" }} title={data?.title ?? "Exam plan"}
        subtitle={data ? `Exam on ${formatDate(data.exam_date)} · ${plural(data.cards, "card")} · ${data.new_left} not learnt yet` : undefined}
        actions={<Button variant="ghost" size="sm" icon={<Trash2 size={15} />} onClick={() => setConfirm(true)}>Delete</Button>} />
      {!data ? <SkeletonRows rows={6} label="Loading the plan" /> : (
        <>
          <Panel title="Today"><PlanToday plan={data} /></Panel>
          {data.days.length > 0 && <Panel title="Until the exam"><Forecast plan={data} /></Panel>}
          <Panel title="Target">
            <Segmented label="Target retrievability" value={data.target_retention} options={TARGETS}
              onChange={(target_retention) => update.mutate({ target_retention })} />
          </Panel>
        </>
      )}
      <ConfirmDialog open={confirm} onCancel={() => setConfirm(false)} title="Delete this plan?" confirmLabel="Delete plan"
        description="Its cards, decks and reviews stay; only the plan goes." busy={remove.isPending}
        onConfirm={() => remove.mutate(planId, { onSuccess: () => navigate("/study", { replace: true }) })} />
    </PageShell>
  );
}

export function PlanReviewPage() {
  const { planId = "" } = useParams();
  const plan = usePlan(planId);
  const cards = usePlanCards(planId);
  return (
    <PageShell>
      <StudyHeader back={{ to: `/study/plans/${planId}`, label: plan.data?.title ?? "Exam plan" }} title="Today's review" />
      {cards.isPending && <SkeletonRows rows={5} label="Loading today's cards" />}
      {cards.isError && <p role="alert" className="text-sm text-danger">The cards couldn't be loaded: {errorMessage(cards.error)}</p>}
      {cards.data && <Session key={cards.dataUpdatedAt} cards={cards.data.cards} back={{ to: `/study/plans/${planId}`, label: "Back to the plan" }} />}
    </PageShell>
  );
}
