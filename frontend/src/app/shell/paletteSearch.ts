/**
 * Finding things in the command palette: every typed word must appear in an item's label or keywords;
 * matches at the start of the label or of one of its words rank above matches inside a word, and
 * keyword-only matches rank last; passages the server found for the query come after every name match.
 * Results come in groups (commands, study items, conversations, documents, passages), the
 * group with the best match first; the long groups only appear once something is typed. Pure.
 */
export interface Searchable {
  label: string;
  keywords?: string;
  group: string;
}

export interface GroupSpec {
  name: string;
  /** Listed with an empty query (commands are; a hundred documents aren't). */
  browse: boolean;
  /** At most this many results with a query. */
  limit?: number;
  /** Found by the server for this query (passages): kept in the server's order, listed after name matches. */
  matchedByServer?: boolean;
}

export interface ResultGroup<T> {
  name: string;
  items: T[];
}

const WORD_START = /[\s\-_./(:]/;

function wordScore(label: string, keywords: string, word: string): number {
  const at = label.indexOf(word);
  if (at === 0) return 4;
  if (at > 0) {
    // Any occurrence at a word start counts as one, not just the first occurrence.
    for (let i = at; i >= 0; i = label.indexOf(word, i + 1)) if (WORD_START.test(label[i - 1] ?? " ")) return 3;
    return 2;
  }
  return keywords.includes(word) ? 1 : 0;
}

/** How well `query` matches an item: 0 when some word is missing, higher is better. */
export function matchScore(item: Pick<Searchable, "label" | "keywords">, query: string): number {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const label = item.label.toLowerCase();
  const keywords = (item.keywords ?? "").toLowerCase();
  let total = 0;
  for (const word of words) {
    const score = wordScore(label, keywords, word);
    if (!score) return 0;
    total += score;
  }
  // The whole query at the start of the label ("new q" → "New quiz") beats scattered words.
  return total + (words.length > 1 && label.startsWith(words.join(" ")) ? 2 : 0);
}

/** The palette's results for a query, grouped; items keep their given order among equals. */
export function searchPalette<T extends Searchable>(items: readonly T[], query: string, groups: readonly GroupSpec[]): ResultGroup<T>[] {
  const browsing = !query.trim();
  const results = groups.map((spec, order) => {
    const scored = items
      .filter((item) => item.group === spec.name)
      .map((item, index) => ({ item, index, score: browsing ? (spec.browse ? 1 : 0) : spec.matchedByServer ? 0.5 : matchScore(item, query) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index);
    const kept = browsing || spec.limit === undefined ? scored : scored.slice(0, spec.limit);
    return { name: spec.name, order, best: kept[0]?.score ?? 0, items: kept.map((entry) => entry.item) };
  });
  return results
    .filter((group) => group.items.length > 0)
    .sort((a, b) => b.best - a.best || a.order - b.order)
    .map(({ name, items: found }) => ({ name, items: found }));
}
