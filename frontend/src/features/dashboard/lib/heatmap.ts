/**
 * The activity heatmap: a study day's intensity level (0 = nothing, 1–4 by minutes studied), the grid
 * of weeks (columns, Monday first) the days fall into, month labels, and each cell's words. Pure.
 */
import type { components } from "@/api/schema";
import { formatDuration } from "@/lib/duration";
import { plural } from "@/lib/format";

/** The fields of `GET /api/progress/daily`'s days (`DayOut`) the heatmap reads; `date` is YYYY-MM-DD, a study-zone calendar day. */
export type HeatDay = Pick<components["schemas"]["DayOut"], "date" | "seconds" | "sessions" | "events">;

export type Level = 0 | 1 | 2 | 3 | 4;

/** Minutes at which levels 2, 3 and 4 begin; any activity at all is at least level 1. */
export const LEVEL_THRESHOLDS_MIN = [15, 30, 60] as const;

export function heatLevel(day: Pick<HeatDay, "seconds" | "events">): Level {
  if (day.seconds <= 0 && day.events <= 0) return 0;
  const minutes = day.seconds / 60;
  const [two, three, four] = LEVEL_THRESHOLDS_MIN;
  if (minutes >= four) return 4;
  if (minutes >= three) return 3;
  if (minutes >= two) return 2;
  return 1;
}

export const LEVEL_LEGEND: Record<Level, string> = {
  0: "No study",
  1: "Under 15 min",
  2: "15–30 min",
  3: "30–60 min",
  4: "An hour or more",
};

/** Parse "2026-03-04" as a calendar date (no time zone shifts). */
export function parseDay(iso: string): Date {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayIndex(iso: string): number {
  return (parseDay(iso).getUTCDay() + 6) % 7;
}

/** Days into week columns (Monday first); the first and last weeks are padded with nulls. */
export function weekColumns<T extends { date: string }>(days: readonly T[]): Array<Array<T | null>> {
  const weeks: Array<Array<T | null>> = [];
  let week: Array<T | null> = [];
  days.forEach((day, index) => {
    if (index === 0) week = Array.from({ length: weekdayIndex(day.date) }, () => null);
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  });
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}

const MONTH = new Intl.DateTimeFormat("en", { month: "short", timeZone: "UTC" });
const LONG_DAY = new Intl.DateTimeFormat("en", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A month name above the first column where a new month starts (and above the first column). */
export function monthLabels<T extends { date: string }>(weeks: ReadonlyArray<ReadonlyArray<T | null>>): Array<string | null> {
  let previous = -1;
  return weeks.map((week) => {
    const first = week.find((day): day is T => day !== null);
    if (!first) return null;
    const month = parseDay(first.date).getUTCMonth();
    // A label needs room: skip a new month that starts in the very last column.
    if (month === previous) return null;
    previous = month;
    return MONTH.format(parseDay(first.date));
  });
}

export function longDay(iso: string): string {
  return LONG_DAY.format(parseDay(iso));
}

/** The words a screen reader hears for a cell (and the tooltip): "Tue, Mar 3, 2026: 25 min in 2 sessions, 7 activities". */
export function cellLabel(day: HeatDay): string {
  if (day.seconds <= 0 && day.events <= 0) return `${longDay(day.date)}: no study`;
  const sessions = day.sessions ? ` in ${plural(day.sessions, "session")}` : "";
  return `${longDay(day.date)}: ${formatDuration(day.seconds)}${sessions}, ${plural(day.events, "activity", "activities")}`;
}
