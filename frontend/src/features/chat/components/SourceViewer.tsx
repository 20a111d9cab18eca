/**
 * A cited passage in full, beside the conversation: where it comes from (document, page, section), the
 * passage itself, and the original — a PDF opens at that page, in the pane or in a new tab.
 */
import { useEffect, useRef, useState } from "react";
import { Download, ExternalLink, FileText, X } from "lucide-react";
import { documentFileUrl } from "@/api/vault";
import { Button, buttonClassName, IconButton } from "@/components/Button";
import { Markdown } from "@/components/Markdown";
import { cn } from "@/lib/cn";
import { extensionOf } from "@/lib/files";
import { formatLocation } from "@/lib/location";
import type { Citation } from "../api/types";

/** "Slide 4 · Results": the location, then the section unless it only repeats the sheet's name. */
function locationLine(citation: Citation): string {
  const where = formatLocation(citation, "long");
  const section = citation.section && !/^\s*Sheet:/.test(citation.section) ? citation.section : null;
  const line = [where, section].filter(Boolean).join(" · ");
  return line.charAt(0).toUpperCase() + line.slice(1);
}

export function SourceViewer({ citation, onClose }: { citation: Citation | null; onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const [showPage, setShowPage] = useState(false);

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
  const extension = extensionOf(citation.filename);
  const isPdf = extension === "pdf";
  const isMarkdown = extension === "md" || extension === "markdown";
  const fileUrl = documentFileUrl(citation.document_id, isPdf ? citation.page : null);
  const passage = citation.text?.trim() || citation.snippet;

  return (
    <>
      <div className="fixed inset-0 z-30 bg-black/30 2xl:hidden" onClick={onClose} aria-hidden="true" />
      <aside
        role="complementary"
        aria-label={`Source ${citation.n}`}
        data-testid="source-viewer"
        className="fixed inset-y-0 right-0 z-40 flex w-full max-w-md flex-col border-l border-line bg-surface shadow-card 2xl:static 2xl:z-auto 2xl:w-[26rem] 2xl:max-w-none 2xl:shadow-none"
      >
        <header className="flex h-13 shrink-0 items-center gap-2 border-b border-line px-4">
          <span className="flex size-6 items-center justify-center rounded-md bg-accent-soft text-xs font-semibold text-accent-soft-ink">
            {citation.n}
          </span>
          <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">Source {citation.n}</h2>
          <IconButton ref={closeButton} label="Close source" size="sm" onClick={onClose}>
            <X size={16} />
          </IconButton>
        </header>
        <div className="min-h-0 flex-1 space-y-4 overflow-y-auto p-4">
          <div>
            <p className="flex items-start gap-2 text-sm font-medium text-ink">
              <FileText size={15} className="mt-0.5 shrink-0 text-ink-faint" />
              <span className="break-all">{citation.filename}</span>
            </p>
            <p className="mt-1 pl-[23px] text-[13px] text-ink-muted">
              {locationLine(citation) || "No page information"}
            </p>
          </div>
          {/* A Markdown document's passage is Markdown source: show it as the document reads. */}
          <blockquote className={cn("rounded-xl border border-line bg-canvas p-3.5 text-[13px] leading-relaxed text-ink", !isMarkdown && "whitespace-pre-wrap")}
            data-testid="source-passage">
            {isMarkdown ? <Markdown>{passage}</Markdown> : passage}
          </blockquote>
          <div className="flex flex-wrap gap-2">
            <a
              href={fileUrl}
              target="_blank"
              rel="noopener"
              data-testid="open-original"
              className={buttonClassName("primary")}
            >
              {isPdf ? <ExternalLink size={15} /> : <Download size={15} />}
              {isPdf ? `Open PDF${citation.page ? ` at page ${citation.page}` : ""}` : "Download original"}
            </a>
            {isPdf && (
              <Button onClick={() => setShowPage((value) => !value)} aria-expanded={showPage}>
                {showPage ? "Hide page" : "Show page here"}
              </Button>
            )}
          </div>
          {isPdf && showPage && (
            <iframe
              key={fileUrl}
              src={fileUrl}
              title={`${citation.filename}, page ${citation.page ?? 1}`}
              className="h-[32rem] w-full rounded-xl border border-line bg-white"
            />
          )}
        </div>
      </aside>
    </>
  );
}
