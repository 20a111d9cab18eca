/** Formatting for people: sizes, counts, shares, dates. */

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return "—";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en")} ${count === 1 ? one : many}`;
}

/** ["a.pdf", "b.md", "c.txt", "d.csv"] → "a.pdf, b.md and 2 more"; two → "a.pdf and b.md". */
export function listNames(names: readonly string[], max = 3): string {
  if (names.length <= max) {
    return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : (names[0] ?? "");
  }
  const shown = max - 1;
  return `${names.slice(0, shown).join(", ")} and ${names.length - shown} more`;
}

/** 0.5 → "50%"; a share that isn't quite complete never rounds up to 100%. */
export function formatPercent(fraction: number): string {
  const clamped = Math.max(0, Math.min(1, fraction));
  const percent = Math.round(clamped * 100);
  if (percent === 100 && clamped < 1) return "99%";
  if (percent === 0 && clamped > 0) return "<1%";
  return `${percent}%`;
}

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
];

/** "just now", "5 minutes ago", "yesterday"; older than a week → a short date. */
export function formatRelative(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  let delta = (then.getTime() - now.getTime()) / 1000;
  if (Math.abs(delta) < 45) return "just now";
  for (const [unit, size] of STEPS) {
    if (Math.abs(delta) < size) return RELATIVE.format(Math.round(delta), unit);
    delta /= size;
  }
  return formatDate(iso, now);
}

export function formatDate(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  const sameYear = date.getFullYear() === now.getFullYear();
  return date.toLocaleDateString("en", { day: "numeric", month: "short", ...(sameYear ? {} : { year: "numeric" }) });
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });
}

/** "report.final.pdf" → "PDF". */
export function fileTypeLabel(filename: string, kind?: string | null): string {
  // A picture or a recording is labelled by its own format (JPG, M4A), which says more than "IMAGE" or "AUDIO".
  if (kind && kind !== "image" && kind !== "audio") return kind.toUpperCase();
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(dot + 1).toUpperCase() : "FILE";
}
