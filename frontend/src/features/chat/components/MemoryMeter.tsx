/**
 * How full the conversation's memory is, in words: "Remembers the whole chat · 34% of memory used", or,
 * once the budget is reached and the oldest turns are dropped (whole), how many are forgotten.
 */
import type { MemoryInfo } from "../api/types";
import { cn } from "@/lib/cn";
import { formatPercent, plural } from "@/lib/format";

export function memoryDescription(memory: MemoryInfo): string {
  const used = `${memory.used_chars.toLocaleString("en")} of ${memory.budget_chars.toLocaleString("en")} characters of memory used`;
  const kept = `${plural(memory.turns_kept, "earlier turn")} remembered`;
  const dropped = memory.turns_dropped ? `; ${plural(memory.turns_dropped, "oldest turn")} no longer in memory` : "";
  return `${used}; ${kept}${dropped}.${tokenBudget(memory)}`;
}

/** The model's context in tokens, where the answer says it: what was sent, what is kept for the answer. */
export function tokenBudget(memory: MemoryInfo): string {
  if (!memory.context_tokens) return "";
  const used = `about ${(memory.used_tokens ?? 0).toLocaleString("en")} of the model's ${memory.context_tokens.toLocaleString("en")}-token context`;
  const answer = memory.answer_tokens ? ` (${memory.answer_tokens.toLocaleString("en")} kept for the answer)` : "";
  const trimmed = memory.passages_dropped
    ? `; ${plural(memory.passages_dropped, "lower-ranked passage")} left out to fit`
    : "";
  return ` Sent ${used}${answer}${trimmed}.`;
}

/** The meter's visible words: what the model still has of the conversation. */
export function memoryLabel(memory: MemoryInfo): string {
  const fraction = memory.budget_chars ? memory.used_chars / memory.budget_chars : 0;
  const context = memory.context_tokens ? ` · ${compactTokens(memory.context_tokens)}-token context` : "";
  const trimmed = memory.passages_dropped ? ` · ${plural(memory.passages_dropped, "passage")} left out to fit` : "";
  const used = `${formatPercent(fraction)} of memory used${context}${trimmed}`;
  if (memory.turns_dropped === 1) return `Forgot the oldest turn · ${used}`;
  if (memory.turns_dropped > 1) return `Forgot the ${plural(memory.turns_dropped, "oldest turn")} · ${used}`;
  return `Remembers the whole chat · ${used}`;
}

function compactTokens(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1024)}k` : String(tokens);
}

export function MemoryMeter({ memory }: { memory?: MemoryInfo }) {
  if (!memory) return null;
  const fraction = memory.budget_chars ? memory.used_chars / memory.budget_chars : 0;
  const tone = memory.turns_dropped > 0 || fraction > 0.85 ? "bg-warn" : "bg-accent";
  return (
    <div className="flex items-center gap-2 text-xs text-ink-faint" title={memoryDescription(memory)} data-testid="memory-meter">
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
      <span className="hidden tabular-nums sm:inline" data-testid="memory-label">{memoryLabel(memory)}</span>
      <span className="tabular-nums sm:hidden">{formatPercent(fraction)}</span>
    </div>
  );
}
