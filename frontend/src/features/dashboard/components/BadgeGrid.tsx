/**
 * Badges: the earned ones in colour with the date, then the ones closest to being earned, greyed, with
 * progress toward the target; the rest behind "Show all". Icons come from the badge's group (the same
 * icon set as the rest of the app, so nothing depends on an emoji font being installed).
 */
import { useState } from "react";
import {
  BookOpenText, CalendarCheck, Clock, Flame, Layers, ListChecks, MessagesSquare, Moon, Network, Sunrise, Target, Timer,
  Trophy, type LucideIcon,
} from "lucide-react";
import { Progress } from "@/components/Progress";
import { cn } from "@/lib/cn";
import { formatDate, formatDateTime, plural } from "@/lib/format";
import type { BadgeOut } from "../api/progress";
import { badgeProgressText, nextLevelName, orderBadges } from "../lib/badges";

const GROUP_ICONS: Record<string, LucideIcon> = {
  sessions: CalendarCheck, time: Clock, focus: Timer, streak: Flame, chat: MessagesSquare, quiz: ListChecks,
  mastery: Target, cards: Layers, lessons: BookOpenText, mindmaps: Network,
};
const CODE_ICONS: Record<string, LucideIcon> = { early_bird: Sunrise, night_owl: Moon };
const SHOWN_UNEARNED = 8;

function BadgeIcon({ badge }: { badge: BadgeOut }) {
  const Icon = CODE_ICONS[badge.code] ?? GROUP_ICONS[badge.group] ?? Trophy;
  return (
    <span aria-hidden="true" className={cn("flex size-10 shrink-0 items-center justify-center rounded-full",
      badge.earned ? "bg-accent text-accent-ink shadow-sm" : "bg-surface-2 text-ink-faint")}>
      <Icon size={18} strokeWidth={2} />
    </span>
  );
}

export function BadgeGrid({ badges }: { badges: BadgeOut[] }) {
  const [all, setAll] = useState(false);
  const ordered = orderBadges(badges);
  const earnedCount = ordered.filter((badge) => badge.earned).length;
  const shown = all ? ordered : ordered.slice(0, earnedCount + SHOWN_UNEARNED);
  return (
    <>
      <ul className="grid gap-2.5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" data-testid="badges">
        {shown.map((badge) => {
          const next = nextLevelName(badge, badges);
          return (
            <li key={badge.code} data-testid="badge" data-code={badge.code} data-earned={badge.earned}
              className={cn("flex gap-3 rounded-xl border p-3", badge.earned ? "border-accent/30 bg-accent-soft/60" : "border-line bg-surface")}>
              <BadgeIcon badge={badge} />
              <div className="min-w-0 flex-1">
                <p className="text-sm font-semibold">{badge.name}</p>
                <p className="text-xs leading-snug text-ink-muted">{badge.description}</p>
                {badge.earned ? (
                  <p className="mt-1.5 text-[11px] text-ink-faint">
                    {badge.earned_at && <span className="font-medium text-ok" title={formatDateTime(badge.earned_at)}>Earned {formatDate(badge.earned_at)}</span>}
                    {next && <span> · next: {next}</span>}
                  </p>
                ) : (
                  <div className="mt-2 space-y-1">
                    <Progress value={badge.progress} label={`${badge.name}: ${badgeProgressText(badge)}`} tone="neutral" className="h-1" />
                    <p className="text-[11px] text-ink-faint">{badgeProgressText(badge)}{next ? ` · then ${next}` : ""}</p>
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {ordered.length > shown.length || all ? (
        <button type="button" onClick={() => setAll((value) => !value)} aria-expanded={all}
          className="mt-3 rounded-md px-1.5 py-0.5 text-[13px] font-medium text-ink-muted hover:bg-surface-2 hover:text-ink">
          {all ? "Show fewer" : `Show all ${plural(ordered.length, "badge")}`}
        </button>
      ) : null}
    </>
  );
}
