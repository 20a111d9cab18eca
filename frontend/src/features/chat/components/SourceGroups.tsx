/**
 * The passages a turn searched, before its text: the sources the answer cites as cards, the ones it
 * searched but did not cite collapsed under "Also searched". When nothing found was relevant enough to
 * answer from, no cards at all — a notice that the documents do not cover the question (or, while documents
 * in its scope are still being read, that they are), and the closest passages only on request.
 */
import { useState, type ReactNode } from "react";
import { ChevronDown, Hourglass, SearchX } from "lucide-react";
import type { Citation } from "../api/types";
import { isCovered, splitSources } from "../lib/citations";
import { SourcesList } from "./SourcesList";

function Disclosure({ open, onToggle, children, testId }: {
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
  testId: string;
}) {
  return (
    <button
      type="button"
      aria-expanded={open}
      onClick={onToggle}
      data-testid={testId}
      className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium text-ink-muted hover:bg-surface-2 hover:text-ink"
    >
      <ChevronDown size={13} className={open ? "rotate-180" : undefined} />
      {children}
    </button>
  );
}

export function SourceGroups({ citations, cited, loading, reading, onOpen }: {
  citations: Citation[];
  /** Numbers the answer cites, in order of use. */
  cited: number[];
  loading?: boolean;
  /** Said instead of "not covered" while documents in the question's scope are still being read. */
  reading?: string | null;
  onOpen: (citation: Citation) => void;
}) {
  const [showClosest, setShowClosest] = useState(false);
  const [showRest, setShowRest] = useState(false);
  if (!citations.length && !reading) return loading ? <SourcesList citations={[]} cited={[]} loading onOpen={onOpen} /> : null;

  if (reading || !isCovered(citations)) {
    return (
      <section aria-label={reading ? "Documents still being read" : "Not covered by your documents"}
        data-testid={reading ? "still-reading" : "not-covered"} className="space-y-2">
        <p className="flex items-center gap-1.5 text-[13px] text-ink-muted">
          {reading ? <Hourglass size={14} className="shrink-0" /> : <SearchX size={14} className="shrink-0" />}
          {reading ?? "Your documents don’t seem to cover this: nothing found was relevant enough to answer from."}
        </p>
        {citations.length > 0 && (
          <Disclosure open={showClosest} onToggle={() => setShowClosest((value) => !value)} testId="show-closest">
            {showClosest ? "Hide the closest passages" : "Show closest passages anyway"}
          </Disclosure>
        )}
        {showClosest && <SourcesList label="Closest passages" citations={citations} cited={[]} onOpen={onOpen} />}
      </section>
    );
  }

  const groups = splitSources(citations, cited);
  const count = groups.rest.length;
  return (
    <div className="space-y-1.5">
      {groups.cited.length > 0 && <SourcesList citations={groups.cited} cited={cited} onOpen={onOpen} />}
      {count > 0 && (
        <section aria-label="Also searched" data-testid="also-searched" className="space-y-1.5">
          <Disclosure open={showRest} onToggle={() => setShowRest((value) => !value)} testId="also-searched-toggle">
            Also searched · {count} {count === 1 ? "passage" : "passages"}
          </Disclosure>
          {showRest && <SourcesList label="Also searched" citations={groups.rest} cited={[]} onOpen={onOpen} />}
        </section>
      )}
    </div>
  );
}
