/**
 * `[n]` markers in an answer → links to its sources. Markers become Markdown links to `#cite-n` (only
 * for numbers that are real citations), leaving code spans, code blocks and real links untouched;
 * `[1, 2]` and `[1][2]` both work. The renderer turns those links into citation chips. Pure.
 */

export const CITE_PREFIX = "#cite-";

const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g;
const PROTECTED = /(```[\s\S]*?(?:```|$)|`[^`\n]*`|\[[^\]\n]*\]\([^)\n]*\))/g;

function linkMarkers(text: string, known: ReadonlySet<number>): string {
  return text.replace(MARKER, (whole, list: string) => {
    const numbers = list.split(",").map((part) => Number(part.trim()));
    if (!numbers.every((n) => known.has(n))) return whole;
    return numbers.map((n) => `[${n}](${CITE_PREFIX}${n})`).join("");
  });
}

export function linkCitations(markdown: string, known: ReadonlySet<number>): string {
  if (!known.size) return markdown;
  return markdown
    .split(PROTECTED)
    .map((part, index) => (index % 2 === 1 ? part : linkMarkers(part, known)))
    .join("");
}

/** The citation number of a `#cite-n` href, or null for any other link. */
export function citationFromHref(href: string | undefined): number | null {
  if (!href?.startsWith(CITE_PREFIX)) return null;
  const n = Number(href.slice(CITE_PREFIX.length));
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** Numbers cited in the text, in order of first use. */
export function citedNumbers(markdown: string): number[] {
  const seen: number[] = [];
  for (const match of markdown.matchAll(MARKER)) {
    for (const part of (match[1] ?? "").split(",")) {
      const n = Number(part.trim());
      if (!seen.includes(n)) seen.push(n);
    }
  }
  return seen;
}

/** Cited sources first (in order of use), then the others by number. */
export function orderSources<T extends { n: number }>(citations: T[], cited: number[]): T[] {
  const rank = (n: number) => {
    const index = cited.indexOf(n);
    return index < 0 ? cited.length + n : index;
  };
  return [...citations].sort((a, b) => rank(a.n) - rank(b.n));
}

/**
 * Did the search find anything relevant enough to answer from? Citations stored before the server
 * judged relevance (no `relevant` field) count as relevant; no citations at all leave nothing to judge.
 */
export function isCovered(citations: { relevant?: boolean }[]): boolean {
  return !citations.length || citations.some((citation) => citation.relevant !== false);
}

// How the server's search tool ends its summary when documents in the question's scope are not read yet
// (backend/agent/reading.py): "2 documents are still being read".
const READING = "still being read";

/**
 * "2 documents are still being read — ask again when they are ready", when the turn's search found nothing
 * relevant while documents in its scope were still being read; null otherwise.
 */
export function readingNotice(tools: { name: string; summary?: string }[]): string | null {
  const summary = tools.find((tool) => tool.name === "search_knowledge_base" && tool.summary?.endsWith(READING))?.summary;
  if (!summary) return null;
  return `${summary} — ask again when ${summary.startsWith("1 document ") ? "it is" : "they are"} ready.`;
}

/** The sources the answer cites (in order of use) and the ones it searched but did not cite (by number). */
export function splitSources<T extends { n: number }>(citations: T[], cited: number[]): { cited: T[]; rest: T[] } {
  const ordered = orderSources(citations, cited);
  return {
    cited: ordered.filter((citation) => cited.includes(citation.n)),
    rest: ordered.filter((citation) => !cited.includes(citation.n)),
  };
}

/** A passage snippet without Markdown syntax noise ("# Cells ## Organelles" → "Cells Organelles"). */
export function plainSnippet(snippet: string): string {
  return snippet
    .replace(/(^|\s)#{1,6}\s+/g, "$1")
    .replace(/\*\*|__|`/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
