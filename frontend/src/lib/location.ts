/**
 * Where a passage sits in its document, in words: presentations count slides ("slide 4"), workbooks
 * name the sheet (`sheet "Budget"`, from the block's section `Sheet: Budget`), PDFs whose printed page
 * label differs from the physical page show both ("p. iv (page 6)"), recordings the moment ("at 12:34", from
 * the block's section "12:34–13:02"), anything else "p. 12". Citations,
 * search hits and the library all go through here so a location reads the same everywhere. `kind` and
 * `page_label` may be missing (older citations): the page number alone is used then. Pure.
 */

import { formatInfo } from "./formats";

export interface Locatable {
  page?: number | null;
  page_label?: string | null;
  section?: string | null;
  /** The document's kind: pdf, docx, pptx, xlsx, csv, md, txt, html, image, audio. */
  kind?: string | null;
}

/** `short` is for compact chips ("p. 3"); `long` spells it out for sentences and accessible names. */
export type LocationStyle = "short" | "long";

const SHEET = /^\s*Sheet:\s*(.+?)\s*(?:>|$)/;

/** The sheet named in a workbook block's section (`Sheet: Budget > …` → `Budget`), or null. */
export function sheetName(section: string | null | undefined): string | null {
  const match = section ? SHEET.exec(section) : null;
  return match?.[1] ? match[1] : null;
}

const SPAN = /^((?:\d+:)?\d{1,2}:\d{2})\u2013((?:\d+:)?\d{1,2}:\d{2})$/;

function seconds(clock: string): number {
  return clock.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

/** A recording's passage keeps its time span as its section, "12:34–13:02": [754, 782], or null. */
export function timeSpan(section: string | null | undefined): [number, number] | null {
  const match = section ? SPAN.exec(section.trim()) : null;
  return match?.[1] && match[2] ? [seconds(match[1]), seconds(match[2])] : null;
}

/** 754 → "12:34", 3723 → "1:02:03". */
export function formatClock(total: number): string {
  const whole = Math.max(0, Math.floor(total));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/** "p. 3", "slide 4", `sheet "Budget"`, "p. iv (page 6)", "at 12:34"; "" when nothing locates the passage. */
export function formatLocation(where: Locatable, style: LocationStyle = "short"): string {
  const page = where.page ?? null;
  const kind = where.kind?.toLowerCase() ?? null;
  const place = formatInfo(kind).place;
  if (place === "time") {
    const span = timeSpan(where.section);
    return span ? `at ${formatClock(span[0])}` : "";
  }
  if (place === "sheet" || (kind === null && sheetName(where.section))) {
    const sheet = sheetName(where.section);
    if (sheet) return `sheet "${sheet}"`;
    return page ? `sheet ${page}` : "";
  }
  if (!page) return "";
  if (place === "slide") return `slide ${page}`;
  const word = style === "long" ? "page" : "p.";
  const label = where.page_label?.trim();
  if (label && label !== String(page)) return `${word} ${label} (page ${page})`;
  return `${word} ${page}`;
}

/** The places shown by name in `formatAlsoAt` before "and N more". */
export const ALSO_AT_NAMED = 3;

/**
 * Where else the document holds a passage's text (a passage a document repeats is one search result, one
 * source): "Also on p. 12", "Also on p. 12, p. 40, p. 41 and 2 more", "Also on slide 3"; places without a
 * page (a Word document) are counted: "Also 2 more times in this document". "" when there are none.
 */
export function formatAlsoAt(places: readonly Locatable[] | null | undefined, kind?: string | null): string {
  const summary = alsoAtSummary(places ?? [], kind);
  if (!summary) return "";
  if (!summary.named.length) return summary.lead;
  return `${summary.lead} ${summary.named.map((place) => place.label).join(", ")}${summary.rest ? ` and ${summary.rest} more` : ""}`;
}

/** `formatAlsoAt`'s parts, for a line whose places are links: the places named (each the first of the
 * document's places with that label, by its index in `places`) and how many others there are. */
export interface AlsoAtSummary {
  lead: string;
  named: { label: string; index: number }[];
  rest: number;
}

export function alsoAtSummary(places: readonly Locatable[], kind?: string | null): AlsoAtSummary | null {
  if (!places.length) return null;
  const located = places.map((place) => formatLocation({ ...place, kind }));
  const named: { label: string; index: number }[] = [];
  located.forEach((label, index) => {
    if (label && named.length < ALSO_AT_NAMED && !named.some((place) => place.label === label)) named.push({ label, index });
  });
  if (!named.length) {
    const lead = places.length === 1 ? "Also once more in this document" : `Also ${places.length} more times in this document`;
    return { lead, named: [], rest: places.length };
  }
  const labels = new Set(named.map((place) => place.label));
  return { lead: "Also on", named, rest: located.filter((where) => !labels.has(where)).length };
}

/** How long a document is, in its own unit: "12 pages", "30 slides", "3 sheets", "58:00" for a recording. */
/** A language's name from its code ("de" → "German"), for what a recording was heard in. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(code) ?? code;
  } catch {
    return code; // not a language code the browser knows
  }
}

export function formatLength(kind: string | null | undefined, pages: number | null | undefined): string {
  if (pages === null || pages === undefined) return "—";
  const unit = formatInfo(kind).unit;
  if (unit === "second") return formatClock(pages);
  return `${pages.toLocaleString("en")} ${pages === 1 ? unit : `${unit}s`}`;
}
