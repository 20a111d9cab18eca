/**
 * A row of mutually exclusive choices (a radio group): click, or arrow keys to move the choice.
 * `ChoiceChips` is the multi-select sibling (checkboxes).
 */
import { useId, type ReactNode } from "react";
import { Check } from "lucide-react";
import { cn } from "@/lib/cn";
import { onRadioGroupKeyDown } from "@/lib/keys";

export interface Choice<T> {
  value: T;
  label: ReactNode;
  hint?: string;
}

export function Segmented<T extends string | number>({ label, value, options, onChange, className, size = "md" }: {
  label: string;
  value: T;
  options: ReadonlyArray<Choice<T>>;
  onChange: (value: T) => void;
  className?: string;
  size?: "sm" | "md";
}) {
  return (
    <div role="radiogroup" aria-label={label}
      onKeyDown={(event) => onRadioGroupKeyDown(event, (index) => {
        const next = options[index];
        if (next) onChange(next.value);
      })}
      className={cn("inline-flex max-w-full flex-wrap gap-0.5 rounded-lg border border-line bg-canvas p-0.5", className)}>
      {options.map((option) => {
        const checked = option.value === value;
        return (
          <button
            key={String(option.value)}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            title={option.hint}
            onClick={() => onChange(option.value)}
            className={cn(
              "rounded-md font-medium transition-colors",
              size === "sm" ? "h-7 min-w-8 px-2 text-[13px]" : "h-8 px-3 text-sm",
              checked ? "bg-surface text-ink shadow-sm ring-1 ring-line" : "text-ink-muted hover:text-ink",
            )}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}

export function ChoiceChips<T extends string>({ label, values, options, onChange }: {
  label: string;
  values: readonly T[];
  options: ReadonlyArray<Choice<T>>;
  onChange: (values: T[]) => void;
}) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="flex flex-wrap gap-2">
      <span id={id} className="sr-only">{label}</span>
      {options.map((option) => {
        const checked = values.includes(option.value);
        return (
          <button
            key={option.value}
            type="button"
            role="checkbox"
            aria-checked={checked}
            onClick={() => onChange(checked ? values.filter((v) => v !== option.value) : [...values, option.value])}
            className={cn(
              "inline-flex h-8 items-center gap-2 rounded-lg border px-3 text-sm font-medium transition-colors",
              checked ? "border-accent/50 bg-accent-soft text-accent-soft-ink" : "border-line-strong text-ink-muted hover:text-ink",
            )}
          >
            <span aria-hidden="true" className={cn("flex size-4 items-center justify-center rounded border",
              checked ? "border-accent bg-accent text-accent-ink" : "border-line-strong")}>
              {checked && <Check size={12} strokeWidth={3} />}
            </span>
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
