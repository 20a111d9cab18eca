/**
 * A flashcard review session: the queue of due cards, flipping, rating, and cards in a short learning
 * step ("again 1m") coming back at the end of the session, as in Anki. A reducer, so it is testable.
 */
import type { Card, Rating, Review } from "../api/types";

export const RATINGS: ReadonlyArray<{ rating: Rating; key: string; label: string }> = [
  { rating: "again", key: "1", label: "Again" },
  { rating: "hard", key: "2", label: "Hard" },
  { rating: "good", key: "3", label: "Good" },
  { rating: "easy", key: "4", label: "Easy" },
];

/** Keys 1–4 rate again, hard, good, easy. */
export function ratingForKey(key: string): Rating | null {
  return RATINGS.find((entry) => entry.key === key)?.rating ?? null;
}

/** A card due again within this many seconds is shown again before the session ends. */
export const REQUEUE_WITHIN_S = 15 * 60;

export interface ReviewSession {
  queue: Card[];
  position: number;
  flipped: boolean;
  reviewed: number;
  tally: Record<Rating, number>;
}

export type ReviewAction =
  | { type: "start"; cards: Card[] }
  | { type: "flip" }
  | { type: "rated"; review: Review };

export function startSession(cards: Card[]): ReviewSession {
  return { queue: cards, position: 0, flipped: false, reviewed: 0, tally: { again: 0, hard: 0, good: 0, easy: 0 } };
}

export function reviewReducer(state: ReviewSession, action: ReviewAction): ReviewSession {
  switch (action.type) {
    case "start":
      return startSession(action.cards);
    case "flip":
      return currentCard(state) && !state.flipped ? { ...state, flipped: true } : state;
    case "rated": {
      const card = currentCard(state);
      if (!card || card.id !== action.review.card.id) return state;
      const again = action.review.interval_seconds <= REQUEUE_WITHIN_S;
      return {
        queue: again ? [...state.queue, action.review.card] : state.queue,
        position: state.position + 1,
        flipped: false,
        reviewed: state.reviewed + 1,
        tally: { ...state.tally, [action.review.rating]: state.tally[action.review.rating] + 1 },
      };
    }
  }
}

export function currentCard(state: ReviewSession): Card | undefined {
  return state.queue[state.position];
}

export function remaining(state: ReviewSession): number {
  return Math.max(0, state.queue.length - state.position);
}
