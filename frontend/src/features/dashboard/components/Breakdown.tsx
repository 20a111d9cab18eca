/** Where the study time went: each activity's time, count and share, as bars. */
import { formatDuration } from "@/lib/duration";
import { formatPercent } from "@/lib/format";
import type { Breakdown as BreakdownData } from "../api/progress";
import { ACTIVITY, activityCount } from "./activity";

export function Breakdown({ data }: { data: BreakdownData }) {
  if (data.total_seconds === 0) {
    return <p className="text-sm text-ink-muted">Nothing yet — each kind of study gets its own bar here.</p>;
  }
  const items = [...data.items].sort((a, b) => b.seconds - a.seconds);
  return (
    <ul className="space-y-3" data-testid="breakdown">
      {items.map((item) => {
        const Icon = ACTIVITY[item.kind]?.icon;
        return (
          <li key={item.kind}>
            <div className="flex items-baseline justify-between gap-3 text-[13px]">
              <span className="flex items-center gap-1.5 font-medium">{Icon && <Icon size={14} className="text-ink-faint" />}{item.label}</span>
              <span className="text-ink-muted tabular-nums">{formatDuration(item.seconds)} · {formatPercent(item.share)}</span>
            </div>
            <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-surface-3" aria-hidden="true">
              <div className="h-full rounded-full bg-accent" style={{ width: `${Math.round(item.share * 100)}%` }} />
            </div>
            <p className="mt-0.5 text-xs text-ink-faint">{activityCount(item.kind, item.events)}</p>
          </li>
        );
      })}
    </ul>
  );
}
