/**
 * A slide's extracted text (backend/ingest/extract/pptx.py) back into its parts: the title line, text
 * paragraphs, tables (pipe rows), text OCR'd from a picture (the paragraph starting "Text in picture:") and
 * the speaker notes (the paragraph starting "Notes:"). A Word document's text holds picture paragraphs
 * too (backend/ingest/extract/docx.py): `pictureParts` keeps them apart from the text around them.
 */

export type SlidePart =
  | { kind: "text"; text: string }
  | { kind: "table"; rows: string[][] }
  | { kind: "notes"; text: string }
  | { kind: "picture"; text: string };

const PICTURE_LABEL = "Text in picture:";
const PARAGRAPH_BREAK = /\n\s*\n/;

/** The text read from a picture, when `paragraph` is a picture's paragraph. */
function pictureText(paragraph: string): string | null {
  return paragraph.startsWith(PICTURE_LABEL) ? paragraph.slice(PICTURE_LABEL.length).trim() : null;
}

export type TextPart = { kind: "text" | "picture"; text: string };

/** A text block's runs of ordinary paragraphs (kept as written) and its pictures' paragraphs, in order. */
export function pictureParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let paragraphs: string[] = [];
  const flush = () => {
    if (paragraphs.length) parts.push({ kind: "text", text: paragraphs.join("\n\n") });
    paragraphs = [];
  };
  for (const paragraph of text.split(PARAGRAPH_BREAK)) {
    const picture = pictureText(paragraph.trim());
    if (picture === null) {
      paragraphs.push(paragraph);
      continue;
    }
    flush();
    parts.push({ kind: "picture", text: picture });
  }
  flush();
  return parts;
}

export function pipeCells(line: string): string[] | null {
  const trimmed = line.trim();
  if (trimmed.length < 2 || !trimmed.startsWith("|") || !trimmed.endsWith("|")) return null;
  return trimmed.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

export function slideParts(text: string): SlidePart[] {
  const parts: SlidePart[] = [];
  for (const paragraph of text.split(PARAGRAPH_BREAK)) {
    const body = paragraph.trim();
    if (!body) continue;
    if (body.startsWith("Notes:")) {
      parts.push({ kind: "notes", text: body.slice("Notes:".length).trim() });
      continue;
    }
    const picture = pictureText(body);
    if (picture !== null) {
      parts.push({ kind: "picture", text: picture });
      continue;
    }
    const lines = body.split("\n");
    const rows = lines.map(pipeCells);
    if (rows.every((row) => row !== null)) parts.push({ kind: "table", rows: rows as string[][] });
    else parts.push({ kind: "text", text: body });
  }
  return parts;
}
