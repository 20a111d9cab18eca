/** Flashcard decks: list with due counts, cards, the due queue, FSRS reviews, card edits, export. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchDecks } from "@/api/lists";
import { apiJson, apiSend } from "@/lib/api";
import { studyKeys } from "./keys";
import { useDeleteRecord } from "./records";
import type { Card, CardInput, Deck, DeckSummary, Due, Rating, Review } from "./types";

const base = (id: string) => `/api/study/decks/${encodeURIComponent(id)}`;

export function useDecks() {
  return useQuery({ queryKey: studyKeys.decks, queryFn: fetchDecks });
}

export function useDeck(id: string) {
  return useQuery({ queryKey: studyKeys.deck(id), queryFn: () => apiJson<Deck>(base(id)) });
}

export function fetchDue(id: string, limit = 200): Promise<Due> {
  return apiJson<Due>(`${base(id)}/due?limit=${limit}`);
}

export function useDue(id: string) {
  // A review session works from one snapshot of the queue: no background refetches mid-session.
  return useQuery({ queryKey: studyKeys.due(id), queryFn: () => fetchDue(id), staleTime: Infinity, gcTime: 0 });
}

function useDeckInvalidation(deckId: string) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: studyKeys.deck(deckId), exact: true });
    void queryClient.invalidateQueries({ queryKey: studyKeys.decks });
  };
}

/** Rate a card (of any deck: a plan's session mixes decks); its deck, the deck list and the plans refresh. */
export function useReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deckId, cardId, rating }: { deckId: string; cardId: string; rating: Rating }) =>
      apiSend<Review>("POST", `${base(deckId)}/cards/${encodeURIComponent(cardId)}/review`, { rating }),
    onSuccess: (_, { deckId }) => {
      void queryClient.invalidateQueries({ queryKey: studyKeys.deck(deckId), exact: true });
      void queryClient.invalidateQueries({ queryKey: studyKeys.decks });
      void queryClient.invalidateQueries({ queryKey: studyKeys.plans });  // the list and each plan
    },
  });
}

/** An empty deck, to fill by hand or with cards made from passages. */
export function useCreateDeck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => apiSend<DeckSummary>("POST", "/api/study/decks/manual", { title }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: studyKeys.decks }),
  });
}

export function useAddCard(deckId: string) {
  const invalidate = useDeckInvalidation(deckId);
  return useMutation({
    mutationFn: (card: CardInput) => apiSend<Card>("POST", `${base(deckId)}/cards`, card),
    onSuccess: invalidate,
  });
}

export function useEditCard(deckId: string) {
  const invalidate = useDeckInvalidation(deckId);
  return useMutation({
    mutationFn: ({ cardId, ...patch }: Partial<CardInput> & { cardId: string }) =>
      apiSend<Card>("PATCH", `${base(deckId)}/cards/${encodeURIComponent(cardId)}`, patch),
    onSuccess: invalidate,
  });
}

export function useDeleteCard(deckId: string) {
  const invalidate = useDeckInvalidation(deckId);
  return useMutation({
    mutationFn: (cardId: string) => apiSend<void>("DELETE", `${base(deckId)}/cards/${encodeURIComponent(cardId)}`),
    onSuccess: invalidate,
  });
}

export function useDeleteDeck() {
  return useDeleteRecord<DeckSummary>(base, studyKeys.decks, studyKeys.deck);
}

/** CSV for Anki's File → Import, or an `.apkg` package that updates the same notes when imported again. */
export function deckExportUrl(id: string, format: "csv" | "apkg" = "csv"): string {
  return format === "csv" ? `${base(id)}/export` : `${base(id)}/export?format=${format}`;
}
