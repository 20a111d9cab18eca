/**
 * Whether the last request to the server failed to reach it: set by `apiFetch` on every request, read
 * by the health light so it turns amber at the first failed request instead of at the next health poll.
 */

type Listener = () => void;

let failing = false;
const listeners = new Set<Listener>();

function set(value: boolean): void {
  if (failing === value) return;
  failing = value;
  listeners.forEach((listener) => listener());
}

export function reportReached(): void {
  set(false);
}

export function reportUnreachable(): void {
  set(true);
}

/** For `useSyncExternalStore`. */
export function subscribeConnection(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function connectionFailing(): boolean {
  return failing;
}
