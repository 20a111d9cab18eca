/** How full the conversation's memory is: older turns are dropped, whole, once the budget is reached. */
import type { MemoryInfo } from "../api/types";
import { cn } from "@/lib/cn";
import { formatPercent, plural } from "@/lib/format";

export function memoryDescription(memory: MemoryInfo): string {
  const used = `${memory.used_chars.toLocaleString("en")} of ${memory.budget_chars.toLocaleString("en")} characters of memory used`;
  const kept = `${plural(memory.turns_kept, "earlier turn")} remembered`;
  const dropped = memory.turns_dropped ? `; ${plural(memory.turns_dropped, "oldest turn")} no longer in memory` : "";
  return `${used}; ${kept}${dropped}.`;
}

export function MemoryMeter({ memory }: { memory?: MemoryInfo }) {
  if (!memory) return null;
  const fraction = memory.budget_chars ? memory.used_chars / memory.budget_chars : 0;
  const tone = memory.turns_dropped > 0 || fraction > 0.85 ? "bg-warn" : "bg-accent";
  return (
    <div className="flex items-center gap-2 text-xs text-ink-faint" title={memoryDescription(memory)} data-testid="memory-meter">
      <span className="hidden sm:inline">Memory</span>
      <div
        role="meter"
        aria-label="Conversation memory"
        aria-valuemin={0}
        aria-valuemax={memory.budget_chars}
        aria-valuenow={memory.used_chars}
        aria-valuetext={memoryDescription(memory)}
        className="h-1.5 w-16 overflow-hidden rounded-full bg-surface-3"
      >
        <div className={cn("h-full rounded-full", tone)} style={{ width: `${Math.min(100, fraction * 100)}%` }} />
      </div>
      <span className="tabular-nums">{formatPercent(fraction)}</span>
    </div>
  );
}
