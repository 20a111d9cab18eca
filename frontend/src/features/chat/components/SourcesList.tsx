/** A list of passages as cards (the cited ones, or the ones only searched); each opens the source viewer. */
import { useState } from "react";
import { ChevronDown, FileText } from "lucide-react";
import { Skeleton } from "@/components/Skeleton";
import { cn } from "@/lib/cn";
import { formatAlsoAt, formatLocation } from "@/lib/location";
import type { Citation } from "../api/types";
import { orderSources, plainSnippet } from "../lib/citations";

const SHOWN = 4;

export function SourcesList({ citations, cited, loading, onOpen, label = "Sources" }: {
  citations: Citation[];
  /** Numbers the answer cites, in order of use: those come first. */
  cited: number[];
  loading?: boolean;
  onOpen: (citation: Citation) => void;
  /** The list's heading. */
  label?: string;
}) {
  const [expanded, setExpanded] = useState(false);
  if (!citations.length && !loading) return null;
  const ordered = orderSources(citations, cited);
  const hidden = expanded ? 0 : Math.max(0, ordered.length - SHOWN);
  return (
    <section aria-label={label} data-testid="sources">
      <h2 className="mb-1.5 text-xs font-medium tracking-wide text-ink-faint uppercase">
        {label}{citations.length ? ` · ${citations.length}` : ""}
      </h2>
      {/* A swipeable strip on phones; a two-column grid (first few, then "more") on wider screens. */}
      <ol className="-mx-1 flex snap-x gap-1.5 overflow-x-auto px-1 pb-1 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 sm:pb-0">
        {ordered.map((citation, index) => (
          <li key={citation.n} className={cn("w-[78%] shrink-0 snap-start sm:w-auto", !expanded && index >= SHOWN && "sm:hidden")}>
            <button
              type="button"
              onClick={() => onOpen(citation)}
              data-testid="source-card"
              className="flex h-full w-full items-start gap-2.5 rounded-xl border border-line bg-surface p-2.5 text-left transition-colors hover:border-accent/50 hover:bg-surface-2"
            >
              <span className="flex size-5 shrink-0 items-center justify-center rounded-md bg-accent-soft text-[11px] font-semibold text-accent-soft-ink">
                {citation.n}
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex items-center gap-1.5 text-[13px] font-medium text-ink">
                  <FileText size={12} className="shrink-0 text-ink-faint" />
                  <span className="truncate">{citation.filename}</span>
                  {formatLocation(citation) && <span className="shrink-0 font-normal text-ink-faint">{formatLocation(citation)}</span>}
                </span>
                <span className="mt-0.5 line-clamp-2 text-xs text-ink-muted">{plainSnippet(citation.snippet)}</span>
                {citation.also_at?.length ? (
                  <span data-testid="also-at" className="mt-0.5 block text-[11px] text-ink-faint">{formatAlsoAt(citation.also_at, citation.kind)}</span>
                ) : null}
              </span>
            </button>
          </li>
        ))}
        {loading && citations.length === 0 && (
          <>
            <li className="w-[78%] shrink-0 sm:w-auto"><Skeleton className="h-16 rounded-xl" /></li>
            <li className="hidden sm:block"><Skeleton className="h-16 rounded-xl" /></li>
          </>
        )}
      </ol>
      {(hidden > 0 || expanded) && ordered.length > SHOWN && (
        <button
          type="button"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
          className="mt-1.5 hidden items-center gap-1 sm:inline-flex rounded-md px-1.5 py-0.5 text-xs font-medium text-ink-muted hover:bg-surface-2 hover:text-ink"
        >
          <ChevronDown size={13} className={expanded ? "rotate-180" : undefined} />
          {expanded ? "Show fewer" : `${hidden} more ${hidden === 1 ? "passage" : "passages"}`}
        </button>
      )}
    </section>
  );
}
