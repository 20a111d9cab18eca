/**
 * Lists the app shell reads besides the screens that own them: the chat conversations and the flashcard
 * decks (for the command palette's quick-open and "review due cards"). One query key and one fetch each,
 * shared with the chat and study screens, so a rename or a review on one shows up in the other.
 */
import { apiJson } from "@/lib/api";
import type { ChatSession, DeckSummary } from "./types";

export const listKeys = {
  sessions: ["chat", "sessions"] as const,
  decks: ["study", "decks"] as const,
};

export function fetchSessions(): Promise<ChatSession[]> {
  return apiJson<ChatSession[]>("/api/chat/sessions");
}

export function fetchDecks(): Promise<DeckSummary[]> {
  return apiJson<DeckSummary[]>("/api/study/decks");
}
