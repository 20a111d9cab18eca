/** The model's reasoning, collapsed by default; the header pulses while the model is still thinking. */
import { useEffect, useId, useRef, useState } from "react";
import { Brain, ChevronRight } from "lucide-react";
import { cn } from "@/lib/cn";

/** The tail of the reasoning so far, as a one-line live preview. */
function lastWords(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 90 ? `…${flat.slice(-90)}` : flat;
}

/** For a model that cannot show its reasoning: said once, so an empty panel is never a mystery. */
export function NoReasoning({ model }: { model: string }) {
  return (
    <p className="flex items-center gap-2 rounded-xl border border-line bg-surface-2/50 px-3 py-2 text-[13px] text-ink-muted"
      data-testid="no-reasoning">
      <Brain size={15} className="shrink-0" />
      <span>This model ({model}) does not show its reasoning.</span>
    </p>
  );
}

export function ReasoningPanel({ text, active }: { text: string; active: boolean }) {
  const [open, setOpen] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    if (open && active && body.current) body.current.scrollTop = body.current.scrollHeight;
  }, [text, open, active]);

  return (
    <div className="rounded-xl border border-line bg-surface-2/50" data-testid="reasoning">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center gap-2 rounded-xl px-3 py-2 text-left text-[13px] text-ink-muted hover:text-ink"
      >
        <Brain size={15} className={cn("shrink-0", active && "animate-pulse-soft text-accent")} />
        <span className="shrink-0 font-medium">{active ? "Thinking…" : "Reasoning"}</span>
        {active && !open && text && (
          <span aria-hidden="true" className="min-w-0 truncate text-ink-faint">{lastWords(text)}</span>
        )}
        <ChevronRight size={14} className={cn("ml-auto transition-transform", open && "rotate-90")} />
      </button>
      {open && (
        <div
          id={id}
          ref={body}
          className="max-h-64 overflow-y-auto border-t border-line px-3 py-2.5 text-[13px] leading-relaxed whitespace-pre-wrap text-ink-muted"
        >
          {text}
        </div>
      )}
    </div>
  );
}
