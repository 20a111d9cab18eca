/**
 * What the web app knows of each document kind, in one place (the backend's format registry,
 * backend/ingest/formats/, declares the same): which viewer opens it, what kind of place its passages
 * have, and the unit its length is counted in. A new format is one entry here; a kind not listed is
 * shown as text with pages.
 */

export type ViewerKind = "pdf" | "slides" | "sheet" | "text" | "recording";
export type PlaceKind = "page" | "slide" | "sheet" | "heading" | "time";

interface FormatInfo {
  viewer: ViewerKind;
  place: PlaceKind;
  /** How its length (`pages`) is counted: "page", "slide", "sheet"; "second" is shown as a duration. */
  unit: "page" | "slide" | "sheet" | "second";
}

const FORMATS: Record<string, FormatInfo> = {
  pdf: { viewer: "pdf", place: "page", unit: "page" },
  image: { viewer: "pdf", place: "page", unit: "page" },
  pptx: { viewer: "slides", place: "slide", unit: "slide" },
  xlsx: { viewer: "sheet", place: "sheet", unit: "sheet" },
  csv: { viewer: "sheet", place: "page", unit: "page" },
  docx: { viewer: "text", place: "page", unit: "page" },
  md: { viewer: "text", place: "page", unit: "page" },
  txt: { viewer: "text", place: "page", unit: "page" },
  html: { viewer: "text", place: "page", unit: "page" },
  audio: { viewer: "recording", place: "time", unit: "second" },
};

const TEXT: FormatInfo = { viewer: "text", place: "page", unit: "page" };

export function formatInfo(kind: string | null | undefined): FormatInfo {
  return (kind && FORMATS[kind.toLowerCase()]) || TEXT;
}
