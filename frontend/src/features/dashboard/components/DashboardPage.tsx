/**
 * The Dashboard: study time, sessions and streaks; the last 90 days as a heatmap with the chosen day's
 * detail; today's exam plan and how reviews are scheduled; badges; where the time went; and the vault — all counted from real activity on this machine.
 */
import { useMemo, type ReactNode } from "react";
import { CalendarDays, Clock, Flame, Timer } from "lucide-react";
import { useSearchParams } from "react-router";
import { useHealth } from "@/api/vault";
import { Button } from "@/components/Button";
import { Skeleton } from "@/components/Skeleton";
import { errorMessage } from "@/lib/api";
import { formatDuration } from "@/lib/duration";
import { plural } from "@/lib/format";
import { HEATMAP_DAYS, useBadges, useBreakdown, useDaily, useSummary, useVaultStats } from "../api/progress";
import { BadgeGrid } from "./BadgeGrid";
import { Breakdown } from "./Breakdown";
import { DayDetail } from "./DayDetail";
import { ExamPlansPanel, SchedulerPanel } from "./ExamPlans";
import { Heatmap, HeatLegend } from "./Heatmap";
import { VaultPanel } from "./VaultPanel";
import { WorkersPanel } from "./WorkersPanel";

function Card({ title, id, actions, children, className }: { title: string; id: string; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={`rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-5 ${className ?? ""}`}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-sm font-semibold">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

function Failed({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <div role="alert" className="flex items-center justify-between gap-3 text-sm text-danger">
      <span>Couldn't load this: {errorMessage(error)}</span>
      <Button size="sm" onClick={retry}>Try again</Button>
    </div>
  );
}

function SummaryCard({ icon, label, value, hint, testId }: { icon: ReactNode; label: string; value: string; hint: string; testId: string }) {
  return (
    <div className="rounded-2xl border border-line bg-surface p-4 shadow-card" data-testid={testId}>
      <p className="flex items-center gap-1.5 text-xs font-medium text-ink-faint">{icon}{label}</p>
      <p className="mt-1.5 text-2xl font-semibold tracking-tight tabular-nums">{value}</p>
      <p className="mt-0.5 truncate text-xs text-ink-muted">{hint}</p>
    </div>
  );
}

function SummaryCards() {
  const summary = useSummary();
  const s = summary.data;
  if (summary.isError) return <Failed error={summary.error} retry={() => void summary.refetch()} />;
  if (!s) {
    return <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">{[0, 1, 2, 3].map((i) => <Skeleton key={i} className="h-[6.5rem] rounded-2xl" />)}</div>;
  }
  const average = s.sessions ? formatDuration(s.total_seconds / s.sessions) : "—";
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="summary">
      <SummaryCard testId="summary-time" icon={<Clock size={13} />} label="Study time" value={formatDuration(s.total_seconds)}
        hint={s.active_days ? `over ${plural(s.active_days, "day")}` : "counted while you study"} />
      <SummaryCard testId="summary-sessions" icon={<Timer size={13} />} label="Sessions" value={s.sessions.toLocaleString("en")}
        hint={s.sessions ? `${average} on average` : "a pause of 15 min ends one"} />
      <SummaryCard testId="summary-streak" icon={<Flame size={13} />} label="Current streak" value={plural(s.current_streak, "day")}
        hint={`longest ${plural(s.longest_streak, "day")}`} />
      <SummaryCard testId="summary-today" icon={<CalendarDays size={13} />} label="Today" value={formatDuration(s.today_seconds)}
        hint={s.today_seconds ? "the streak is safe for today" : s.current_streak > 0 ? "study today to keep the streak" : "nothing yet today"} />
    </div>
  );
}

function Activity() {
  const daily = useDaily();
  const [params, setParams] = useSearchParams();
  const days = useMemo(() => daily.data?.days ?? [], [daily.data]);
  const today = days[days.length - 1]?.date ?? null;
  const selected = params.get("day") ?? today;
  const totals = useMemo(() => ({
    seconds: days.reduce((sum, day) => sum + day.seconds, 0),
    active: days.filter((day) => day.events > 0).length,
  }), [days]);
  const select = (date: string) => setParams((current) => {
    const next = new URLSearchParams(current);
    next.set("day", date);
    return next;
  }, { replace: true });

  return (
    <Card title={`Last ${HEATMAP_DAYS} days`} id="activity-title" actions={<HeatLegend />} className="lg:col-span-2">
      {daily.isError && <Failed error={daily.error} retry={() => void daily.refetch()} />}
      {daily.isPending && <Skeleton className="h-40" />}
      {daily.data && (
        <div className="grid gap-5 md:grid-cols-[auto_minmax(11rem,1fr)]">
          <div>
            <Heatmap days={days} selected={selected} onSelect={select} />
            {/* As wide as the heatmap, never wider: the day detail keeps its column. */}
            <p className="mt-3 w-0 min-w-full text-[13px] text-ink-muted">
              {totals.active
                ? `${formatDuration(totals.seconds)} on ${plural(totals.active, "day")} — pick a day to see what you did.`
                : "No study in this period yet. Answer a quiz question, review flashcards or ask your documents something: it shows up here."}
            </p>
          </div>
          <div className="min-w-0 border-t border-line pt-4 md:border-t-0 md:border-l md:pt-0 md:pl-5">
            {selected && <DayDetail key={selected} date={selected} />}
          </div>
        </div>
      )}
    </Card>
  );
}

export function DashboardPage() {
  const badges = useBadges();
  const breakdown = useBreakdown();
  const vault = useVaultStats();
  const health = useHealth();
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <header>
        <h1 className="text-xl font-semibold tracking-tight">Dashboard</h1>
        <p className="mt-0.5 text-sm text-ink-muted">Your study time, streaks and badges — counted from what you do in Quire, on this machine.</p>
      </header>
      <SummaryCards />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2"><ExamPlansPanel /></div>
        <SchedulerPanel />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Activity />
        <Card title="Where the time went" id="breakdown-title">
          {breakdown.isError && <Failed error={breakdown.error} retry={() => void breakdown.refetch()} />}
          {breakdown.isPending && <Skeleton className="h-40" />}
          {breakdown.data && <Breakdown data={breakdown.data} />}
        </Card>
      </div>
      <Card title="Badges" id="badges-title"
        actions={badges.data && <span className="text-xs text-ink-muted" data-testid="badges-earned">{badges.data.earned} of {badges.data.total} earned</span>}>
        {badges.isError && <Failed error={badges.error} retry={() => void badges.refetch()} />}
        {badges.isPending && <Skeleton className="h-48" />}
        {badges.data && <BadgeGrid badges={badges.data.badges} />}
      </Card>
      <Card title="Your vault" id="vault-title">
        {vault.isError && <Failed error={vault.error} retry={() => void vault.refetch()} />}
        {vault.isPending && <Skeleton className="h-48" />}
        {vault.data && <VaultPanel stats={vault.data} />}
      </Card>
      {health.data && health.data.processes.length > 0 && (
        <Card title="Quire processes" id="workers-title">
          <WorkersPanel processes={health.data.processes} takeovers={health.data.takeovers} />
        </Card>
      )}
    </div>
  );
}
