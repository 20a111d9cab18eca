/** Global keyboard shortcuts: `useHotkey("/", handler)` or `useHotkey("mod+k", handler)`. */
import { useEffect, useRef } from "react";
import { hasCommandKey, isTypingTarget } from "@/lib/keys";

export interface HotkeyOptions {
  /** Fire even while the user types in a field (default: only for "mod+" combos). */
  whileTyping?: boolean;
  enabled?: boolean;
}

export function matchesHotkey(event: KeyboardEvent, combo: string): boolean {
  const parts = combo.toLowerCase().split("+");
  const key = parts.pop();
  const wantsMod = parts.includes("mod");
  const wantsShift = parts.includes("shift");
  if (wantsMod !== hasCommandKey(event)) return false;
  if (wantsShift !== event.shiftKey) return false;
  if (event.altKey) return false;
  return event.key.toLowerCase() === key;
}

export function useHotkey(combo: string, handler: (event: KeyboardEvent) => void, options: HotkeyOptions = {}): void {
  const saved = useRef(handler);
  useEffect(() => {
    saved.current = handler;
  });
  const { whileTyping = combo.startsWith("mod+"), enabled = true } = options;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !matchesHotkey(event, combo)) return;
      if (!whileTyping && isTypingTarget(event.target)) return;
      event.preventDefault();
      saved.current(event);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [combo, whileTyping, enabled]);
}
