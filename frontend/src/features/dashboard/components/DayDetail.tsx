/** One day of the heatmap: its study time, its sessions (when, how long, doing what) and every event. */
import { useState } from "react";
import { Skeleton } from "@/components/Skeleton";
import { errorMessage } from "@/lib/api";
import { formatDuration } from "@/lib/duration";
import { plural } from "@/lib/format";
import { useDay } from "../api/progress";
import { longDay } from "../lib/heatmap";
import { ACTIVITY, activityCount } from "./activity";

const TIME = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const SHOWN_EVENTS = 8;

/** "14:05" in the study time zone: the server's local_start is an ISO time with that zone's offset. */
function localClock(iso: string): string {
  const match = /T(\d{2}:\d{2})/.exec(iso);
  return match?.[1] ?? TIME.format(new Date(iso));
}

export function DayDetail({ date }: { date: string }) {
  const day = useDay(date);
  const [allEvents, setAllEvents] = useState(false);
  const data = day.data;
  return (
    <div data-testid="day-detail" data-date={date} aria-live="polite">
      <h3 className="text-sm font-semibold">{longDay(date)}</h3>
      {day.isPending && <div className="mt-3 space-y-2"><Skeleton className="h-4 w-1/2" /><Skeleton className="h-12" /><Skeleton className="h-12" /></div>}
      {day.isError && <p role="alert" className="mt-2 text-sm text-danger">{errorMessage(day.error)}</p>}
      {data && (data.events.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">No study on this day.</p>
      ) : (
        <>
          <p className="mt-0.5 text-[13px] text-ink-muted">
            {formatDuration(data.seconds)} in {plural(data.sessions.length, "session")} · {plural(data.events.length, "activity", "activities")}
          </p>
          <ol className="mt-3 space-y-2">
            {data.sessions.map((session) => (
              <li key={session.start} className="rounded-xl border border-line bg-canvas px-3 py-2" data-testid="day-session">
                <p className="flex items-baseline justify-between gap-2 text-[13px]">
                  <span className="font-medium tabular-nums">{localClock(session.local_start)}</span>
                  <span className="text-ink-muted">{formatDuration(session.seconds)}</span>
                </p>
                <p className="mt-0.5 text-xs text-ink-muted">
                  {Object.entries(session.kinds).map(([kind, count]) => activityCount(kind, count)).join(" · ")}
                </p>
              </li>
            ))}
          </ol>
          <details className="mt-3" open={allEvents} onToggle={(event) => setAllEvents(event.currentTarget.open)}>
            <summary className="cursor-pointer text-xs font-medium text-ink-muted hover:text-ink">Every activity ({data.events.length})</summary>
            <ul className="mt-2 max-h-60 space-y-1 overflow-y-auto pr-1">
              {(allEvents ? data.events : data.events.slice(0, SHOWN_EVENTS)).map((event) => {
                const info = ACTIVITY[event.kind];
                const Icon = info?.icon;
                return (
                  <li key={event.id} className="flex items-center gap-2 text-xs text-ink-muted">
                    <span className="w-16 shrink-0 tabular-nums text-ink-faint">{event.local_time}</span>
                    {Icon && <Icon size={12} className="shrink-0" />}
                    <span className="truncate">{info ? info.one[0]?.toUpperCase() + info.one.slice(1) : event.kind}</span>
                  </li>
                );
              })}
            </ul>
          </details>
        </>
      ))}
    </div>
  );
}
