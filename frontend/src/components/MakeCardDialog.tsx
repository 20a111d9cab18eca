/**
 * "Make a card from this passage" (in the viewer and on chat citations): the model drafts a card of the
 * chosen kind from the passage, the user edits it and picks a deck (or names a new one), and only then
 * is it saved — with the passage as its source, so the card opens it.
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { draftCard, useSaveCard } from "@/api/cards";
import { fetchDecks, listKeys } from "@/api/lists";
import { errorMessage } from "@/lib/api";
import type { CardKind } from "@/lib/cards";
import { Button } from "./Button";
import { CardFields, cardTextValid, type CardText } from "./CardFields";
import { Dialog } from "./Dialog";
import { Select, TextInput } from "./Input";
import { useToast } from "./Toast";

const NEW_DECK = "\u0000new";

export function MakeCardDialog({ open, onClose, blockId, where }: {
  open: boolean;
  onClose: () => void;
  blockId: string;
  /** Where the passage is, for the dialog's description: "cells.pdf, p. 3". */
  where: string;
}) {
  const decks = useQuery({ queryKey: listKeys.decks, queryFn: fetchDecks, enabled: open });
  const save = useSaveCard();
  const toast = useToast();
  const [kind, setKind] = useState<CardKind>("basic");
  // The model's draft for the chosen kind; the user's edits replace it until the kind changes again.
  const draft = useQuery({ queryKey: ["card-draft", blockId, kind], queryFn: () => draftCard(blockId, kind),
    enabled: open, staleTime: Infinity, gcTime: 0, retry: false });
  const [edited, setEdited] = useState<CardText | null>(null);
  const text: CardText = edited ?? (draft.data ? { kind, front: draft.data.front, back: draft.data.back } : { kind, front: "", back: "" });
  const drafting = draft.isFetching;
  const draftError = draft.isError ? draft.error : null;
  const [deck, setDeck] = useState<string>("");
  const [newDeck, setNewDeck] = useState("Cards from passages");
  const chosenDeck = deck || (decks.data?.find((d) => d.purpose !== "mistakes")?.id ?? NEW_DECK);

  const submit = () => save.mutate(
    { deckId: chosenDeck === NEW_DECK ? null : chosenDeck, newDeckTitle: newDeck.trim() || "Cards from passages",
      card: { kind: text.kind, front: text.front.trim(), back: text.back.trim(), block_ids: [blockId] } },
    { onSuccess: () => {
      toast({ tone: "success", title: "Card saved", body: "It is due for review now and links back to this passage." });
      onClose();
    } },
  );

  return (
    <Dialog open={open} onClose={onClose} title="Make a card from this passage" className="max-w-lg"
      description={<>The model drafts it from {where}; change anything before saving.</>}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="make-card" loading={save.isPending} disabled={drafting || !cardTextValid(text)}>Save card</Button>
        </>
      }>
      <form id="make-card" className="space-y-3" data-testid="make-card" aria-busy={drafting} onSubmit={(event) => {
        event.preventDefault();
        if (cardTextValid(text)) submit();
      }}>
        <CardFields value={text} onChange={(next) => {
          if (next.kind !== kind) {
            setKind(next.kind);
            setEdited(null);
          } else {
            setEdited(next);
          }
        }} />
        {drafting && <p className="flex items-center gap-1.5 text-[13px] text-ink-muted" role="status"><Sparkles size={14} /> Drafting from the passage…</p>}
        {draftError !== null && <p role="alert" className="text-[13px] text-danger">No draft: {errorMessage(draftError)} Write the card yourself.</p>}
        <label className="block space-y-1">
          <span className="text-[13px] font-medium">Deck</span>
          <Select value={chosenDeck} onChange={(event) => setDeck(event.target.value)} aria-label="Deck" className="w-full">
            {(decks.data ?? []).map((d) => <option key={d.id} value={d.id}>{d.title}</option>)}
            <option value={NEW_DECK}>A new deck…</option>
          </Select>
        </label>
        {chosenDeck === NEW_DECK && (
          <TextInput value={newDeck} onChange={(event) => setNewDeck(event.target.value)} maxLength={200} aria-label="New deck's name" className="w-full" />
        )}
        {save.isError && <p role="alert" className="text-[13px] text-danger">{errorMessage(save.error)}</p>}
      </form>
    </Dialog>
  );
}
