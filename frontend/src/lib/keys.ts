/** Keyboard helpers: is the user typing somewhere, and is this the platform's command key? */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  return !["button", "checkbox", "radio", "submit", "reset", "file", "range"].includes(type);
}

export function isMac(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

export function hasCommandKey(event: KeyboardEvent | { metaKey: boolean; ctrlKey: boolean }): boolean {
  return isMac() ? event.metaKey : event.ctrlKey;
}

/**
 * Where an arrow key moves the choice in a radio group of `count` options (wrapping, as the ARIA
 * pattern asks), Home/End to the ends; null for any other key.
 */
export function radioKeyTarget(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  if (key === "ArrowDown" || key === "ArrowRight") return (current + 1 + count) % count;
  if (key === "ArrowUp" || key === "ArrowLeft") return (current - 1 + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

/**
 * The keydown handler of a radio group (roving tabindex: only the checked radio is a Tab stop, arrows
 * move and select): picks the next `[role=radio]` inside the group, focuses it and calls `choose`.
 */
export function onRadioGroupKeyDown(
  event: { key: string; target: EventTarget | null; currentTarget: HTMLElement; preventDefault: () => void },
  choose: (index: number) => void,
): void {
  const radios = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="radio"]'));
  const next = radioKeyTarget(event.key, radios.indexOf(event.target as HTMLElement), radios.length);
  if (next === null) return;
  event.preventDefault();
  radios[next]?.focus();
  choose(next);
}
