/**
 * Making a card from a passage, from anywhere (the viewer, a chat citation): the model's draft, the decks
 * to put it in (or a new one), and saving it with the passage as its source. Shares the study hub's
 * query keys, so its deck shows the new card at once.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/lib/api";
import type { CardKind } from "@/lib/cards";
import { listKeys } from "./lists";
import type { components } from "./schema";

type Schemas = components["schemas"];
export type CardDraft = Schemas["CardDraftOut"];
export type SavedCard = Schemas["CardOut"];
export type NewDeck = Schemas["DeckSummary"];

export function draftCard(blockId: string, kind: CardKind): Promise<CardDraft> {
  return apiSend<CardDraft>("POST", "/api/study/drafts/card", { block_id: blockId, kind });
}

export function useSaveCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ deckId, newDeckTitle, card }: {
      deckId: string | null;
      newDeckTitle: string;
      card: { kind: CardKind; front: string; back: string; block_ids: string[] };
    }) => {
      const target = deckId ?? (await apiSend<NewDeck>("POST", "/api/study/decks/manual", { title: newDeckTitle })).id;
      return apiSend<SavedCard>("POST", `/api/study/decks/${encodeURIComponent(target)}/cards`, { ...card, tags: [] });
    },
    onSuccess: (card) => {
      void queryClient.invalidateQueries({ queryKey: listKeys.decks });
      void queryClient.invalidateQueries({ queryKey: ["study", "deck", card.deck_id] });
    },
  });
}
