/**
 * A cited source beside the conversation: where it comes from, the passage itself, and the document
 * opened at that place in the viewer (PDF page with the passage boxed, slide, text or sheet rows).
 * "Open in viewer" shows it full width; the original stays one click away.
 */
import { useEffect, useRef, useState } from "react";
import { ChevronDown, Download, ExternalLink, FileText, Layers, Maximize2, X } from "lucide-react";
import { Link } from "react-router";
import { documentFileUrl } from "@/api/vault";
import { Button, buttonClassName, IconButton } from "@/components/Button";
import { MakeCardDialog } from "@/components/MakeCardDialog";
import { Markdown } from "@/components/Markdown";
import { cn } from "@/lib/cn";
import { DocumentViewer } from "@/components/viewer/DocumentViewer";
import { kindFromName } from "@/lib/files";
import { formatLocation, timeSpan } from "@/lib/location";
import { viewerHref } from "@/lib/viewerLinks";
import type { Citation } from "../api/types";

/** "Page iv (page 6) · Intro > Setup", "Slide 4", 'Sheet "Budget"': where the passage sits, in words. */
function locationLine(citation: Citation): string {
  const where = formatLocation(citation, "long");
  const section = citation.section && !/^\s*Sheet:/.test(citation.section) && !timeSpan(citation.section) ? citation.section : null;
  const line = [where, section].filter(Boolean).join(" · ");
  return line.charAt(0).toUpperCase() + line.slice(1);
}

export function SourceViewer({ citation, onClose }: { citation: Citation | null; onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const [passageOpen, setPassageOpen] = useState(true);
  const [making, setMaking] = useState(false);

  useEffect(() => {
    if (!citation) return;
    const previous = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [citation, onClose]);

  if (!citation) return null;
  // The kind the server read the file as (its name may say otherwise); older transcripts lack it.
  const kind = citation.kind ?? kindFromName(citation.filename);
  const isPdf = kind === "pdf";
  const isMarkdown = kind === "md";
  const fileUrl = documentFileUrl(citation.document_id, isPdf ? citation.page : null);
  const passage = citation.text?.trim() || citation.snippet;

  return (
    <>
      <div className="fixed inset-0 z-30 bg-black/30 2xl:hidden" onClick={onClose} aria-hidden="true" />
      <aside
        role="complementary"
        aria-label={`Source ${citation.n}`}
        data-testid="source-viewer"
        className="fixed inset-y-0 right-0 z-40 flex w-full max-w-2xl flex-col border-l border-line bg-surface shadow-card 2xl:static 2xl:z-auto 2xl:w-[40rem] 2xl:max-w-none 2xl:shadow-none"
      >
        <header className="flex h-13 shrink-0 items-center gap-2 border-b border-line px-4">
          <span className="flex size-6 items-center justify-center rounded-md bg-accent-soft text-xs font-semibold text-accent-soft-ink">
            {citation.n}
          </span>
          <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">Source {citation.n}</h2>
          <Link to={viewerHref(citation.document_id, { block: citation.block_id, page: citation.page })}
            className={buttonClassName("ghost", "sm")} data-testid="open-in-viewer">
            <Maximize2 size={14} /> Open in viewer
          </Link>
          <Button size="sm" variant="ghost" icon={<Layers size={14} />} onClick={() => setMaking(true)} data-testid="make-card-from-citation">
            Make card
          </Button>
          <IconButton ref={closeButton} label="Close source" size="sm" onClick={onClose}>
            <X size={16} />
          </IconButton>
        </header>
        <div className="min-h-0 flex-1 space-y-4 overflow-y-auto p-4">
          <div className="flex items-start gap-3">
            <div className="min-w-0 flex-1">
              <p className="flex items-start gap-2 text-sm font-medium text-ink">
                <FileText size={15} className="mt-0.5 shrink-0 text-ink-muted" />
                <span className="break-all">{citation.filename}</span>
              </p>
              <p className="mt-1 pl-[23px] text-[13px] text-ink-muted">
                {locationLine(citation) || "No page information"}
              </p>
            </div>
            <a href={fileUrl} target="_blank" rel="noopener" data-testid="open-original" className={buttonClassName("secondary", "sm")}>
              {isPdf ? <ExternalLink size={14} /> : <Download size={14} />}
              {isPdf ? "Open PDF" : "Download original"}
            </a>
          </div>
          <section className="rounded-xl border border-line bg-canvas">
            <button
              type="button"
              className="flex w-full items-center gap-2 px-3.5 py-2 text-left text-[13px] font-medium text-ink-muted"
              aria-expanded={passageOpen}
              onClick={() => setPassageOpen((open) => !open)}
            >
              <ChevronDown size={14} className={cn("transition-transform", !passageOpen && "-rotate-90")} /> Cited passage
            </button>
            {passageOpen && (
              // A Markdown document's passage is Markdown source: show it as the document reads.
              <blockquote className={cn("border-t border-line px-3.5 py-3 text-[13px] leading-relaxed text-ink", !isMarkdown && "whitespace-pre-wrap")}
                data-testid="source-passage">
                {isMarkdown ? <Markdown>{passage}</Markdown> : passage}
              </blockquote>
            )}
          </section>
          <section aria-label="In the document" data-testid="source-in-document">
            <DocumentViewer target={{ documentId: citation.document_id, block: citation.block_id, page: citation.page }} />
          </section>
        </div>
      </aside>
      {making && (
        <MakeCardDialog key={citation.block_id} open onClose={() => setMaking(false)} blockId={citation.block_id}
          where={`${citation.filename}${formatLocation(citation) ? `, ${formatLocation(citation)}` : ""}`} />
      )}
    </>
  );
}
