/**
 * Pages of a document that could not be read reliably (a scan OCR could not make sense of): each said
 * in words with a way to its image — a link into the viewer, or, inside the viewer, a button that turns
 * to the page. Their text is kept out of search and study material; the page itself is still there.
 */
import { AlertTriangle } from "lucide-react";
import { Link } from "react-router";
import { viewerHref } from "@/lib/viewerLinks";

export interface PageWarning {
  page: number;
  message: string;
}

export function PageWarningList({ documentId, warnings, max, onOpen }: {
  documentId: string;
  warnings: readonly PageWarning[] | undefined;
  /** Show at most this many (a library row); the rest are counted. */
  max?: number;
  /** Inside the viewer: turn to the page instead of linking to it. */
  onOpen?: (page: number) => void;
}) {
  if (!warnings?.length) return null;
  const shown = max === undefined ? warnings : warnings.slice(0, max);
  const linkClass = "font-medium underline underline-offset-2 hover:text-ink";
  return (
    <ul className="mt-0.5 space-y-0.5" data-testid="page-warnings">
      {shown.map((warning) => (
        <li key={warning.page} data-testid="page-warning" data-page={warning.page}
          className="flex items-start gap-1.5 text-[13px] text-warn">
          <AlertTriangle size={13} className="mt-[3px] shrink-0" aria-hidden />
          <span>
            {warning.message} —{" "}
            {onOpen ? (
              <button type="button" className={linkClass} onClick={() => onOpen(warning.page)}>open the page image</button>
            ) : (
              <Link to={viewerHref(documentId, { page: warning.page })} className={linkClass}>open the page image</Link>
            )}
          </span>
        </li>
      ))}
      {shown.length < warnings.length && (
        <li className="pl-[19px] text-[13px] text-warn">and {warnings.length - shown.length} more</li>
      )}
    </ul>
  );
}
