/** Ctrl/Cmd+K: jump to any screen or run a common action by typing a few letters. */
import { useMemo, useState, type KeyboardEvent } from "react";
import { CornerDownLeft, MessageSquarePlus, Moon, Search, Upload, type LucideIcon } from "lucide-react";
import { useNavigate } from "react-router";
import { Dialog } from "@/components/Dialog";
import { cn } from "@/lib/cn";
import { NAV_ITEMS } from "../nav";
import { useTheme } from "../theme";

interface Command {
  id: string;
  label: string;
  group: string;
  icon: LucideIcon;
  keywords?: string;
  run: () => void;
}

export function filterCommands<T extends { label: string; keywords?: string }>(commands: T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return commands.filter((command) => {
    const haystack = `${command.label} ${command.keywords ?? ""}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const theme = useTheme();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);

  const commands = useMemo<Command[]>(() => [
    ...NAV_ITEMS.map((item) => ({
      id: `nav:${item.to}`, label: `Go to ${item.label}`, group: "Navigate", icon: item.icon,
      keywords: item.keywords, run: () => navigate(item.to),
    })),
    { id: "chat:new", label: "New chat", group: "Actions", icon: MessageSquarePlus, keywords: "ask question",
      run: () => navigate("/chat") },
    { id: "library:upload", label: "Add documents", group: "Actions", icon: Upload, keywords: "upload import url files",
      run: () => navigate("/library?add=1") },
    { id: "theme:toggle", label: theme.resolved === "dark" ? "Switch to light theme" : "Switch to dark theme",
      group: "Actions", icon: Moon, keywords: "theme dark light appearance", run: theme.toggle },
  ], [navigate, theme]);

  const results = filterCommands(commands, query);
  const close = () => {
    setQuery("");
    setActive(0);
    onClose();
  };
  const run = (command: Command | undefined) => {
    if (!command) return;
    close();
    command.run();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") setActive((i) => Math.min(results.length - 1, i + 1));
    else if (event.key === "ArrowUp") setActive((i) => Math.max(0, i - 1));
    else if (event.key === "Enter") run(results[active]);
    else return;
    event.preventDefault();
  };

  return (
    <Dialog open={open} onClose={close} title="Jump to" initialFocus='[role="combobox"]' className="mt-[12vh] max-w-lg self-start">
      <div className="-mx-5 -mt-2 border-b border-line px-5 pb-3">
        <div className="flex items-center gap-2">
          <Search size={16} className="text-ink-faint" />
          <input
            role="combobox"
            aria-expanded="true"
            aria-controls="palette-results"
            aria-activedescendant={results[active] ? `palette-${results[active].id}` : undefined}
            aria-label="Type a command"
            placeholder="Type a command or screen…"
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
      <ul id="palette-results" role="listbox" aria-label="Commands" className="-mx-3 max-h-80 overflow-y-auto pt-2">
        {results.length === 0 && <li className="px-3 py-6 text-center text-sm text-ink-muted">No matching command.</li>}
        {results.map((command, index) => (
          <li
            key={command.id}
            id={`palette-${command.id}`}
            role="option"
            aria-selected={index === active}
            onMouseMove={() => setActive(index)}
            onClick={() => run(command)}
            className={cn(
              "flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-sm",
              index === active ? "bg-accent-soft text-accent-soft-ink" : "text-ink",
            )}
          >
            <command.icon size={16} className="shrink-0 opacity-80" />
            <span className="flex-1">{command.label}</span>
            <span className="text-xs text-ink-faint">{command.group}</span>
            {index === active && <CornerDownLeft size={14} className="opacity-60" />}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
