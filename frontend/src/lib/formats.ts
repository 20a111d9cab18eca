/**
 * What the web app knows of each document kind, in one place (the backend's format registry,
 * backend/ingest/formats/, declares the same): which viewer opens it, what kind of place its passages
 * have, the unit its length is counted in, and the file names the library's picker offers (the server
 * decides by content; tests/ingest/test_formats.py holds these in step with the backend's). A new format
 * is one entry here; a kind not listed is shown as text with pages.
 */

export type ViewerKind = "pdf" | "slides" | "sheet" | "text" | "recording";
export type PlaceKind = "page" | "slide" | "sheet" | "heading" | "time";

interface FormatInfo {
  viewer: ViewerKind;
  place: PlaceKind;
  /** How its length (`pages`) is counted: "page", "slide", "sheet"; "second" is shown as a duration. */
  unit: "page" | "slide" | "sheet" | "second";
  /** The extensions its files have. */
  extensions: readonly string[];
}

const FORMATS: Record<string, FormatInfo> = {
  pdf: { viewer: "pdf", place: "page", unit: "page", extensions: ["pdf"] },
  image: { viewer: "pdf", place: "page", unit: "page", extensions: ["png", "jpg", "jpeg", "jpe", "jfif", "tif", "tiff", "gif", "bmp"] },
  pptx: { viewer: "slides", place: "slide", unit: "slide", extensions: ["pptx", "pptm", "ppsx", "ppsm", "potx", "potm"] },
  xlsx: { viewer: "sheet", place: "sheet", unit: "sheet", extensions: ["xlsx", "xlsm", "xltx", "xltm"] },
  csv: { viewer: "sheet", place: "page", unit: "page", extensions: ["csv", "tsv"] },
  docx: { viewer: "text", place: "page", unit: "page", extensions: ["docx", "docm", "dotx", "dotm"] },
  md: { viewer: "text", place: "page", unit: "page", extensions: ["md", "markdown"] },
  txt: { viewer: "text", place: "page", unit: "page", extensions: ["txt", "text"] },
  html: { viewer: "text", place: "page", unit: "page", extensions: ["html", "htm"] },
  audio: {
    viewer: "recording", place: "time", unit: "second",
    extensions: ["mp3", "m4a", "m4b", "aac", "mp4", "mov", "wav", "flac", "ogg", "oga", "opus", "webm", "weba"],
  },
};

const TEXT: FormatInfo = { viewer: "text", place: "page", unit: "page", extensions: [] };

// Old binary Office files are offered too: one saved with the old extension is read, a real one is refused
// with what to do.
const OLD_OFFICE = ["doc", "xls", "ppt"];

/** The library picker's filter: every extension a format declares. */
export const ACCEPTED_TYPES = [...Object.values(FORMATS).flatMap((f) => f.extensions), ...OLD_OFFICE]
  .map((ext) => `.${ext}`)
  .join(",");

export function formatInfo(kind: string | null | undefined): FormatInfo {
  return (kind && FORMATS[kind.toLowerCase()]) || TEXT;
}
