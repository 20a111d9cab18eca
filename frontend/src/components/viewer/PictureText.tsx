/** Text read from a picture by OCR (on a slide or in a Word document), set apart from the text around it. */
import { Image as ImageIcon } from "lucide-react";
import { Highlighted } from "./Highlighted";

export function PictureText({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <figure className="rounded-lg border border-dashed border-line p-3" data-testid="picture-text">
      <figcaption className="mb-1 flex items-center gap-1.5 text-[13px] font-medium text-ink-muted">
        <ImageIcon size={14} aria-hidden /> Text in picture (read by OCR)
      </figcaption>
      <p className="whitespace-pre-wrap"><Highlighted text={text} terms={terms} /></p>
    </figure>
  );
}
