/**
 * Card kinds on the client: cloze deletions written in Anki's syntax (`{{c1::answer}}`, `{{c1::answer::hint}}`)
 * and typed answers compared forgivingly. The server splits a cloze card into segments for review; this
 * only helps write one (hide the selected text as the next deletion) and checks a typed answer.
 */
const CLOZE = /\{\{c(\d{1,2})::(.*?)(?:::(.*?))?\}\}/gs;

/** The deletion numbers used in `text`, ascending. */
export function clozeNumbers(text: string): number[] {
  const found = new Set<number>();
  for (const match of text.matchAll(CLOZE)) if ((match[2] ?? "").trim()) found.add(Number(match[1]));
  return [...found].sort((a, b) => a - b);
}

/** `text` with `text[start:end]` hidden as the next deletion number (or a new empty one at the cursor). */
export function hideAsCloze(text: string, start: number, end: number): { text: string; cursor: number } {
  const n = (clozeNumbers(text).at(-1) ?? 0) + 1;
  const selected = text.slice(start, end) || "…";
  const inserted = `{{c${n}::${selected}}}`;
  return { text: text.slice(0, start) + inserted + text.slice(end), cursor: start + inserted.length };
}

/** Case, accents, spacing and punctuation do not count against a typed answer. */
export function normaliseAnswer(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export function typedMatches(typed: string, answer: string): boolean {
  return normaliseAnswer(typed) !== "" && normaliseAnswer(typed) === normaliseAnswer(answer);
}

export const KIND_LABEL = { basic: "Front and back", typed: "Typed answer", cloze: "Cloze" } as const;

export type CardKind = keyof typeof KIND_LABEL;

export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((tag) => tag.trim()).filter(Boolean))];
}
