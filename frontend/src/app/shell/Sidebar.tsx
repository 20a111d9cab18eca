/** Sidebar: brand, command search, the main navigation, model status and the theme switch. */
import { Monitor, Moon, Search, Sun } from "lucide-react";
import { NavLink } from "react-router";
import { Kbd } from "@/components/Kbd";
import { cn } from "@/lib/cn";
import { isMac, onRadioGroupKeyDown } from "@/lib/keys";
import type { ThemeChoice } from "@/lib/theme";
import { NAV_ITEMS } from "../nav";
import { useTheme } from "../theme";
import { Brand } from "./Brand";
import { HealthIndicator } from "./HealthIndicator";

const THEMES: Array<{ value: ThemeChoice; label: string; icon: typeof Sun }> = [
  { value: "system", label: "System theme", icon: Monitor },
  { value: "light", label: "Light theme", icon: Sun },
  { value: "dark", label: "Dark theme", icon: Moon },
];

function ThemeSwitch() {
  const { choice, setChoice } = useTheme();
  return (
    <div role="radiogroup" aria-label="Theme" className="flex rounded-lg border border-line bg-canvas p-0.5"
      onKeyDown={(event) => onRadioGroupKeyDown(event, (index) => setChoice(THEMES[index]?.value ?? choice))}>
      {THEMES.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={choice === value}
          tabIndex={choice === value ? 0 : -1}
          aria-label={label}
          title={label}
          onClick={() => setChoice(value)}
          className={cn(
            "flex h-7 flex-1 items-center justify-center rounded-md transition-colors",
            choice === value ? "bg-surface text-ink shadow-sm" : "text-ink-faint hover:text-ink",
          )}
        >
          <Icon size={14} />
        </button>
      ))}
    </div>
  );
}

export function Sidebar({ onOpenPalette, onNavigate }: { onOpenPalette: () => void; onNavigate?: () => void }) {
  return (
    <div className="flex w-full flex-col gap-1 p-3">
      <div className="px-1 pt-1 pb-3">
        <Brand />
      </div>
      <button
        type="button"
        onClick={() => {
          onNavigate?.();
          onOpenPalette();
        }}
        className="mb-3 flex h-9 items-center gap-2 rounded-lg border border-line bg-canvas px-2.5 text-sm text-ink-faint transition-colors hover:border-line-strong hover:text-ink-muted"
      >
        <Search size={15} />
        <span className="flex-1 text-left">Jump to…</span>
        <Kbd>{isMac() ? "⌘" : "Ctrl"}</Kbd>
        <Kbd>K</Kbd>
      </button>
      <nav aria-label="Main" className="flex flex-col gap-0.5">
        {NAV_ITEMS.map(({ to, label, icon: Icon }) => (
          <NavLink
            key={to}
            to={to}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                "flex h-9 items-center gap-2.5 rounded-lg px-2.5 text-sm font-medium transition-colors",
                isActive ? "bg-accent-soft text-accent-soft-ink" : "text-ink-muted hover:bg-surface-2 hover:text-ink",
              )
            }
          >
            <Icon size={17} strokeWidth={1.9} />
            {label}
          </NavLink>
        ))}
      </nav>
      <div className="mt-auto flex flex-col gap-2 pt-4">
        <HealthIndicator />
        <ThemeSwitch />
      </div>
    </div>
  );
}
