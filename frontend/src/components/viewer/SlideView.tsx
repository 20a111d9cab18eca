/** One slide at a time, "Slide N of M": its title, text, tables, text in its pictures and speaker notes as extracted. */
import { useEffect, useRef, useState } from "react";
import { StickyNote } from "lucide-react";
import { SkeletonRows } from "@/components/Skeleton";
import { cn } from "@/lib/cn";
import { useBlocks } from "@/api/viewer";
import { withoutOverlap } from "@/lib/highlight";
import { slideParts } from "@/lib/slide";
import { PageNav } from "./PageNav";
import { Highlighted } from "./Highlighted";
import { revealPassage } from "./revealPassage";
import { PictureText } from "./PictureText";

export function SlideView({ documentId, slides, initialSlide, block, terms }: {
  documentId: string;
  slides: number | null;
  initialSlide: number;
  block: string | null;
  terms: readonly string[];
}) {
  const [slide, setSlide] = useState(initialSlide);
  const blocks = useBlocks(documentId, { page: slide });
  const title = blocks.data?.blocks.find((b) => b.section)?.section;
  return (
    <div className="flex flex-col gap-3" data-testid="slide-view" data-slide={slide}>
      <div className="sticky top-0 z-10 flex items-center justify-between gap-2 rounded-lg border border-line bg-surface px-2 py-1 shadow-sm">
        <PageNav unit="Slide" page={slide} count={slides} onPage={setSlide} />
      </div>
      <article
        aria-label={`Slide ${slide}${slides ? ` of ${slides}` : ""}`}
        className="mx-auto w-full max-w-[900px] rounded-xl border border-line bg-surface p-6 shadow-card"
      >
        <p className="mb-1 text-xs font-medium tracking-wide text-ink-muted uppercase">
          Slide {slide}{slides ? ` of ${slides}` : ""}
        </p>
        {blocks.isPending ? (
          <SkeletonRows rows={4} />
        ) : blocks.data?.blocks.length ? (
          <>
            {title && <h2 className="mb-4 text-xl font-semibold text-ink">{title}</h2>}
            <div className="space-y-3">
              {blocks.data.blocks.map((b, index) => (
                <SlideBlock key={b.id} cited={b.id === block} terms={b.id === block ? terms : []} title={title ?? null}
                  text={withoutOverlap(blocks.data.blocks[index - 1]?.text, b.text)} />
              ))}
            </div>
          </>
        ) : (
          <p className="text-sm text-ink-muted">This slide has no text.</p>
        )}
      </article>
    </div>
  );
}

function SlideBlock({ text, cited, terms, title }: {
  text: string;
  cited: boolean;
  terms: readonly string[];
  title: string | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (cited) revealPassage(ref.current);
  }, [cited]);
  // The title was printed as the heading; the block repeats it as its first paragraph.
  const parts = slideParts(text).filter((part, index) => !(index === 0 && part.kind === "text" && part.text === title));
  return (
    <div
      ref={ref}
      data-testid={cited ? "cited-block" : undefined}
      className={cn("scroll-mt-16 space-y-3 rounded-lg text-[15px] leading-relaxed text-ink", cited && "bg-accent-soft/60 p-3 ring-2 ring-accent")}
    >
      {parts.map((part, index) => {
        if (part.kind === "table") {
          return (
            <table key={index} className="w-full border-collapse text-[13px]">
              <tbody>
                {part.rows.map((row, r) => (
                  <tr key={r} className="border-b border-line last:border-0">
                    {row.map((cell, c) => (
                      <td key={c} className="px-2 py-1 align-top"><Highlighted text={cell} terms={terms} /></td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          );
        }
        if (part.kind === "picture") return <PictureText key={index} text={part.text} terms={terms} />;
        if (part.kind === "notes") {
          return (
            <aside key={index} className="rounded-lg border border-line bg-surface-2 p-3 text-[13px] text-ink-muted">
              <p className="mb-1 flex items-center gap-1.5 font-medium text-ink"><StickyNote size={14} /> Speaker notes</p>
              <p className="whitespace-pre-wrap"><Highlighted text={part.text} terms={terms} /></p>
            </aside>
          );
        }
        return <p key={index} className="whitespace-pre-wrap"><Highlighted text={part.text} terms={terms} /></p>;
      })}
    </div>
  );
}
