/**
 * The library search's passage results, below the files whose names match: hybrid search over the documents'
 * text, only passages above the relevance floor, grouped by document, the matching words marked. Each passage opens the viewer at its page, slide or rows, and so does each
 * other place its document repeats it ("Also on p. 3, p. 5"); "Ask in chat" starts a question about it,
 * scoped to that document.
 */
import { FileText, MessageSquare, TextSearch } from "lucide-react";
import { Link } from "react-router";
import { groupHits, hitPlace, MIN_SEARCH_CHARS, usePassageSearch } from "@/api/search";
import { AlsoAtLinks } from "@/components/AlsoAtLinks";
import { Spinner } from "@/components/Spinner";
import { Highlighted } from "@/components/viewer/Highlighted";
import { useDebounced } from "@/hooks/useDebounced";
import { errorMessage } from "@/lib/api";
import { plural } from "@/lib/format";
import { queryTerms, readableMarkdown } from "@/lib/highlight";
import { askInChatHref, viewerHref } from "@/lib/viewerLinks";

const HITS_PER_DOCUMENT = 3;
const MARKDOWN_SOURCES = new Set(["md", "html"]);

/** Markdown and HTML documents' passages are Markdown source (by the kind the server read, not the name). */
function isMarkdown(kind: string | null | undefined): boolean {
  return MARKDOWN_SOURCES.has(kind ?? "");
}

export function PassageResults({ query, categories }: { query: string; categories: string[] }) {
  const settled = useDebounced(query.trim(), 250);
  const search = usePassageSearch(settled, { k: 30, categories });
  if (settled.length < MIN_SEARCH_CHARS) return null;
  const terms = queryTerms(settled);
  // Only passages above the relevance floor (the server's judgement, as chat's): the rest share a word or
  // two with the query and would bury the ones that answer it.
  const relevant = (search.data?.hits ?? []).filter((hit) => hit.relevant);
  const groups = groupHits(relevant);

  return (
    <section aria-label="Passages" data-testid="passage-results" className="border-b border-line">
      <header className="flex items-center gap-2 px-4 pt-3 pb-1 text-[13px] font-medium text-ink-muted">
        <TextSearch size={14} />
        <span>
          {search.isSuccess
            ? groups.length
              ? `Best ${plural(relevant.length, "passage")} for “${settled}”, in ${plural(groups.length, "document")}`
              : `No passage matches “${settled}” well enough`
            : `Searching the text of your documents for “${settled}”…`}
        </span>
        {search.isFetching && <Spinner size={12} />}
      </header>
      {search.isError && <p role="alert" className="px-4 pb-3 text-sm text-danger">Search failed: {errorMessage(search.error)}</p>}
      {search.data?.notice && <p className="px-4 pb-2 text-xs text-ink-muted">{search.data.notice}</p>}
      <ul className="divide-y divide-line">
        {groups.map((group) => (
          <li key={group.documentId} className="px-4 py-3" data-testid="passage-group">
            <Link to={viewerHref(group.documentId, { block: group.hits[0]!.block_id, page: group.hits[0]!.page, q: settled })}
              className="flex items-center gap-2 text-sm font-semibold text-ink hover:text-accent">
              <FileText size={15} className="shrink-0 text-ink-muted" />
              <span className="truncate">{group.filename}</span>
              <span className="shrink-0 font-normal text-ink-muted">· {plural(group.hits.length, "passage")}</span>
            </Link>
            <ul className="mt-1.5 space-y-1">
              {group.hits.slice(0, HITS_PER_DOCUMENT).map((hit) => (
                <li key={hit.block_id} data-testid="passage-row" className="group flex items-start gap-2">
                  <div className="min-w-0 flex-1">
                    <Link
                      to={viewerHref(hit.document_id, { block: hit.block_id, page: hit.page, q: settled })}
                      data-testid="passage-hit"
                      className="block rounded-lg px-2 py-1.5 hover:bg-surface-2"
                    >
                      {hitPlace(hit) && <span className="mr-2 text-xs font-medium text-accent-soft-ink">{hitPlace(hit)}</span>}
                      <span className="line-clamp-2 text-[13px] text-ink"><Highlighted text={isMarkdown(hit.document_kind) ? readableMarkdown(hit.snippet) : hit.snippet} terms={terms} /></span>
                    </Link>
                    <AlsoAtLinks documentId={hit.document_id} places={hit.also_at ?? []} kind={hit.document_kind} q={settled}
                      className="block px-2 pb-1 text-xs text-ink-faint" />
                  </div>
                  <Link
                    to={askInChatHref(hit.document_id, settled)}
                    className="mt-1 flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-xs text-ink-muted opacity-0 group-hover:opacity-100 hover:bg-surface-2 hover:text-ink focus-visible:opacity-100"
                    aria-label={`Ask in chat about “${settled}” in ${hit.filename}`}
                  >
                    <MessageSquare size={13} /> Ask in chat
                  </Link>
                </li>
              ))}
              {group.hits.length > HITS_PER_DOCUMENT && (
                <li className="px-2 text-xs text-ink-muted">
                  and {plural(group.hits.length - HITS_PER_DOCUMENT, "more passage")} — open the document to see them
                </li>
              )}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
