/**
 * A PDF page as the server renders it (PNG), with the cited passage's lines boxed over it, and page
 * navigation; a picture uploaded on its own is shown the same way, a page per frame. A scanned page or
 * a picture has no text layer: its passage is boxed from the word boxes OCR kept. Only when no box can be
 * found for the passage is the text recognised on the page shown under it. A page the server refuses to draw (too complex
 * for the viewer's limits, or unreadable) shows the server's reason in its place.
 */
import { useEffect, useRef, useState, type RefObject } from "react";
import { Spinner } from "@/components/Spinner";
import { pageImageUrl, useBlocks, useHighlights } from "@/api/viewer";
import { apiFetch, errorMessage } from "@/lib/api";
import { PageNav } from "./PageNav";
import { Highlighted } from "./Highlighted";
import { PageWarningList, type PageWarning } from "@/components/PageWarningList";

const RENDER_SCALE = 2; // sharp on high-density screens; the server bounds the pixel count anyway

export function PdfView({ documentId, pages, initialPage, block, terms, picture = false, pageWarnings = [] }: {
  documentId: string;
  pages: number | null;
  initialPage: number;
  block: string | null;
  terms: readonly string[];
  /** A picture (photo, scan) rather than a PDF: it never has a text layer, and is worded as such. */
  picture?: boolean;
  /** Pages that could not be read reliably: listed above the page, and said on the page itself. */
  pageWarnings?: readonly PageWarning[];
}) {
  const [page, setPage] = useState(initialPage);
  const [loaded, setLoaded] = useState<string | null>(null);
  const [failed, setFailed] = useState<{ src: string; message: string } | null>(null);
  const onCitedPage = page === initialPage && block !== null;
  const highlights = useHighlights(documentId, page, onCitedPage ? { block: block! } : null);
  // The searched words, boxed more strongly (on any page), and the view scrolls to the first of them.
  // Each word wherever it stands on the page (not the words as one passage in order, which missed some).
  const words = useHighlights(documentId, page, terms.length ? { words: terms } : null);
  const wordRects = words.data?.page === page ? words.data.rects : [];
  const pageBlocks = useBlocks(documentId, onCitedPage ? { page } : null);
  const firstBox = useRef<HTMLDivElement>(null);
  const src = pageImageUrl(documentId, page, RENDER_SCALE);
  const rects = highlights.data?.page === page ? highlights.data.rects : [];

  useEffect(() => {
    if (loaded === src && (rects.length || wordRects.length)) firstBox.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [loaded, src, rects.length, wordRects.length]);

  // An <img> learns only that it failed; the same request again (answered from the server's memory of
  // refused pages) says why.
  const onImageError = () => {
    apiFetch(src)
      .then(() => setFailed({ src, message: `Page ${page} could not be shown; download the original.` }))
      .catch((error: unknown) => setFailed({ src, message: errorMessage(error) }));
  };
  const failure = failed?.src === src ? failed.message : null;
  const cited = pageBlocks.data?.blocks.find((b) => b.id === block);
  const notLocated = onCitedPage && highlights.isSuccess && rects.length === 0;
  const unreadable = pageWarnings.find((warning) => warning.page === page);

  return (
    <div className="flex flex-col gap-3" data-testid="pdf-view" data-page={page}>
      <div className="sticky top-0 z-10 flex items-center justify-between gap-2 rounded-lg border border-line bg-surface px-2 py-1 shadow-sm">
        <PageNav unit="Page" page={page} count={pages} onPage={setPage} />
        {highlights.isFetching && <Spinner size={14} className="text-ink-faint" />}
      </div>
      {pageWarnings.length > 0 && (
        <div className="rounded-lg border border-line bg-warn-soft px-3 py-2">
          <PageWarningList documentId={documentId} warnings={pageWarnings} onOpen={setPage} />
        </div>
      )}
      {unreadable && (
        <p role="status" data-testid="unreadable-page" className="rounded-lg bg-surface-2 px-3 py-2 text-[13px] text-ink">
          This page could not be read reliably, so its text is left out of search and study material. The image below
          is the page itself.
        </p>
      )}
      <div className="relative mx-auto w-full max-w-[900px] overflow-hidden rounded-lg border border-line bg-white shadow-card">
        {loaded !== src && failure === null && (
          <div className="absolute inset-0 flex items-center justify-center text-ink-faint"><Spinner /></div>
        )}
        {failure !== null && (
          <p role="alert" data-testid="pdf-page-error" className="p-6 text-center text-[13px] text-ink-muted">{failure}</p>
        )}
        <img
          key={src}
          src={src}
          alt={`Page ${page}${pages ? ` of ${pages}` : ""}`}
          data-testid="pdf-page-image"
          className="block h-auto w-full"
          onLoad={() => setLoaded(src)}
          onError={onImageError}
          hidden={failure !== null}
        />
        {highlights.data && rects.map((rect, index) => (
          <Box key={`p${index}`} rect={rect} size={highlights.data!} testId="pdf-highlight"
            boxRef={index === 0 && !wordRects.length ? firstBox : undefined}
            className="bg-amber-300/35 ring-1 ring-amber-500/50" />
        ))}
        {words.data && wordRects.map((rect, index) => (
          <Box key={`w${index}`} rect={rect} size={words.data!} testId="pdf-word-highlight"
            boxRef={index === 0 ? firstBox : undefined} className="bg-orange-400/45 ring-2 ring-orange-600/70" />
        ))}
      </div>
      {notLocated && cited && (
        <div className="rounded-lg border border-line bg-surface-2 p-3 text-[13px]">
          <p className="mb-2 text-ink-muted">
            {picture
              ? "A picture has no text layer, so the passage is shown as recognised from it:"
              : "This page has no text layer (a scan), so the passage is shown as recognised from the image:"}
          </p>
          <p className="whitespace-pre-wrap text-ink" data-testid="cited-block">
            <Highlighted text={cited.text} terms={terms} />
          </p>
        </div>
      )}
    </div>
  );
}

function Box({ rect, size, testId, className, boxRef }: {
  rect: { x0: number; y0: number; x1: number; y1: number };
  size: { width: number; height: number };
  testId: string;
  className: string;
  boxRef?: RefObject<HTMLDivElement | null>;
}) {
  return (
    <div
      ref={boxRef}
      data-testid={testId}
      className={`pointer-events-none absolute rounded-[2px] mix-blend-multiply ${className}`}
      style={{
        left: `${(rect.x0 / size.width) * 100}%`,
        top: `${(rect.y0 / size.height) * 100}%`,
        width: `${((rect.x1 - rect.x0) / size.width) * 100}%`,
        height: `${((rect.y1 - rect.y0) / size.height) * 100}%`,
      }}
    />
  );
}
