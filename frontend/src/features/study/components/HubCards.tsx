/**
 * The hub's cards for quizzes, decks, workshops and mind maps: the title links to the item (the whole
 * card is clickable), with the few facts that help choose what to study next.
 */
import type { ReactNode } from "react";
import { CalendarClock } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/Badge";
import { PlanStatusBadge } from "@/components/PlanStatusBadge";
import { ButtonLink } from "@/components/ButtonLink";
import { Progress } from "@/components/Progress";
import { formatMinutesEstimate } from "@/lib/duration";
import { formatDateTime, formatRelative, plural } from "@/lib/format";
import type { DeckSummary, GuideSummary, MindmapSummary, OverviewSummary, Plan, QuizSummary, WorkshopSummary } from "../api/types";
import { clockTime } from "../lib/overviews";
import { GUIDE_NOUN } from "../lib/guides";
import { examWhen, todayLeft } from "../lib/plans";
import { formatScore, inProgressLabel, scoreTone } from "../lib/quiz";
import { withoutKindPrefix } from "../lib/titles";
import { KINDS } from "./kinds";

const DIFFICULTY: Record<string, string> = { beginner: "Beginner", intermediate: "Intermediate", advanced: "Advanced" };

function ItemCard({ to, title, icon, meta, badge, footer, children, testId }: {
  to: string;
  title: string;
  icon: ReactNode;
  meta: ReactNode;
  badge?: ReactNode;
  footer?: ReactNode;
  children?: ReactNode;
  testId: string;
}) {
  return (
    <li className="group relative flex flex-col rounded-2xl border border-line bg-surface p-4 transition-colors hover:border-line-strong has-[h3_a:focus-visible]:ring-2 has-[h3_a:focus-visible]:ring-focus" data-testid={testId}>
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-surface-2 text-ink-muted">{icon}</span>
        <div className="min-w-0 flex-1">
          {/* The badge shares the title's line only; the facts below use the card's full width. */}
          <div className="flex items-start justify-between gap-2">
            <h3 className="min-w-0 text-sm leading-snug font-semibold">
              <Link to={to} className="line-clamp-2 break-words text-ink after:absolute after:inset-0 after:rounded-2xl focus:outline-none group-hover:text-accent">
                {title}
              </Link>
            </h3>
            {badge && <div className="shrink-0">{badge}</div>}
          </div>
          <p className="mt-0.5 text-[13px] text-ink-muted">{meta}</p>
        </div>
      </div>
      {children && <div className="mt-3">{children}</div>}
      {footer && <div className="relative z-10 mt-3 flex items-center justify-between gap-2 text-xs text-ink-faint">{footer}</div>}
    </li>
  );
}

function Created({ iso, verb = "Made" }: { iso: string; verb?: string }) {
  return <span title={formatDateTime(iso)}>{verb} {formatRelative(iso)}</span>;
}

export function QuizCard({ quiz }: { quiz: QuizSummary }) {
  const Icon = KINDS.quiz.icon;
  const best = quiz.best_score ?? null;
  // The unfinished attempt is what to do next, so it takes the badge; the best score moves to the footer.
  const badge = quiz.open_attempt
    ? <Badge tone="accent" dot>{inProgressLabel(quiz.open_attempt)}</Badge>
    : best !== null ? <Badge tone={scoreTone(best)}>Best {formatScore(best)}</Badge> : <Badge>Not taken</Badge>;
  return (
    <ItemCard to={`/study/quizzes/${quiz.id}`} title={withoutKindPrefix(quiz.title, "Quiz")} icon={<Icon size={16} />} testId="quiz-card" badge={badge}
      meta={`${plural(quiz.question_count, "question")} · ${DIFFICULTY[quiz.difficulty] ?? quiz.difficulty}${quiz.workshop_id ? " · Workshop recap" : ""}`}
      footer={
        <>
          <Created iso={quiz.last_attempt_at ?? quiz.created_at} verb={quiz.last_attempt_at ? "Taken" : "Made"} />
          {quiz.open_attempt && best !== null && <span>Best {formatScore(best)}</span>}
        </>
      }
    />
  );
}

export function DeckCard({ deck }: { deck: DeckSummary }) {
  const Icon = KINDS.deck.icon;
  const mistakes = deck.purpose === "mistakes";
  return (
    <ItemCard to={`/study/decks/${deck.id}`} title={mistakes ? deck.title : withoutKindPrefix(deck.title, "Deck")} icon={<Icon size={16} />} testId="deck-card"
      meta={`${mistakes ? "Wrong and unsure quiz answers · " : ""}${plural(deck.card_count, "card")}${deck.new_count ? ` · ${deck.new_count} new` : ""}`}
      badge={deck.due_count > 0 ? <Badge tone="accent" dot>{deck.due_count} due</Badge> : <Badge tone="ok">Up to date</Badge>}
      footer={
        <>
          <Created iso={deck.last_reviewed_at ?? deck.created_at} verb={deck.last_reviewed_at ? "Reviewed" : "Made"} />
          {deck.due_count > 0 && (
            <ButtonLink to={`/study/decks/${deck.id}/review`} size="sm" variant="secondary" aria-label={`Review ${deck.title}`}>Review</ButtonLink>
          )}
        </>
      }
    />
  );
}

export function WorkshopCard({ workshop }: { workshop: WorkshopSummary }) {
  const Icon = KINDS.workshop.icon;
  const done = workshop.completed_lessons >= workshop.lesson_count && workshop.lesson_count > 0;
  return (
    <ItemCard to={`/study/workshops/${workshop.id}`} title={workshop.title} icon={<Icon size={16} />} testId="workshop-card"
      meta={`${plural(workshop.lesson_count, "lesson")} · ${formatMinutesEstimate(workshop.total_minutes)}`}
      badge={done ? <Badge tone="ok">Complete</Badge> : undefined}
      footer={<Created iso={workshop.created_at} />}
    >
      <p className="line-clamp-2 text-[13px] text-ink-muted">{workshop.summary}</p>
      <div className="mt-3 flex items-center gap-2">
        <Progress value={workshop.progress} label={`${workshop.title}: ${workshop.completed_lessons} of ${plural(workshop.lesson_count, "lesson")} complete`} tone={done ? "ok" : "accent"} />
        <span className="shrink-0 text-xs text-ink-faint tabular-nums">{workshop.completed_lessons}/{workshop.lesson_count}</span>
      </div>
    </ItemCard>
  );
}

export function MindmapCard({ mindmap }: { mindmap: MindmapSummary }) {
  const Icon = KINDS.mindmap.icon;
  return (
    <ItemCard to={`/study/mindmaps/${mindmap.id}`} title={mindmap.title} icon={<Icon size={16} />} testId="mindmap-card"
      meta={`${plural(mindmap.node_count, "topic")} · ${mindmap.depth} levels`}
      footer={<Created iso={mindmap.updated_at} verb={mindmap.updated_at !== mindmap.created_at ? "Edited" : "Made"} />}
    />
  );
}

export function PlanCard({ plan }: { plan: Plan }) {
  const left = todayLeft(plan);
  return (
    <ItemCard to={`/study/plans/${plan.id}`} title={plan.title} icon={<CalendarClock size={16} />} testId="plan-card"
      meta={`Exam ${examWhen(plan)} · ${plural(plan.cards, "card")}`}
      badge={<PlanStatusBadge status={plan.status} />}
      footer={
        <>
          <span>{left ? `Today: ${plural(left, "card")} to study` : "Nothing left for today"}</span>
          {left > 0 && <ButtonLink to={`/study/plans/${plan.id}/review`} size="sm" variant="secondary" aria-label={`Study today's cards of ${plan.title}`}>Study</ButtonLink>}
        </>
      }
    />
  );
}

export function GuideCard({ guide }: { guide: GuideSummary }) {
  const Icon = KINDS.guide.icon;
  return (
    <ItemCard to={`/study/guides/${guide.id}`} title={withoutKindPrefix(guide.title, GUIDE_NOUN[guide.guide_type])} icon={<Icon size={16} />} testId="guide-card"
      meta={`${GUIDE_NOUN[guide.guide_type]} · ${plural(guide.entry_count, "entry", "entries")}`}
      footer={<Created iso={guide.created_at} />}
    />
  );
}

export function OverviewCard({ overview }: { overview: OverviewSummary }) {
  const Icon = KINDS.audio_overview.icon;
  const state = overview.state === "ready" ? (overview.duration_s ? clockTime(overview.duration_s) : "ready")
    : overview.state === "failed" ? "couldn't be spoken" : `speaking ${overview.lines_done} of ${overview.line_count} lines`;
  return (
    <ItemCard to={`/study/overviews/${overview.id}`} title={withoutKindPrefix(overview.title, "Audio overview")} icon={<Icon size={16} />} testId="overview-card"
      meta={`Audio overview · ${plural(overview.line_count, "line")} · ${state}`}
      footer={<Created iso={overview.created_at} />}
    />
  );
}
