/** Text with the words of a search marked: text nodes and <mark> elements only, never HTML. */
import { memo } from "react";
import { highlightSegments } from "@/lib/highlight";

export const Highlighted = memo(function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <>
      {highlightSegments(text, terms).map((segment, index) =>
        segment.match ? (
          <mark key={index} data-testid="term-mark" className="rounded-[3px] bg-warn-soft px-0.5 text-ink ring-1 ring-warn/40">
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
});
