/**
 * Marking the words of a search in a passage, as plain segments the caller renders as text nodes and
 * <mark> elements (never as HTML built from strings, so nothing in a document can inject markup).
 */

export interface Segment {
  text: string;
  match: boolean;
}

// A word, or a number with its decimals ("45.2" stays one term, so it does not mark "45" in "45.9").
const WORD = /[\p{L}\p{N}]+(?:[.,]\p{N}+)*/gu;
const MIN_TERM = 2;
// Words too common to be worth marking, whatever the language of the query (English and German, the
// search's languages, and the commonest function words of the other languages people write queries in:
// a Spanish "de" marked in every cell is noise); numbers always count.
const STOPWORDS = new Set(
  ("the and for are was were with from that this these those into onto than then them they their there " +
    "its has have had not but all any can our out you your who what when where which why how also " +
    "der die das und oder ein eine einer eines den dem des mit von für auf aus bei ist sind nicht " +
    "an as at be by do if in is it of on or so to up we " +
    "de del la las el los lo en y con por para una uno que se su sus al es " +
    "le les un du et est une pour dans par sur au aux ce qui ne pas " +
    "di da il che per con non gli nel della dei " +
    "het een van en op te zijn voor met niet " +
    "os as um uma em dos das do no na com não")
    .split(" "),
);

/** The distinct words of a query worth marking: letters and digits, two characters or more, no stopwords. */
export function queryTerms(query: string): string[] {
  const words = query.normalize("NFKC").toLowerCase().match(WORD) ?? [];
  return [...new Set(words.filter((word) => word.length >= MIN_TERM && !STOPWORDS.has(word)))];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `text` cut into segments, the ones that start a word with one of `terms` marked. A term also marks a
 * longer word it begins ("topolog" marks "Topologie"), as keyword search stems words.
 */
export function highlightSegments(text: string, terms: readonly string[]): Segment[] {
  if (!text || terms.length === 0) return text ? [{ text, match: false }] : [];
  const sorted = [...terms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${sorted.join("|")})[\\p{L}\\p{N}]*`, "giu");
  const segments: Segment[] = [];
  let last = 0;
  for (const found of text.matchAll(pattern)) {
    const start = found.index ?? 0;
    if (start > last) segments.push({ text: text.slice(last, start), match: false });
    segments.push({ text: found[0], match: true });
    last = start + found[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), match: false });
  return segments;
}

/**
 * `text` without the words it repeats from the end of `previous`: consecutive chunks overlap by up to a
 * few hundred characters so that a passage read alone keeps its context; shown in a row, they repeat.
 */
export function withoutOverlap(previous: string | undefined, text: string, longest = 800): string {
  if (!previous) return text;
  for (let size = Math.min(longest, previous.length, text.length - 1); size >= 12; size -= 1) {
    if (previous.endsWith(text.slice(0, size))) return text.slice(size).replace(/^\s+/, "");
  }
  return text;
}

/**
 * Markdown source (what Markdown and HTML documents are extracted as) made readable as plain text:
 * backslash escapes undone ("\\[edit\\]" → "[edit]") and inline HTML tags dropped ("<sup>[1]</sup>" →
 * "[1]"). Shown as text either way; this only removes the markup's noise.
 */
export function readableMarkdown(text: string): string {
  return text.replace(/<\/?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*)?\/?>/g, "").replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1");
}
