/** Study time in words: seconds → "45 s", "12 min", "1 h 5 min"; minutes → "~15 min". Pure. */

export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total === 0) return "0 min";
  if (total < 60) return `${total} s`;
  const minutes = Math.round(total / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** An estimate in minutes ("~15 min", "~1 h 30 min"). */
export function formatMinutesEstimate(minutes: number): string {
  return `~${formatDuration(minutes * 60)}`;
}

/** Elapsed time while waiting: "0:07", "1:32". */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
