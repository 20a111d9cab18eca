/**
 * A slide's extracted text (backend/ingest/extract/pptx.py) back into its parts: the title line, text
 * paragraphs, tables (pipe rows), text OCR'd from a picture (the paragraph starting "Text in picture:") and
 * the speaker notes (the paragraph starting "Notes:").
 */

export type SlidePart =
  | { kind: "text"; text: string }
  | { kind: "table"; rows: string[][] }
  | { kind: "notes"; text: string }
  | { kind: "picture"; text: string };

const PICTURE_LABEL = "Text in picture:";

export function pipeCells(line: string): string[] | null {
  const trimmed = line.trim();
  if (trimmed.length < 2 || !trimmed.startsWith("|") || !trimmed.endsWith("|")) return null;
  return trimmed.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

export function slideParts(text: string): SlidePart[] {
  const parts: SlidePart[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const body = paragraph.trim();
    if (!body) continue;
    if (body.startsWith("Notes:")) {
      parts.push({ kind: "notes", text: body.slice("Notes:".length).trim() });
      continue;
    }
    if (body.startsWith(PICTURE_LABEL)) {
      parts.push({ kind: "picture", text: body.slice(PICTURE_LABEL.length).trim() });
      continue;
    }
    const lines = body.split("\n");
    const rows = lines.map(pipeCells);
    if (rows.every((row) => row !== null)) parts.push({ kind: "table", rows: rows as string[][] });
    else parts.push({ kind: "text", text: body });
  }
  return parts;
}
