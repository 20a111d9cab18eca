/**
 * A study guide as numbered citations: every passage cited gets one number, in order of first use, so
 * the page, the Markdown and the PDF show "[1]" for the same passage. Also the PDF itself (text, not a
 * picture: it can be searched and copied), made with jsPDF, loaded only when asked for.
 */
import type { Guide, Source } from "../api/types";

export interface NumberedGuide {
  entries: Array<{ heading: string; text: string; marks: number[] }>;
  sources: Source[];
}

export function numberCitations(guide: Pick<Guide, "entries">): NumberedGuide {
  const numbers = new Map<string, number>();
  const sources: Source[] = [];
  const entries = guide.entries.map((entry) => ({
    heading: entry.heading,
    text: entry.text,
    marks: entry.sources.map((source) => {
      if (!numbers.has(source.block_id)) {
        numbers.set(source.block_id, numbers.size + 1);
        sources.push(source);
      }
      return numbers.get(source.block_id) as number;
    }),
  }));
  return { entries, sources };
}

export function sourceLabel(source: Source): string {
  return source.page ? `${source.filename}, p. ${source.page}` : source.filename;
}

export const GUIDE_NOUN: Record<Guide["guide_type"], string> = {
  briefing: "Briefing", faq: "FAQ", glossary: "Glossary", timeline: "Timeline",
};

/** The guide as lines of a document: headings, paragraphs (with their citation marks) and the sources. */
export function guideLines(guide: Pick<Guide, "title" | "guide_type" | "entries">): Array<{ kind: "title" | "heading" | "text" | "item"; text: string }> {
  const { entries, sources } = numberCitations(guide);
  const lines: Array<{ kind: "title" | "heading" | "text" | "item"; text: string }> = [{ kind: "title", text: guide.title }];
  let section: string | null = null;
  for (const entry of entries) {
    const marks = entry.marks.map((n) => `[${n}]`).join("");
    if (guide.guide_type === "briefing") {
      if (entry.heading !== section) {
        section = entry.heading;
        lines.push({ kind: "heading", text: section });
      }
      lines.push({ kind: "item", text: `• ${entry.text} ${marks}` });
    } else if (guide.guide_type === "faq") {
      lines.push({ kind: "heading", text: entry.heading }, { kind: "text", text: `${entry.text} ${marks}` });
    } else {
      lines.push({ kind: "item", text: `${entry.heading} — ${entry.text} ${marks}` });
    }
  }
  lines.push({ kind: "heading", text: "Sources" });
  sources.forEach((source, index) => lines.push({ kind: "item", text: `${index + 1}. ${sourceLabel(source)}` }));
  return lines;
}

const PAGE_MARGIN = 56;
const STYLE = { title: { size: 18, bold: true, gap: 14 }, heading: { size: 13, bold: true, gap: 10 },
  text: { size: 11, bold: false, gap: 8 }, item: { size: 11, bold: false, gap: 6 } } as const;

export async function guidePdf(guide: Pick<Guide, "title" | "guide_type" | "entries">): Promise<Blob> {
  const { jsPDF } = await import("jspdf");
  const pdf = new jsPDF({ unit: "pt", format: "a4", compress: true });
  const width = pdf.internal.pageSize.getWidth() - 2 * PAGE_MARGIN;
  const bottom = pdf.internal.pageSize.getHeight() - PAGE_MARGIN;
  let y = PAGE_MARGIN;
  for (const line of guideLines(guide)) {
    const style = STYLE[line.kind];
    pdf.setFont("helvetica", style.bold ? "bold" : "normal");
    pdf.setFontSize(style.size);
    const height = style.size * 1.35;
    if (line.kind === "heading") y += 6;
    for (const row of pdf.splitTextToSize(line.text, width) as string[]) {
      if (y + height > bottom) {
        pdf.addPage();
        y = PAGE_MARGIN;
      }
      pdf.text(row, PAGE_MARGIN, y + style.size);
      y += height;
    }
    y += style.gap;
  }
  return pdf.output("blob");
}
