/**
 * Where else a document holds a search result's text ("Also on p. 3, p. 5"), each place a link that
 * opens the viewer there: the same words as `formatAlsoAt`, which chat's source cards show as plain text
 * (a card is one button). Places without a page (a Word document) are numbered links.
 */
import { Fragment } from "react";
import { Link } from "react-router";
import type { Location } from "@/api/types";
import { ALSO_AT_NAMED, alsoAtSummary } from "@/lib/location";
import { viewerHref } from "@/lib/viewerLinks";

/** Another place of the document holding the same text: a hit's or a citation's `also_at`. */
export type AlsoAtPlace = Location;

const LINK = "rounded-sm underline decoration-dotted underline-offset-2 hover:text-accent";

export function AlsoAtLinks({ documentId, places, kind, q, className }: {
  documentId: string;
  places: readonly AlsoAtPlace[];
  kind?: string | null;
  q?: string;
  className?: string;
}) {
  const summary = alsoAtSummary(places, kind);
  if (!summary) return null;
  const to = (place: AlsoAtPlace) => viewerHref(documentId, { block: place.block_id, page: place.page, q });
  if (!summary.named.length) {
    const shown = places.slice(0, ALSO_AT_NAMED);
    const more = places.length - shown.length;
    return (
      <span data-testid="also-at" className={className}>
        {summary.lead}:{" "}
        {shown.map((place, i) => (
          <Fragment key={place.block_id}>
            {i > 0 && " · "}
            <Link to={to(place)} className={LINK} aria-label={`Open the copy ${i + 1} of this passage`}>{i + 1}</Link>
          </Fragment>
        ))}
        {more > 0 && ` and ${more} more`}
      </span>
    );
  }
  return (
    <span data-testid="also-at" className={className}>
      {summary.lead}{" "}
      {summary.named.map(({ label, index }, i) => (
        <Fragment key={places[index]!.block_id}>
          {i > 0 && ", "}
          <Link to={to(places[index]!)} className={LINK}>{label}</Link>
        </Fragment>
      ))}
      {summary.rest > 0 && ` and ${summary.rest} more`}
    </span>
  );
}
