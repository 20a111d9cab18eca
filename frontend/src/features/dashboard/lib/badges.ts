/** Badges for people: the order they're shown in, and progress in the badge's own unit. Pure. */

import type { components } from "@/api/schema";

type BadgeOut = components["schemas"]["BadgeOut"];

/** The fields of a badge (`BadgeOut`) these functions read; `earned_at` may be left out. */
export type BadgeLike = Pick<BadgeOut, "code" | "name" | "metric" | "target" | "value" | "progress" | "earned" | "next_level">
  & Partial<Pick<BadgeOut, "earned_at">>;

const UNITS: Record<string, [string, string]> = {
  sessions: ["session", "sessions"],
  study_minutes: ["minute", "minutes"],
  longest_session_minutes: ["minute", "minutes"],
  longest_streak: ["day", "days"],
  chat_messages: ["question", "questions"],
  quiz_answers: ["answer", "answers"],
  perfect_quizzes: ["perfect quiz", "perfect quizzes"],
  card_reviews: ["review", "reviews"],
  lessons_read: ["lesson", "lessons"],
  workshops_completed: ["workshop", "workshops"],
  mindmap_exports: ["export", "exports"],
  early_sessions: ["early session", "early sessions"],
  night_sessions: ["late session", "late sessions"],
};

/** "12 of 60 minutes"; the value never shows above the target, and time is whole minutes. */
export function badgeProgressText(badge: Pick<BadgeLike, "metric" | "value" | "target">): string {
  const [one, many] = UNITS[badge.metric] ?? ["", ""];
  const value = Math.min(Math.floor(badge.value), badge.target);
  const unit = badge.target === 1 ? one : many;
  return `${value.toLocaleString("en")} of ${badge.target.toLocaleString("en")}${unit ? ` ${unit}` : ""}`;
}

/** Earned ones first (newest first), then the rest by how close they are. */
export function orderBadges<T extends BadgeLike>(badges: readonly T[]): T[] {
  const earned = badges.filter((b) => b.earned)
    .sort((a, b) => Date.parse(b.earned_at ?? "") - Date.parse(a.earned_at ?? ""));
  const rest = badges.map((badge, index) => ({ badge, index })).filter(({ badge }) => !badge.earned)
    .sort((a, b) => b.badge.progress - a.badge.progress || a.index - b.index)
    .map(({ badge }) => badge);
  return [...earned, ...rest];
}

/** The name of the badge that comes after this one, if any. */
export function nextLevelName<T extends BadgeLike>(badge: T, all: readonly T[]): string | null {
  if (!badge.next_level) return null;
  return all.find((other) => other.code === badge.next_level)?.name ?? null;
}
