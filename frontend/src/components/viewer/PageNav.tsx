/** "Page 3 of 15" / "Slide 3 of 34" with previous and next buttons and a number field to jump. */
import { useState } from "react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { IconButton } from "@/components/Button";

export function PageNav({ unit, page, count, onPage }: {
  unit: "Page" | "Slide";
  page: number;
  count: number | null;
  onPage: (page: number) => void;
}) {
  const [draft, setDraft] = useState(String(page));
  // Follow page changes made by the buttons (adjusted during render, not in an effect).
  const [shown, setShown] = useState(page);
  if (shown !== page) {
    setShown(page);
    setDraft(String(page));
  }
  const last = count ?? page;
  const go = (target: number) => {
    if (Number.isFinite(target)) onPage(Math.min(Math.max(1, Math.round(target)), last));
  };
  return (
    <nav aria-label={`${unit}s`} className="flex items-center gap-1.5 text-[13px] text-ink-muted">
      <IconButton label={`Previous ${unit.toLowerCase()}`} size="sm" disabled={page <= 1} onClick={() => go(page - 1)}>
        <ChevronLeft size={16} />
      </IconButton>
      <form
        className="flex items-center gap-1.5"
        onSubmit={(event) => {
          event.preventDefault();
          go(Number(draft));
        }}
      >
        <span>{unit}</span>
        <input
          aria-label={`${unit} number`}
          inputMode="numeric"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => go(Number(draft))}
          className="h-7 w-12 rounded-md border border-line-strong bg-surface text-center text-ink tabular-nums"
        />
        <span data-testid="page-count">of {count ?? "?"}</span>
      </form>
      <IconButton label={`Next ${unit.toLowerCase()}`} size="sm" disabled={page >= last} onClick={() => go(page + 1)}>
        <ChevronRight size={16} />
      </IconButton>
    </nav>
  );
}
