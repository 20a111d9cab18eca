/** Seconds since a moment, ticking once a second while `running`. */
import { useEffect, useState } from "react";

export function useElapsed(since: string | number | undefined, running = true): number {
  const start = typeof since === "string" ? Date.parse(since) : since;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return start === undefined || Number.isNaN(start) ? 0 : Math.max(0, (now - start) / 1000);
}
