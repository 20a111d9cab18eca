/** A flashcard deck: what's due, every card (edit, delete, its sources), add a card by hand, export for Anki. */
import { useState } from "react";
import { Download, Pencil, Play, Plus, Trash2 } from "lucide-react";
import { useNavigate, useParams } from "react-router";
import { Badge, type Tone } from "@/components/Badge";
import { Button, buttonClassName, IconButton } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { ConfirmDialog } from "@/components/Dialog";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { formatDateTime, formatRelative, plural } from "@/lib/format";
import { deckExportUrl, useAddCard, useDeck, useDeleteCard, useDeleteDeck, useEditCard } from "@/features/study/api/decks";
import type { Card, CardInput } from "@/features/study/api/types";
import { SourceLinks } from "../SourceLinks";
import { PageShell, StudyHeader } from "../StudyLayout";
import { CardEditor } from "./CardEditor";

const STATE: Record<Card["state"], { label: string; tone: Tone }> = {
  new: { label: "New", tone: "accent" },
  learning: { label: "Learning", tone: "warn" },
  relearning: { label: "Relearning", tone: "warn" },
  review: { label: "Review", tone: "ok" },
};

function dueText(card: Card): string {
  if (card.state === "new") return "Not studied yet";
  return Date.parse(card.due) <= Date.now() ? "Due now" : `Due ${formatRelative(card.due)}`;
}

function CardRow({ card, onEdit, onDelete }: { card: Card; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="relative grid gap-2 px-4 py-3 sm:grid-cols-[1fr_1fr_auto] sm:gap-4" data-testid="card-row">
      <div className="min-w-0 pr-16 sm:pr-0">
        <p className="text-sm font-medium break-words whitespace-pre-wrap">{card.front}</p>
        <div className="mt-1 flex flex-wrap items-center gap-1.5">
          <Badge tone={STATE[card.state].tone}>{STATE[card.state].label}</Badge>
          <span className="text-xs text-ink-faint" title={formatDateTime(card.due)}>{dueText(card)}</span>
          {card.tags.map((tag) => <span key={tag} className="rounded bg-surface-2 px-1.5 py-px text-[11px] text-ink-muted">#{tag}</span>)}
        </div>
      </div>
      <div className="min-w-0 space-y-1.5">
        <p className="text-sm break-words whitespace-pre-wrap text-ink-muted">{card.back}</p>
        {card.origin === "manual" ? <p className="text-xs text-ink-faint">Added by you</p> : <SourceLinks sources={card.sources} max={2} />}
      </div>
      <div className="absolute top-2.5 right-3 flex items-start justify-end gap-0.5 sm:static">
        <IconButton label={`Edit card: ${card.front.slice(0, 40)}`} size="sm" className="size-8" onClick={onEdit}><Pencil size={15} /></IconButton>
        <IconButton label={`Delete card: ${card.front.slice(0, 40)}`} size="sm" className="size-8 hover:text-danger" onClick={onDelete}><Trash2 size={15} /></IconButton>
      </div>
    </li>
  );
}

export function DeckPage() {
  const { deckId = "" } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const deck = useDeck(deckId);
  const add = useAddCard(deckId);
  const edit = useEditCard(deckId);
  const removeCard = useDeleteCard(deckId);
  const removeDeck = useDeleteDeck();
  const [editing, setEditing] = useState<{ card: Card | null } | null>(null);
  const [deleting, setDeleting] = useState<Card | "deck" | null>(null);
  const data = deck.data;

  const save = (input: CardInput) => {
    const done = { onSuccess: () => setEditing(null) };
    if (editing?.card) edit.mutate({ cardId: editing.card.id, ...input }, done);
    else add.mutate(input, { ...done, onSuccess: () => { setEditing(null); toast({ tone: "success", title: "Card added" }); } });
  };

  const confirmDelete = () => {
    if (deleting === "deck") {
      removeDeck.mutate(deckId, { onSuccess: () => navigate("/study", { replace: true }),
        onError: (error) => toast({ tone: "error", title: "Couldn't delete", body: errorMessage(error) }) });
    } else if (deleting) {
      removeCard.mutate(deleting.id, { onSuccess: () => setDeleting(null),
        onError: (error) => toast({ tone: "error", title: "Couldn't delete", body: errorMessage(error) }) });
    }
  };

  return (
    <PageShell>
      <StudyHeader
        back={{ to: "/study", label: "Study" }}
        title={data?.title ?? (deck.isError ? "Deck not found" : "Flashcards")}
        badges={data ? (data.due_count > 0 ? <Badge tone="accent" dot>{data.due_count} due</Badge> : <Badge tone="ok">Nothing due</Badge>) : undefined}
        subtitle={data ? `${plural(data.card_count, "card")}${data.new_count ? ` · ${data.new_count} not studied yet` : ""}` : undefined}
        actions={data && (
          <>
            {data.due_count > 0
              ? <ButtonLink to={`/study/decks/${deckId}/review`} variant="primary" icon={<Play size={15} />}>Review {data.due_count} due</ButtonLink>
              : <Button variant="primary" icon={<Play size={15} />} disabled title="No card is due right now">Review</Button>}
            <Button icon={<Plus size={15} />} onClick={() => setEditing({ card: null })}>Add card</Button>
            <a href={deckExportUrl(deckId)} download className={buttonClassName()}
              title="A CSV file for Anki's File → Import">
              <Download size={15} /> Export for Anki
            </a>
            <a href={deckExportUrl(deckId, "apkg")} download className={buttonClassName()}
              title="An Anki package: importing it again updates these cards instead of duplicating them">
              <Download size={15} /> Export .apkg
            </a>
            <IconButton label="Delete deck" onClick={() => setDeleting("deck")} className="hover:text-danger"><Trash2 size={16} /></IconButton>
          </>
        )}
      />
      {deck.isPending && <SkeletonRows rows={8} label="Loading the deck" />}
      {deck.isError && <p role="alert" className="text-sm text-danger">This deck couldn't be opened: {errorMessage(deck.error)}</p>}
      {data && (
        <section aria-label="Cards" className="rounded-2xl border border-line bg-surface shadow-card">
          <div className="hidden grid-cols-[1fr_1fr_auto] gap-4 border-b border-line px-4 py-2 text-xs font-medium text-ink-faint sm:grid">
            <span>Front</span><span>Back</span><span className="w-16" />
          </div>
          {data.cards.length === 0 ? (
            <p className="p-6 text-center text-sm text-ink-muted">This deck has no cards. Add one by hand.</p>
          ) : (
            <ul className="divide-y divide-line">
              {data.cards.map((card) => (
                <CardRow key={card.id} card={card} onEdit={() => setEditing({ card })} onDelete={() => setDeleting(card)} />
              ))}
            </ul>
          )}
        </section>
      )}
      {editing && (
        <CardEditor open key={editing.card?.id ?? "new"} card={editing.card} onSave={save} onClose={() => setEditing(null)}
          saving={add.isPending || edit.isPending} error={editing.card ? edit.error : add.error} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting === "deck" ? "Delete this deck?" : "Delete this card?"}
        description={deleting === "deck" ? "Every card and its review history is removed." : "The card and its review history are removed."}
        confirmLabel={deleting === "deck" ? "Delete deck" : "Delete card"}
        busy={removeDeck.isPending || removeCard.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </PageShell>
  );
}
