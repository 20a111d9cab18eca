/**
 * The last 90 days as a grid of weeks (columns, Monday on top), five shades from "no study" to "an hour
 * or more". Every cell is a button named by its date and study time; arrow keys move between days
 * (up/down a day, left/right a week) and Enter opens the day.
 */
import { useMemo, useRef, type KeyboardEvent } from "react";
import { cn } from "@/lib/cn";
import { cellLabel, heatLevel, LEVEL_LEGEND, monthLabels, weekColumns, type HeatDay, type Level } from "../lib/heatmap";

const LEVEL_CLASS: Record<Level, string> = {
  0: "bg-surface-3",
  1: "bg-accent/25",
  2: "bg-accent/45",
  3: "bg-accent/70",
  4: "bg-accent",
};

const WEEKDAYS = ["Mon", "", "Wed", "", "Fri", "", ""];

export function Heatmap({ days, selected, onSelect }: { days: HeatDay[]; selected: string | null; onSelect: (date: string) => void }) {
  const weeks = useMemo(() => weekColumns(days), [days]);
  const months = useMemo(() => monthLabels(weeks), [weeks]);
  const grid = useRef<HTMLDivElement>(null);
  const focusDate = selected ?? days[days.length - 1]?.date;

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7 };
    const step = steps[event.key];
    const current = (event.target as HTMLElement).dataset.date;
    if (step === undefined || !current) return;
    event.preventDefault();
    const index = days.findIndex((day) => day.date === current) + step;
    const target = days[Math.max(0, Math.min(days.length - 1, index))];
    grid.current?.querySelector<HTMLButtonElement>(`[data-date="${target?.date}"]`)?.focus();
  };

  return (
    // Padding inside the scroller, so the selected day's ring isn't clipped at the grid's edges.
    <div className="-m-1 overflow-x-auto p-1">
      <div className="inline-flex gap-2">
        <div className="grid grid-rows-[auto_repeat(7,1fr)] gap-[3px] pt-px text-[10px] leading-none text-ink-faint" aria-hidden="true">
          <span className="h-4" />
          {WEEKDAYS.map((label, i) => <span key={i} className="flex h-4 items-center sm:h-5 lg:h-6">{label}</span>)}
        </div>
        <div>
          <div className="mb-[3px] grid h-4 grid-flow-col gap-[3px] text-[10px] leading-4 text-ink-faint" aria-hidden="true"
            style={{ gridTemplateColumns: `repeat(${weeks.length}, minmax(0, 1fr))` }}>
            {months.map((label, i) => <span key={i} className="w-4 overflow-visible whitespace-nowrap sm:w-5 lg:w-6">{label ?? ""}</span>)}
          </div>
          <div ref={grid} role="group" aria-label="Study activity, last 90 days" onKeyDown={move}
            className="grid grid-flow-col grid-rows-7 gap-[3px]" data-testid="heatmap">
            {weeks.flatMap((week, w) => week.map((day, d) => {
              if (!day) return <span key={`${w}-${d}`} className="size-4 sm:size-5 lg:size-6" aria-hidden="true" />;
              const level = heatLevel(day);
              const isSelected = day.date === selected;
              return (
                <button
                  key={day.date}
                  type="button"
                  data-date={day.date}
                  data-level={level}
                  aria-label={cellLabel(day)}
                  aria-pressed={isSelected}
                  title={cellLabel(day)}
                  tabIndex={day.date === focusDate ? 0 : -1}
                  onClick={() => onSelect(day.date)}
                  className={cn("size-4 rounded-[4px] transition-shadow sm:size-5 lg:size-6", LEVEL_CLASS[level],
                    isSelected ? "ring-2 ring-ink ring-offset-1 ring-offset-surface" : "hover:ring-1 hover:ring-ink-faint")}
                />
              );
            }))}
          </div>
        </div>
      </div>
    </div>
  );
}

export function HeatLegend() {
  return (
    <div className="flex items-center gap-1.5 text-[11px] text-ink-faint">
      <span>Less</span>
      {([0, 1, 2, 3, 4] as Level[]).map((level) => (
        <span key={level} title={LEVEL_LEGEND[level]} className={cn("size-3 rounded-[3px]", LEVEL_CLASS[level])}>
          <span className="sr-only">{LEVEL_LEGEND[level]}</span>
        </span>
      ))}
      <span>More</span>
    </div>
  );
}
