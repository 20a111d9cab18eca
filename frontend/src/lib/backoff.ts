/** Reconnect timing: exponential backoff with a cap, and an abortable sleep. */
export function backoffDelay(attempt: number, baseMs = 500, maxMs = 5000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
