/**
 * The Knowledge Base screen: add documents (asking about name conflicts), watch them being processed,
 * see what was not added, and manage the library — or its trash (`?view=trash`).
 */
import { useId, useMemo, useState } from "react";
import { BookOpen, Files, NotebookPen, Search, Trash2 } from "lucide-react";
import { Link, useLocation } from "react-router";
import { useCategories, useDocuments } from "@/api/vault";
import { Button } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { EmptyState } from "@/components/EmptyState";
import { Select, TextInput } from "@/components/Input";
import { Kbd } from "@/components/Kbd";
import { SkeletonRows } from "@/components/Skeleton";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { plural } from "@/lib/format";
import { useTrash } from "../api/trash";
import { liveItems } from "../hooks/ingestStore";
import { useIngest } from "../hooks/useIngest";
import { AddDocuments } from "./AddDocuments";
import { ConflictDialog } from "./ConflictDialog";
import { DocumentsTable } from "./DocumentsTable";
import { EmbeddingNote } from "./EmbeddingNote";
import { IngestActivity } from "./IngestActivity";
import { NotAdded } from "./NotAdded";
import { PassageResults } from "./PassageResults";
import { TrashView } from "./TrashView";

function ViewTabs({ trash, trashed }: { trash: boolean; trashed: number }) {
  const tab = (active: boolean) => cn(
    "inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-[13px] font-medium transition-colors",
    active ? "bg-surface text-ink shadow-sm" : "text-ink-muted hover:text-ink",
  );
  return (
    <nav aria-label="Library views" className="inline-flex gap-0.5 rounded-lg border border-line bg-canvas p-0.5">
      <Link to="/library" aria-current={trash ? undefined : "page"} className={tab(!trash)}>
        <Files size={14} /> Documents
      </Link>
      <Link to="/library?view=trash" aria-current={trash ? "page" : undefined} className={tab(trash)}>
        <Trash2 size={14} /> Trash
        {trashed > 0 && <span className="rounded-full bg-surface-2 px-1.5 text-[11px] text-ink-muted tabular-nums">{trashed}</span>}
      </Link>
    </nav>
  );
}

const UNCATEGORISED = "\u0000none";

export function LibraryPage() {
  const documents = useDocuments();
  const categories = useCategories();
  const trash = useTrash();
  const entries = useIngest(documents.data);
  const live = useMemo(() => liveItems(entries), [entries]);
  // `/library?q=…` opens the library filtered (the command palette's quick-open). The box itself is
  // local state: a controlled input fed from the URL drops keystrokes, as navigations run in transitions.
  const location = useLocation();
  const [query, setQuery] = useState(() => new URLSearchParams(location.search).get("q") ?? "");
  const [seenNavigation, setSeenNavigation] = useState(location.key);
  if (seenNavigation !== location.key) {
    setSeenNavigation(location.key);
    setQuery(new URLSearchParams(location.search).get("q") ?? "");
  }
  const [category, setCategory] = useState("");
  const categoryListId = useId();
  const showTrash = new URLSearchParams(location.search).get("view") === "trash";
  const trashed = (trash.data ?? []).filter((doc) => doc.status === "trashed").length;

  // Trashed documents live in the Trash view only (an older server may still list them).
  const all = useMemo(() => (documents.data ?? []).filter((doc) => doc.status !== "trashed"), [documents.data]);
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return all.filter((doc) => {
      if (needle && !doc.filename.toLowerCase().includes(needle)) return false;
      if (category === UNCATEGORISED) return !doc.category;
      return !category || doc.category === category;
    });
  }, [all, query, category]);
  const passages = all.reduce((sum, doc) => sum + doc.blocks, 0);
  const empty = documents.isSuccess && all.length === 0;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">Library</h1>
          <p className="mt-0.5 text-sm text-ink-muted">
            {documents.isSuccess && all.length > 0
              ? `${plural(all.length, "document")} · ${plural(passages, "passage")} — everything stays on this machine.`
              : "Your documents, read and indexed on this machine for chat and study."}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ButtonLink to="/notes/new" size="sm" icon={<NotebookPen size={15} />}>New note</ButtonLink>
          {(trashed > 0 || showTrash || all.length > 0) && <ViewTabs trash={showTrash} trashed={trashed} />}
        </div>
      </header>

      <ConflictDialog />
      {showTrash && <TrashView />}
      {!showTrash && (
        <>
          <AddDocuments prominent={empty} />
          <IngestActivity entries={entries} documents={all} />
          {/* With no upload card open (a reload, another tab's upload, a model switch), the library says it. */}
          {entries.length === 0 && <EmbeddingNote />}
          <NotAdded />

          {empty && entries.length === 0 && (
            <EmptyState icon={<BookOpen size={20} />} title="Your library is empty">
              Add lecture notes, papers, slides or spreadsheets. Quire reads each file, splits it into passages
              with page numbers, and makes them searchable — then chat answers cite them and the study hub
              builds quizzes and flashcards from them.
            </EmptyState>
          )}

          {!empty && (
            <section aria-labelledby="docs-title" className="rounded-2xl border border-line bg-surface shadow-card">
              <div className="flex flex-col gap-2 border-b border-line p-3 sm:flex-row sm:items-center sm:px-4">
                <h2 id="docs-title" className="sr-only">Documents</h2>
                <div className="relative min-w-0 flex-1">
                  <Search size={15} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-ink-faint" />
                  <TextInput
                    data-search-target
                    type="search"
                    value={query}
                    onChange={(event) => setQuery(event.target.value)}
                    placeholder="Search names and passages"
                    aria-label="Search documents and passages"
                    className="w-full pr-10 pl-9"
                  />
                  <span className="pointer-events-none absolute top-1/2 right-2.5 hidden -translate-y-1/2 sm:block"><Kbd>/</Kbd></span>
                </div>
                <Select value={category} onChange={(event) => setCategory(event.target.value)} aria-label="Filter by category" className="sm:w-52">
                  <option value="">All categories</option>
                  <option value={UNCATEGORISED}>No category</option>
                  {categories.data?.map((cat) => (
                    <option key={cat.name} value={cat.name}>{cat.name} ({cat.documents})</option>
                  ))}
                </Select>
              </div>
              <datalist id={categoryListId}>
                {categories.data?.map((cat) => <option key={cat.name} value={cat.name} />)}
              </datalist>
              {documents.isPending && <SkeletonRows rows={5} label="Loading documents" />}
              {documents.isError && (
                <div role="alert" className="flex items-center justify-between gap-3 p-4 text-sm text-danger">
                  <span>Couldn't load your documents: {errorMessage(documents.error)}</span>
                  <Button size="sm" onClick={() => void documents.refetch()}>Try again</Button>
                </div>
              )}
              {documents.isSuccess && shown.length > 0 && (
                <DocumentsTable documents={shown} live={live} categoryListId={categoryListId} />
              )}
              {documents.isSuccess && shown.length === 0 && query.trim() && !category && (
                <p className="px-4 py-3 text-[13px] text-ink-muted">No file name contains “{query.trim()}”.</p>
              )}
              {documents.isSuccess && shown.length === 0 && !(query.trim() && !category) && (
                <EmptyState title="No documents match" className="py-8"
                  actions={<Button size="sm" onClick={() => { setQuery(""); setCategory(""); }}>Clear filters</Button>}>
                  Nothing in your library matches {query ? <>“{query}”</> : "this filter"}.
                </EmptyState>
              )}
              {/* Name matches first (the file typed is what was meant), then passages of the text. */}
              <PassageResults query={query} categories={category && category !== UNCATEGORISED ? [category] : []} />
              {documents.isSuccess && shown.length > 0 && shown.length < all.length && (
                <p className="border-t border-line px-4 py-2 text-xs text-ink-faint">
                  Showing {shown.length} of {all.length}
                </p>
              )}
            </section>
          )}
        </>
      )}
    </div>
  );
}
