/**
 * The source viewer: a document opened at a cited place — a PDF page with the passage boxed (a picture
 * likewise, with the passage as recognised beside it), a slide,
 * a text document scrolled to the passage, a sheet with the cited rows marked, or a recording playing from
 * the cited moment — whichever viewer its format names (lib/formats.ts).
 */
import { FileWarning } from "lucide-react";
import { EmptyState } from "@/components/EmptyState";
import { SkeletonRows } from "@/components/Skeleton";
import { errorMessage } from "@/lib/api";
import { useOutline } from "@/api/viewer";
import { formatInfo } from "@/lib/formats";
import { PdfView } from "./PdfView";
import { RecordingView } from "./RecordingView";
import { SheetView } from "./SheetView";
import { SlideView } from "./SlideView";
import { TextView } from "./TextView";

export interface ViewerTarget {
  documentId: string;
  /** The cited block (a chat citation or a search hit). */
  block?: string | null;
  /** Its page or slide, when the format has them. */
  page?: number | null;
  /** Words to mark (a search query). */
  terms?: readonly string[];
}

export function DocumentViewer({ target }: { target: ViewerTarget }) {
  const outline = useOutline(target.documentId);
  const terms = target.terms ?? [];
  const block = target.block ?? null;
  if (outline.isPending) return <SkeletonRows rows={8} label="Opening the document" />;
  if (outline.isError) {
    return (
      <EmptyState icon={<FileWarning size={20} />} title="This document can't be shown">
        {errorMessage(outline.error)}
      </EmptyState>
    );
  }
  const { kind, pages, page_warnings: pageWarnings } = outline.data;
  switch (formatInfo(kind).viewer) {
    case "pdf":
      return (
        <PdfView documentId={target.documentId} pages={pages} initialPage={target.page ?? 1} block={block} terms={terms}
          picture={kind === "image"} pageWarnings={pageWarnings} />
      );
    case "slides":
      return <SlideView documentId={target.documentId} slides={pages} initialSlide={target.page ?? 1} block={block} terms={terms} />;
    case "sheet":
      return <SheetView documentId={target.documentId} block={block} terms={terms} />;
    case "recording":
      return <RecordingView documentId={target.documentId} block={block} terms={terms} language={outline.data.language ?? null} />;
    default:
      return (
        <TextView documentId={target.documentId} block={block} terms={terms} markdown={kind === "md" || kind === "html"}
          pictures={kind === "docx"} />
      );
  }
}
