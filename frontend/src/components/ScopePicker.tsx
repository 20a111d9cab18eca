/**
 * Pick what a question (or a generated quiz, deck, ...) may draw on: whole categories and/or single
 * documents. Empty means "the whole vault". Shared by chat and the study hub.
 */
import { useMemo, useState, type ReactNode } from "react";
import { Check, FileText, Folder, Library, X } from "lucide-react";
import { pickableDocuments, useCategories, useDocuments } from "@/api/vault";
import { cn } from "@/lib/cn";
import { plural } from "@/lib/format";
import { Popover } from "./Popover";

export interface Scope {
  document_ids: string[];
  categories: string[];
}

export const EMPTY_SCOPE: Scope = { document_ids: [], categories: [] };

export function scopeIsEmpty(scope: Scope): boolean {
  return scope.document_ids.length === 0 && scope.categories.length === 0;
}

export function describeScope(scope: Scope, names: Map<string, string>): string {
  if (scopeIsEmpty(scope)) return "All documents";
  const parts: string[] = [];
  if (scope.categories.length === 1) parts.push(scope.categories[0] ?? "");
  else if (scope.categories.length > 1) parts.push(plural(scope.categories.length, "category", "categories"));
  if (scope.document_ids.length === 1) parts.push(names.get(scope.document_ids[0] ?? "") ?? "1 document");
  else if (scope.document_ids.length > 1) parts.push(plural(scope.document_ids.length, "document"));
  return parts.join(" + ");
}

function toggle(list: string[], value: string): string[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}

function Option({ checked, onClick, icon, label, hint }: {
  checked: boolean;
  onClick: () => void;
  icon: ReactNode;
  label: string;
  hint?: string;
}) {
  return (
    <button
      type="button"
      role="menuitemcheckbox"
      aria-checked={checked}
      onClick={onClick}
      className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-surface-2"
    >
      <span
        aria-hidden="true"
        className={cn(
          "flex size-4 shrink-0 items-center justify-center rounded border",
          checked ? "border-accent bg-accent text-accent-ink" : "border-line-strong",
        )}
      >
        {checked && <Check size={12} strokeWidth={3} />}
      </span>
      <span className="shrink-0 text-ink-faint">{icon}</span>
      <span className="min-w-0 flex-1 truncate">{label}</span>
      {hint && <span className="shrink-0 text-xs text-ink-faint">{hint}</span>}
    </button>
  );
}

export function ScopePicker({ value, onChange, className, side = "top" }: {
  value: Scope;
  onChange: (scope: Scope) => void;
  className?: string;
  /** Where the list opens (the chat composer sits at the bottom, so "top" by default). */
  side?: "top" | "bottom";
}) {
  const documents = useDocuments();
  const categories = useCategories();
  const [filter, setFilter] = useState("");
  const names = useMemo(
    () => new Map((documents.data ?? []).map((doc) => [doc.id, doc.filename])),
    [documents.data],
  );
  const needle = filter.trim().toLowerCase();
  // Failed and trashed documents have nothing to draw on: never offered.
  const visibleDocs = pickableDocuments(documents.data).filter((doc) => doc.filename.toLowerCase().includes(needle));
  const visibleCats = (categories.data ?? []).filter((cat) => cat.name.toLowerCase().includes(needle));
  const empty = scopeIsEmpty(value);

  return (
    <Popover
      label="Choose sources"
      side={side}
      className="w-80"
      trigger={({ open, toggle: toggleOpen, id }) => (
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={toggleOpen}
          className={cn(
            "inline-flex h-8 max-w-64 items-center gap-1.5 rounded-full border px-3 text-[13px] transition-colors",
            empty ? "border-line text-ink-muted hover:bg-surface-2" : "border-accent/40 bg-accent-soft text-accent-soft-ink",
            className,
          )}
        >
          <Library size={14} className="shrink-0" />
          <span className="truncate">{describeScope(value, names)}</span>
        </button>
      )}
    >
      {() => (
        <div className="flex max-h-96 flex-col">
          <div className="flex items-center gap-2 p-1.5">
            <input
              autoFocus
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              placeholder="Filter documents and categories"
              aria-label="Filter documents and categories"
              className="h-8 w-full rounded-md border border-line bg-canvas px-2.5 text-sm placeholder:text-ink-faint focus:border-accent focus:outline-none"
            />
            {!empty && (
              <button
                type="button"
                onClick={() => onChange(EMPTY_SCOPE)}
                className="inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-xs text-ink-muted hover:bg-surface-2"
              >
                <X size={12} /> Clear
              </button>
            )}
          </div>
          <div role="menu" aria-label="Sources" className="overflow-y-auto px-0.5 pb-1">
            {visibleCats.length > 0 && <p className="px-2 pt-2 pb-1 text-xs font-medium text-ink-faint">Categories</p>}
            {visibleCats.map((cat) => (
              <Option
                key={cat.name}
                checked={value.categories.includes(cat.name)}
                onClick={() => onChange({ ...value, categories: toggle(value.categories, cat.name) })}
                icon={<Folder size={14} />}
                label={cat.name}
                hint={String(cat.documents)}
              />
            ))}
            {visibleDocs.length > 0 && <p className="px-2 pt-2 pb-1 text-xs font-medium text-ink-faint">Documents</p>}
            {visibleDocs.map((doc) => (
              <Option
                key={doc.id}
                checked={value.document_ids.includes(doc.id)}
                onClick={() => onChange({ ...value, document_ids: toggle(value.document_ids, doc.id) })}
                icon={<FileText size={14} />}
                label={doc.filename}
              />
            ))}
            {visibleDocs.length === 0 && visibleCats.length === 0 && (
              <p className="px-2 py-3 text-sm text-ink-muted">
                {documents.data?.length ? "Nothing matches." : "No documents yet — add some in the Library."}
              </p>
            )}
          </div>
        </div>
      )}
    </Popover>
  );
}
