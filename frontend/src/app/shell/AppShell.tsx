/**
 * The frame around every screen: sidebar navigation (a drawer on narrow windows), the command palette
 * (Ctrl/Cmd+K), the `/` shortcut to the page's search field, and the API-token screen when needed.
 */
import { useEffect, useState } from "react";
import { Menu } from "lucide-react";
import { Outlet, useLocation } from "react-router";
import { IconButton } from "@/components/Button";
import { useHotkey } from "@/hooks/useHotkey";
import { Brand } from "./Brand";
import { CommandPalette } from "./CommandPalette";
import { Sidebar } from "./Sidebar";
import { TokenGate } from "./TokenGate";

/** Pages mark their main search/input with data-search-target; `/` focuses it. */
function focusSearchTarget(): void {
  const target = document.querySelector<HTMLElement>("[data-search-target]");
  target?.focus();
}

export function AppShell() {
  const location = useLocation();
  // The drawer belongs to the page it was opened on: navigating closes it.
  const [drawerPath, setDrawerPath] = useState<string | null>(null);
  const drawerOpen = drawerPath === location.pathname;
  const setDrawerOpen = (open: boolean) => setDrawerPath(open ? location.pathname : null);
  const [paletteOpen, setPaletteOpen] = useState(false);

  useHotkey("mod+k", () => setPaletteOpen((open) => !open));
  useHotkey("/", focusSearchTarget);

  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setDrawerPath(null);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [drawerOpen]);

  return (
    <div className="flex h-full flex-col md:flex-row">
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="flex h-13 shrink-0 items-center gap-2 border-b border-line bg-surface px-3 md:hidden">
        <IconButton label="Open navigation" onClick={() => setDrawerOpen(true)} aria-expanded={drawerOpen}>
          <Menu size={18} />
        </IconButton>
        <Brand />
      </header>

      <aside aria-label="Navigation" className="hidden w-60 shrink-0 border-r border-line bg-surface md:flex">
        <Sidebar onOpenPalette={() => setPaletteOpen(true)} />
      </aside>

      {drawerOpen && (
        <div className="fixed inset-0 z-40 md:hidden">
          <div className="absolute inset-0 bg-black/40" onClick={() => setDrawerOpen(false)} aria-hidden="true" />
          <aside aria-label="Navigation" className="absolute inset-y-0 left-0 flex w-72 max-w-[85%] bg-surface shadow-card">
            <Sidebar onOpenPalette={() => setPaletteOpen(true)} onNavigate={() => setDrawerOpen(false)} />
          </aside>
        </div>
      )}

      <main id="main" tabIndex={-1} className="min-h-0 min-w-0 flex-1 overflow-y-auto focus:outline-none">
        <Outlet />
      </main>

      <CommandPalette open={paletteOpen} onClose={() => setPaletteOpen(false)} />
      <TokenGate />
    </div>
  );
}
