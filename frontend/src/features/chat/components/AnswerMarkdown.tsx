/** The answer's Markdown with `[n]` markers as small buttons that open the cited source. */
import { useMemo } from "react";
import type { Components } from "react-markdown";
import { Markdown } from "@/components/Markdown";
import { formatLocation } from "@/lib/location";
import type { Citation } from "../api/types";
import { citationFromHref, linkCitations } from "../lib/citations";

export function citationLabel(citation: Citation): string {
  const where = formatLocation(citation, "long");
  return where ? `${citation.filename}, ${where}` : citation.filename;
}

export function AnswerMarkdown({ text, citations, onCite, streaming }: {
  text: string;
  citations: Citation[];
  onCite: (citation: Citation) => void;
  streaming?: boolean;
}) {
  const byNumber = useMemo(() => new Map(citations.map((c) => [c.n, c])), [citations]);
  const linked = useMemo(() => linkCitations(text, new Set(byNumber.keys())), [text, byNumber]);
  const components = useMemo<Components>(() => ({
    a: ({ href, children }) => {
      const n = citationFromHref(href);
      const citation = n === null ? undefined : byNumber.get(n);
      if (!citation) {
        return <a href={href} target="_blank" rel="noopener noreferrer">{children}</a>;
      }
      return (
        <button
          type="button"
          data-citation={citation.n}
          onClick={() => onCite(citation)}
          title={citationLabel(citation)}
          aria-label={`Source ${citation.n}: ${citationLabel(citation)}`}
          className="mx-px inline-flex h-[1.15rem] min-w-[1.15rem] -translate-y-px items-center justify-center rounded-md bg-accent-soft px-1 align-middle text-[11px] font-semibold text-accent-soft-ink no-underline transition-colors hover:bg-accent hover:text-accent-ink"
        >
          {citation.n}
        </button>
      );
    },
  }), [byNumber, onCite]);

  return (
    <div className={streaming ? "streaming-caret" : undefined}>
      <Markdown components={components}>{linked}</Markdown>
    </div>
  );
}
