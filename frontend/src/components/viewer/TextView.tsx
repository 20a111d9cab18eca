/**
 * A text document (DOCX, Markdown, HTML, TXT) as extracted: its blocks in order, a heading wherever the
 * section changes, the cited block marked and scrolled into view. HTML is shown as this extracted text,
 * never as the page, so nothing from the original runs or loads. A Word document's picture text ("Text in
 * picture:" paragraphs) is set apart where it stands, as on a slide.
 */
import { useEffect, useRef } from "react";
import { Button } from "@/components/Button";
import { SkeletonRows } from "@/components/Skeleton";
import { cn } from "@/lib/cn";
import type { ViewerBlock } from "@/api/viewer";
import { readableMarkdown, withoutOverlap } from "@/lib/highlight";
import { pictureParts } from "@/lib/slide";
import { Highlighted } from "./Highlighted";
import { revealPassage } from "./revealPassage";
import { PictureText } from "./PictureText";
import { SheetTable } from "./SheetView";
import { useBlockWindow } from "./useBlockWindow";

export function TextView({ documentId, block, terms, markdown, pictures }: {
  documentId: string;
  block: string | null;
  terms: readonly string[];
  /** The text is Markdown source (Markdown and HTML documents): shown without its escapes and tags. */
  markdown: boolean;
  /** The text holds paragraphs read from pictures (Word documents). */
  pictures: boolean;
}) {
  const { blocks, showEarlier, showLater } = useBlockWindow(documentId, block, 40);
  if (blocks.isPending) return <SkeletonRows rows={8} />;
  if (!blocks.data) return null;
  const data = blocks.data;
  const tidy = markdown ? readableMarkdown : (text: string) => text;
  return (
    <div className="mx-auto w-full max-w-[760px]" data-testid="text-view">
      {data.notice && <p className="mb-3 rounded-lg bg-warn-soft p-3 text-[13px] text-ink">{data.notice}</p>}
      {data.has_before && (
        <Button size="sm" variant="ghost" className="mb-2" onClick={showEarlier}>Show earlier text</Button>
      )}
      <div className="rounded-xl border border-line bg-surface px-6 py-5 shadow-card">
        {data.blocks.map((b, index) => {
          const previous = data.blocks[index - 1];
          const sameSection = previous !== undefined && previous.section === b.section;
          return (
            <TextBlock key={b.id} block={b} cited={b.id === data.target} terms={b.id === data.target ? terms : []}
              pictures={pictures}
              text={tidy(displayText(b, sameSection ? previous.text : undefined))}
              heading={b.section && !sameSection ? tidy(b.section) : null} />
          );
        })}
        {data.blocks.length === 0 && <p className="text-sm text-ink-muted">No text was extracted from this document.</p>}
      </div>
      {data.has_after && (
        <Button size="sm" variant="ghost" className="mt-2" onClick={showLater}>Show later text</Button>
      )}
    </div>
  );
}

/** The block's text as shown: without the overlap it repeats from the block before, and without a
 * first line (a Markdown heading or a DOCX heading paragraph) that repeats the section's own title. */
function displayText(block: ViewerBlock, previous: string | undefined): string {
  const text = withoutOverlap(previous, block.text);
  const title = block.section?.split(" > ").pop();
  const [first, ...rest] = text.split("\n");
  if (title && first !== undefined && first.replace(/^#{1,6}\s+/, "").trim() === title.trim()) {
    return rest.join("\n").replace(/^\s+/, "");
  }
  return text;
}

function TextBlock({ block, text, cited, terms, heading, pictures }: {
  block: ViewerBlock;
  text: string;
  cited: boolean;
  terms: readonly string[];
  heading: string | null;
  pictures: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (cited) revealPassage(ref.current);
  }, [cited]);
  const path = heading?.split(" > ") ?? [];
  return (
    <>
      {heading && (
        <header className="mt-6 mb-2 first:mt-0">
          {path.length > 1 && <p className="text-xs text-ink-muted">{path.slice(0, -1).join(" › ")}</p>}
          <h2 className="text-base font-semibold text-ink">{path[path.length - 1]}</h2>
        </header>
      )}
      <div
        ref={ref}
        data-testid={cited ? "cited-block" : undefined}
        data-block-id={block.id}
        className={cn(
          "-mx-3 my-1 scroll-mt-4 rounded-lg px-3 py-2 text-[15px] leading-relaxed text-ink",
          cited && "bg-accent-soft/70 ring-2 ring-accent",
        )}
      >
        {block.table ? (
          <SheetTable header={block.table.header} rows={block.table.rows} marked={cited} terms={terms} />
        ) : (
          <div className="space-y-3">
            {(pictures ? pictureParts(text) : [{ kind: "text" as const, text }]).map((part, index) =>
              part.kind === "picture" ? <PictureText key={index} text={part.text} terms={terms} /> : (
                <p key={index} className="whitespace-pre-wrap">
                  {terms.length ? <Highlighted text={part.text} terms={terms} /> : part.text}
                </p>
              ))}
          </div>
        )}
      </div>
    </>
  );
}
