/** A document's category, edited in place: click (or Enter), type, Enter saves, Esc cancels. */
import { useState } from "react";
import { Pencil } from "lucide-react";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { useSetCategory } from "../api/documents";

/** `empty` is what an uncategorised document shows ("Add…" in the table's column, where the header says what). */
export function CategoryCell({ documentId, filename, category, listId, empty = "Add…" }: {
  documentId: string;
  filename: string;
  category: string | null;
  listId: string;
  empty?: string;
}) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(category ?? "");
  const setCategory = useSetCategory();
  const toast = useToast();

  const save = () => {
    setEditing(false);
    const next = value.trim() || null;
    if (next === category) return;
    setCategory.mutate(
      { id: documentId, category: next },
      { onError: (error) => toast({ tone: "error", title: "Category not changed", body: errorMessage(error) }) },
    );
  };

  if (editing) {
    return (
      <input
        autoFocus
        list={listId}
        value={value}
        maxLength={200}
        aria-label={`Category of ${filename}`}
        onChange={(event) => setValue(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === "Enter") save();
          if (event.key === "Escape") {
            event.stopPropagation();
            setValue(category ?? "");
            setEditing(false);
          }
        }}
        className="h-7 w-full min-w-28 rounded-md border border-accent bg-surface px-2 text-[13px] focus:outline-none"
      />
    );
  }
  const shown = setCategory.isPending ? (value.trim() || null) : category;
  return (
    <button
      type="button"
      onClick={() => {
        setValue(category ?? "");
        setEditing(true);
      }}
      className={cn(
        "group inline-flex max-w-full items-center gap-1.5 rounded-md px-1.5 py-0.5 text-left text-[13px] hover:bg-surface-2",
        shown ? "text-ink" : "text-ink-faint",
      )}
    >
      {/* The accessible name begins with the visible text (WCAG 2.5.3, "label in name"): what a voice
          user reads on screen is what they say to press it. */}
      <span className="truncate">{shown ?? empty}</span>
      <span className="sr-only">— change category of {filename}</span>
      <Pencil size={12} className="shrink-0 opacity-0 transition-opacity group-hover:opacity-60 group-focus-visible:opacity-60" />
    </button>
  );
}
