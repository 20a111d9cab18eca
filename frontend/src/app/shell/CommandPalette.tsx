/**
 * Ctrl/Cmd+K: jump to a screen, run an action, start something to study, open a quiz, deck, workshop,
 * mind map, conversation or document by typing a few letters of its name, or a passage that mentions
 * what was typed — all from the keyboard (arrows, Enter, Esc).
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { CornerDownLeft, Search } from "lucide-react";
import { Dialog } from "@/components/Dialog";
import { Kbd } from "@/components/Kbd";
import { Spinner } from "@/components/Spinner";
import { cn } from "@/lib/cn";
import { searchPalette } from "./paletteSearch";
import { PALETTE_GROUPS, usePaletteItems, type PaletteItem } from "./usePaletteItems";

export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const { items, loading } = usePaletteItems(open, query);
  const groups = useMemo(() => searchPalette(items, query, PALETTE_GROUPS), [items, query]);
  const results = useMemo(() => groups.flatMap((group) => group.items), [groups]);
  const list = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const current = Math.min(active, Math.max(0, results.length - 1));

  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
  }, [current, results]);

  const close = () => {
    setQuery("");
    setActive(0);
    onClose();
  };
  const run = (item: PaletteItem | undefined) => {
    if (!item) return;
    close();
    item.run();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = results.length;
    if (event.key === "ArrowDown" && count) setActive((current + 1) % count);
    else if (event.key === "ArrowUp" && count) setActive((current - 1 + count) % count);
    else if (event.key === "Enter") run(results[current]);
    else return;
    event.preventDefault();
  };

  // Each result's place in the flat list the arrow keys move through.
  const starts = groups.map((_, g) => groups.slice(0, g).reduce((sum, group) => sum + group.items.length, 0));
  return (
    <Dialog open={open} onClose={close} title="Jump to" initialFocus='[role="combobox"]' className="mt-[12vh] max-w-xl self-start">
      <div className="-mx-5 -mt-2 border-b border-line px-5 pb-3">
        <div className="flex items-center gap-2">
          <Search size={16} className="shrink-0 text-ink-faint" />
          <input
            role="combobox"
            aria-expanded="true"
            aria-controls={`${baseId}-results`}
            aria-activedescendant={results.length ? optionId(current) : undefined}
            aria-autocomplete="list"
            aria-label="Type a command"
            placeholder="Search commands, study items, documents and passages…"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            className="h-9 w-full bg-transparent text-[15px] placeholder:text-ink-faint focus:outline-none"
          />
        </div>
      </div>
      {/* Focusable, so a list taller than the box can be scrolled from the keyboard too (the options
          themselves are reached through the combobox, so they are not tab stops). */}
      <div ref={list} tabIndex={0} className="-mx-3 max-h-[min(24rem,55vh)] overflow-y-auto pt-1">
        {/* The listbox holds only its groups and options; the status lines below sit beside it, since a
            listbox may contain nothing else. */}
        <div id={`${baseId}-results`} role="listbox" aria-label="Results">
          {groups.map((group, g) => (
            <div key={group.name} role="group" aria-labelledby={`${baseId}-group-${g}`}>
              <p id={`${baseId}-group-${g}`} role="presentation" className="px-3 pt-2.5 pb-1 text-xs font-medium text-ink-faint">{group.name}</p>
              {group.items.map((item, i) => {
                const position = (starts[g] ?? 0) + i;
                const selected = position === current;
                return (
                  <div
                    key={item.id}
                    id={optionId(position)}
                    role="option"
                    aria-selected={selected}
                    onMouseMove={() => setActive(position)}
                    onClick={() => run(item)}
                    className={cn(
                      "flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-sm",
                      selected ? "bg-accent-soft text-accent-soft-ink" : "text-ink",
                    )}
                  >
                    <item.icon size={16} className="shrink-0 opacity-75" />
                    <span className="min-w-[40%] flex-1 truncate">{item.label}</span>
                    {/* The hint gives way (a long file name and place once left a passage's snippet no room). */}
                    {item.hint && <span className={cn("min-w-0 max-w-[45%] truncate text-xs", selected ? "opacity-75" : "text-ink-faint")}>{item.hint}</span>}
                    <CornerDownLeft size={14} className={cn("shrink-0", selected ? "opacity-60" : "invisible")} />
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        {results.length === 0 && !(loading && query.trim()) && (
          <p className="px-3 py-6 text-center text-sm text-ink-muted">Nothing matches “{query.trim()}”.</p>
        )}
        {loading && query.trim() && (
          <p role="status" className="flex items-center gap-2 px-3 py-2.5 text-[13px] text-ink-muted">
            <Spinner size={13} /> Looking through your documents and their passages…
          </p>
        )}
      </div>
      <div className="-mx-5 -mb-5 mt-2 hidden items-center gap-4 border-t border-line px-5 py-2.5 text-xs text-ink-faint sm:flex">
        <span className="inline-flex items-center gap-1"><Kbd>↑</Kbd><Kbd>↓</Kbd> to move</span>
        <span className="inline-flex items-center gap-1"><Kbd>Enter</Kbd> to open</span>
        <span className="inline-flex items-center gap-1"><Kbd>Esc</Kbd> to close</span>
      </div>
    </Dialog>
  );
}
