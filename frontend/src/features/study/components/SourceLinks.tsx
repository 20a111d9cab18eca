/**
 * "From: lecture-3.pdf, p. 12" — the documents a generated item came from, each a link that opens the
 * original (a PDF at the cited page). Long lists show the first few and a "more" toggle.
 */
import { useState } from "react";
import { FileText } from "lucide-react";
import { documentFileUrl } from "@/api/vault";
import { cn } from "@/lib/cn";
import type { Source } from "../api/types";
import { groupSources, sourceGroupLabel } from "../lib/sources";

export function SourceLinks({ sources, max = 3, className, label = "From" }: {
  sources: readonly Source[];
  max?: number;
  className?: string;
  label?: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const groups = groupSources(sources);
  if (!groups.length) return null;
  const shown = expanded ? groups : groups.slice(0, max);
  const hidden = groups.length - shown.length;
  return (
    <div className={cn("flex flex-wrap items-center gap-1.5 text-xs text-ink-muted", className)} data-testid="item-sources">
      <span className="text-ink-faint">{label}</span>
      {shown.map((group) => (
        <a
          key={group.document_id}
          href={documentFileUrl(group.document_id, group.pages[0])}
          target="_blank"
          rel="noopener"
          title={`Open ${sourceGroupLabel(group)}`}
          aria-label={`Source: ${sourceGroupLabel(group)}`}
          className="inline-flex max-w-full min-w-0 items-center gap-1 rounded-md border border-line bg-surface px-1.5 py-0.5 transition-colors hover:border-accent/50 hover:text-ink"
        >
          <FileText size={12} className="shrink-0 text-ink-faint" />
          <span className="max-w-48 truncate">{group.filename}</span>
          {group.pages.length > 0 && (
            <span className="shrink-0 text-ink-faint">{group.pages.length === 1 ? "p." : "pp."} {group.pages.join(", ")}</span>
          )}
        </a>
      ))}
      {hidden > 0 && (
        <button type="button" onClick={() => setExpanded(true)} className="rounded-md px-1 py-0.5 font-medium text-ink-muted hover:bg-surface-2 hover:text-ink">
          +{hidden} more
        </button>
      )}
    </div>
  );
}
