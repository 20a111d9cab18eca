import { describe, expect, it } from "vitest";
import type { Card, Rating, Review } from "../api/types";
import { currentCard, ratingForKey, remaining, reviewReducer, startSession } from "./review";

const interval = (label: string, seconds: number) => ({ due: "2026-01-01T00:00:00Z", seconds, label });

const card = (id: string): Card => ({
  id, deck_id: "d", position: 1, kind: "basic", front: `front ${id}`, back: `back ${id}`, tags: [], origin: "generated", sources: [],
  note_id: null, cloze_n: null, segments: null, question_id: null,
  state: "new", due: "2026-01-01T00:00:00Z", last_review: null, reps: 0, lapses: 0, stability: null, difficulty: null,
  intervals: { again: interval("1m", 60), hard: interval("6m", 360), good: interval("10m", 600), easy: interval("4d", 345_600) },
});

const review = (of: Card, rating: Rating, seconds: number): Review => ({
  card: { ...of, reps: of.reps + 1 }, rating, reviewed_at: "2026-01-01T00:00:00Z", due: "2026-01-01T00:00:00Z",
  interval_seconds: seconds, interval_label: "x",
});

describe("review session", () => {
  it("rates with keys 1–4", () => {
    expect(["1", "2", "3", "4", "5", " "].map(ratingForKey)).toEqual(["again", "hard", "good", "easy", null, null]);
  });

  it("flips, rates, moves on, and tallies the ratings", () => {
    const a = card("a");
    const b = card("b");
    let state = startSession([a, b]);
    expect(currentCard(state)?.id).toBe("a");
    state = reviewReducer(state, { type: "flip" });
    expect(state.flipped).toBe(true);
    state = reviewReducer(state, { type: "rated", review: review(a, "easy", 345_600) });
    expect(currentCard(state)?.id).toBe("b");
    expect(state.flipped).toBe(false);
    expect(state.tally.easy).toBe(1);
    expect(remaining(state)).toBe(1);
  });

  it("brings a card in a short learning step back at the end of the session", () => {
    const a = card("a");
    let state = startSession([a, card("b")]);
    state = reviewReducer(state, { type: "rated", review: review(a, "again", 60) });
    expect(state.queue.map((c) => c.id)).toEqual(["a", "b", "a"]);
    expect(state.queue[2]?.reps).toBe(1); // the updated card, with its new intervals
    expect(remaining(state)).toBe(2);
  });

  it("ignores a late answer for a card that is no longer shown, and ends when the queue is empty", () => {
    const a = card("a");
    let state = startSession([a]);
    const stale = reviewReducer(state, { type: "rated", review: review(card("zzz"), "good", 600) });
    expect(stale).toBe(state);
    state = reviewReducer(state, { type: "rated", review: review(a, "good", 86_400) });
    expect(currentCard(state)).toBeUndefined();
    expect(reviewReducer(state, { type: "flip" })).toBe(state);
    expect(state.reviewed).toBe(1);
  });
});
