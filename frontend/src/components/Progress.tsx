/** A thin progress bar: determinate (value 0–1) or indeterminate (value undefined). */
import { cn } from "@/lib/cn";
import type { Tone } from "./Badge";

const FILL: Record<Tone, string> = {
  neutral: "bg-ink-faint",
  accent: "bg-accent",
  ok: "bg-ok",
  warn: "bg-warn",
  danger: "bg-danger",
};

export function Progress({ value, label, tone = "accent", className }: {
  value?: number;
  label: string;
  tone?: Tone;
  className?: string;
}) {
  const percent = value === undefined ? undefined : Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cn("relative h-1.5 w-full overflow-hidden rounded-full bg-surface-3", className)}
    >
      {percent === undefined ? (
        <div className={cn("absolute inset-y-0 w-2/5 rounded-full animate-indeterminate", FILL[tone])} />
      ) : (
        <div className={cn("h-full rounded-full transition-[width] duration-300", FILL[tone])} style={{ width: `${percent}%` }} />
      )}
    </div>
  );
}
