/**
 * `/library/documents/:documentId?block=…&page=…&q=…`: a document opened at a place, full width — from a
 * search result, the command palette or a chat citation's "Open in viewer". A cited passage can become a
 * flashcard ("Make a card from this passage"); a note opens in its editor.
 */
import { useState } from "react";
import { ArrowLeft, Download, FileText, Layers, MessageSquare, NotebookPen } from "lucide-react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { documentFileUrl, useDocuments } from "@/api/vault";
import { Button, buttonClassName, IconButton } from "@/components/Button";
import { MakeCardDialog } from "@/components/MakeCardDialog";
import { fileTypeLabel } from "@/lib/format";
import { useOutline } from "@/api/viewer";
import { queryTerms } from "@/lib/highlight";
import { askInChatHref } from "@/lib/viewerLinks";
import { DocumentViewer } from "@/components/viewer/DocumentViewer";

export function ViewerPage() {
  const { documentId = "" } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const outline = useOutline(documentId);
  const page = Number(params.get("page")) || null;
  const query = params.get("q") ?? "";
  const block = params.get("block");
  const filename = outline.data?.filename ?? "Document";
  const [making, setMaking] = useState(false);
  const isNote = useDocuments().data?.find((doc) => doc.id === documentId)?.source_kind === "note";
  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="flex shrink-0 flex-wrap items-center gap-3 border-b border-line bg-surface px-4 py-3 sm:px-6">
        <IconButton label="Back" size="sm" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate("/library"))}>
          <ArrowLeft size={16} />
        </IconButton>
        <div className="min-w-0 flex-1">
          <h1 className="flex items-center gap-2 truncate text-base font-semibold" data-testid="viewer-title">
            <FileText size={16} className="shrink-0 text-ink-muted" />
            <span className="truncate">{filename}</span>
          </h1>
          {outline.data && (
            <p className="text-xs text-ink-muted">
              {fileTypeLabel(outline.data.filename, outline.data.kind)}
              {query && <> · matches for “{query}” are marked</>}
            </p>
          )}
        </div>
        {query && (
          <Link to={askInChatHref(documentId, query)} className={buttonClassName("secondary", "sm")}>
            <MessageSquare size={14} /> Ask in chat
          </Link>
        )}
        {block && (
          <Button size="sm" icon={<Layers size={14} />} onClick={() => setMaking(true)}>Make a card from this passage</Button>
        )}
        {isNote && (
          <Link to={`/notes/${documentId}`} className={buttonClassName("secondary", "sm")}>
            <NotebookPen size={14} /> Edit note
          </Link>
        )}
        <a href={documentFileUrl(documentId)} target="_blank" rel="noopener" data-testid="open-original" className={buttonClassName("secondary", "sm")}>
          <Download size={14} /> Download original
        </a>
        <Link to="/library" className="sr-only">Library</Link>
      </header>
      {/* Focusable so the text can be scrolled from the keyboard (it may hold no link or button to tab to). */}
      <div role="region" aria-label={`Content of ${filename}`} tabIndex={0}
        className="min-h-0 flex-1 overflow-y-auto bg-canvas px-4 py-5 sm:px-6">
        <DocumentViewer key={`${documentId}-${block}-${page}`} target={{ documentId, block, page, terms: queryTerms(query) }} />
      </div>
      {block && making && (
        <MakeCardDialog key={block} open onClose={() => setMaking(false)} blockId={block}
          where={`${filename}${page ? `, p. ${page}` : ""}`} />
      )}
    </div>
  );
}
