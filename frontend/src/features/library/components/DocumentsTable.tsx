/**
 * The library's documents: name (opens the original), type, category (editable), length (pages,
 * slides or sheets), passages, embedded share, status (live while ingesting; a failed one says why and
 * offers Retry; a ready one lists its warnings), date added, and a menu with Versions and Move to trash.
 */
import { useId, useMemo, useState, type ReactNode } from "react";
import { ArrowDown, ArrowUp, RotateCw } from "lucide-react";
import type { DocumentOut } from "@/api/types";
import { documentFileUrl } from "@/api/vault";
import { Badge } from "@/components/Badge";
import { PageWarningList } from "@/components/PageWarningList";
import { Button } from "@/components/Button";
import { Progress } from "@/components/Progress";
import { Link } from "react-router";
import { fileTypeLabel, formatDateTime, formatPercent, formatRelative, plural } from "@/lib/format";
import { formatLength, languageName } from "@/lib/location";
import { retryDocument } from "../api/documents";
import { ingestStore } from "../hooks/ingestStore";
import { CategoryCell } from "./CategoryCell";
import { DocumentMenu } from "./DocumentMenu";
import type { IngestItem, LibraryDocument } from "../api/types";
import { isActive, overallFraction, progressLabel, stageName, statusTone } from "../lib/progress";
import { DEFAULT_SORT, nextSort, sortDocuments, type Sort, type SortKey } from "../lib/sort";

const STATUS_WORD: Record<string, string> = { queued: "Queued", ingesting: "Processing", ready: "Ready", failed: "Failed" };

/** Re-runs a failed document's ingestion from its stored original; progress shows like an upload's. */
function RetryButton({ doc }: { doc: DocumentOut }) {
  const [sending, setSending] = useState(false);
  // The run (or the server's refusal) shows in the activity above, like an upload's.
  const retry = () => {
    setSending(true);
    void ingestStore.submit(`Retry ${doc.filename}`, () => retryDocument(doc.id)).finally(() => setSending(false));
  };
  return (
    <Button size="sm" variant="secondary" className="mt-1 h-7" icon={<RotateCw size={13} />} loading={sending} onClick={retry}
      aria-label={`Retry ${doc.filename}`}>
      Retry
    </Button>
  );
}

function StatusCell({ doc, live }: { doc: DocumentOut; live?: IngestItem }) {
  if (live && isActive(live.status)) {
    // The stage and a bar; the details ("batch 4 of 12") are in the tooltip and the activity above.
    return (
      <div className="w-28 space-y-1.5" title={progressLabel(live)}>
        <Badge tone="accent" dot pulse>{stageName(live.status)}</Badge>
        <Progress label={`${doc.filename} progress`} value={live.status === "queued" ? undefined : overallFraction(live)} />
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-0.5">
      <Badge tone={statusTone(doc.status)} dot={doc.status !== "ready"}>{STATUS_WORD[doc.status] ?? doc.status}</Badge>
      {doc.status === "failed" && doc.error && <span className="line-clamp-2 max-w-56 text-xs text-danger" title={doc.error}>{doc.error}</span>}
      {doc.status === "failed" && <RetryButton doc={doc} />}
      {/* What the reading or the last run left to say (a damaged PDF's skipped pages, a cancelled new version):
          said where the document is listed, not only in the upload's activity, which is dismissed. */}
      {doc.status === "ready" && doc.warnings.map((warning) => (
        <span key={warning} data-testid="document-warning" className="line-clamp-2 max-w-56 text-xs text-warn" title={warning}>{warning}</span>
      ))}
      {doc.status === "ready" && <PageWarningList documentId={doc.id} warnings={doc.page_warnings} max={2} />}
    </div>
  );
}

function EmbeddedCell({ doc }: { doc: DocumentOut }) {
  if (!doc.blocks) return <span className="text-ink-faint">—</span>;
  const complete = doc.embedded_fraction >= 1;
  return (
    <span
      className={complete ? "text-ink-muted" : "text-warn"}
      title={complete ? "Every passage has an embedding" : "Passages without an embedding are still found by keyword search"}
    >
      {formatPercent(doc.embedded_fraction)}
    </span>
  );
}

function SortHeader({ column, sort, onSort, className, children }: {
  column: SortKey;
  sort: Sort;
  onSort: (sort: Sort) => void;
  className?: string;
  children: ReactNode;
}) {
  const active = sort.key === column;
  const Arrow = sort.direction === "asc" ? ArrowUp : ArrowDown;
  return (
    <th scope="col" aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
      className={`px-3 py-2 font-medium ${className ?? ""}`}>
      <button type="button" onClick={() => onSort(nextSort(sort, column))}
        className={`inline-flex items-center gap-1 rounded hover:text-ink ${active ? "text-ink-muted" : ""}`}>
        {children}
        {active && <Arrow size={12} />}
      </button>
    </th>
  );
}

export function DocumentsTable({ documents, live, categoryListId }: {
  documents: LibraryDocument[];
  live: Map<string, IngestItem>;
  categoryListId: string;
}) {
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const sorted = useMemo(() => sortDocuments(documents, sort), [documents, sort]);
  const captionId = useId();

  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-sm" aria-describedby={captionId}>
        <caption id={captionId} className="sr-only">Documents in your library</caption>
        <thead>
          <tr className="border-b border-line text-left text-xs font-medium text-ink-faint">
            <SortHeader column="name" sort={sort} onSort={setSort} className="pl-4">Name</SortHeader>
            <th scope="col" className="hidden px-3 py-2 font-medium lg:table-cell">Type</th>
            <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">Category</th>
            <SortHeader column="pages" sort={sort} onSort={setSort} className="hidden text-right lg:table-cell">Length</SortHeader>
            <SortHeader column="blocks" sort={sort} onSort={setSort} className="hidden text-right md:table-cell">Passages</SortHeader>
            <th scope="col" className="hidden px-3 py-2 text-right font-medium xl:table-cell">Embedded</th>
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <SortHeader column="added" sort={sort} onSort={setSort} className="hidden md:table-cell">Added</SortHeader>
            <th scope="col" className="py-2 pr-4 pl-2"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((doc) => (
            <tr key={doc.id} data-testid="document-row" data-status={doc.status} data-filename={doc.filename} className="group border-b border-line last:border-0 hover:bg-surface-2/60">
              <td className="py-2.5 pr-3 pl-4">
                <a
                  href={documentFileUrl(doc.id)}
                  target="_blank"
                  rel="noopener"
                  className="line-clamp-2 font-medium break-words text-ink hover:text-accent hover:underline sm:line-clamp-1 sm:max-w-[22rem] sm:break-all"
                  title={`Open ${doc.filename}`}
                >
                  {doc.filename}
                </a>
                {doc.source_kind === "note" && (
                  <Link to={`/notes/${doc.id}`} className="mt-0.5 inline-flex items-center gap-1 rounded bg-accent-soft px-1.5 text-[11px] font-medium text-accent-soft-ink hover:underline" data-testid="note-badge">
                    Note · edit
                  </Link>
                )}
                {doc.source_url && <span className="block max-w-[22rem] truncate text-xs text-ink-faint">{doc.source_url}</span>}
                <span className="mt-0.5 block text-xs text-ink-faint sm:hidden">
                  {[fileTypeLabel(doc.filename, doc.kind), doc.blocks ? plural(doc.blocks, "passage") : null].filter(Boolean).join(" · ")}
                </span>
                {/* On a phone the category column is hidden; the category is edited here instead. */}
                <div className="-ml-1.5 max-w-48 sm:hidden">
                  <CategoryCell documentId={doc.id} filename={doc.filename} category={doc.category} listId={categoryListId} empty="Add a category…" />
                </div>
              </td>
              <td className="hidden px-3 py-2.5 lg:table-cell">
                <span className="rounded bg-surface-2 px-1.5 py-0.5 font-mono text-[11px] text-ink-muted" title={doc.read_as ?? undefined}>
                  {fileTypeLabel(doc.filename, doc.kind)}
                </span>
              </td>
              <td className="hidden max-w-40 px-2 py-2.5 sm:table-cell">
                <CategoryCell documentId={doc.id} filename={doc.filename} category={doc.category} listId={categoryListId} />
              </td>
              <td className="hidden px-3 py-2.5 text-right whitespace-nowrap text-ink-muted tabular-nums lg:table-cell">
                {formatLength(doc.kind, doc.pages)}{doc.language && ` · ${languageName(doc.language)}`}
              </td>
              <td className="hidden px-3 py-2.5 text-right text-ink-muted tabular-nums md:table-cell">{doc.blocks ? doc.blocks.toLocaleString("en") : "—"}</td>
              <td className="hidden px-3 py-2.5 text-right tabular-nums xl:table-cell"><EmbeddedCell doc={doc} /></td>
              <td className="px-3 py-2.5"><StatusCell doc={doc} live={live.get(doc.id)} /></td>
              <td className="hidden px-3 py-2.5 whitespace-nowrap text-ink-muted md:table-cell" title={formatDateTime(doc.created_at)}>
                {formatRelative(doc.created_at)}
              </td>
              <td className="py-2.5 pr-3 pl-2">
                <div className="flex justify-end gap-0.5">
                  <DocumentMenu doc={doc} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
