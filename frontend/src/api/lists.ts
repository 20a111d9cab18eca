/**
 * Lists the app shell reads besides the screens that own them: the chat conversations and the study
 * items — quizzes, decks, workshops, mind maps (for the command palette's quick-open and "review due cards"). One query key and one fetch each,
 * shared with the chat and study screens, so a rename or a review on one shows up in the other.
 */
import { apiJson } from "@/lib/api";
import type { components } from "./schema";
import type { ChatSession, DeckSummary } from "./types";

type Schemas = components["schemas"];
export type QuizSummary = Schemas["QuizSummary"];
export type WorkshopSummary = Schemas["WorkshopSummary"];
export type MindmapSummary = Schemas["MindmapSummary"];

// The study lists use the same keys as the study hub's own queries (features/study/api/keys.ts).
export const listKeys = {
  sessions: ["chat", "sessions"] as const,
  decks: ["study", "decks"] as const,
  quizzes: ["study", "quizzes"] as const,
  workshops: ["study", "workshops"] as const,
  mindmaps: ["study", "mindmaps"] as const,
};

export function fetchSessions(): Promise<ChatSession[]> {
  return apiJson<ChatSession[]>("/api/chat/sessions");
}

export function fetchDecks(): Promise<DeckSummary[]> {
  return apiJson<DeckSummary[]>("/api/study/decks");
}

export function fetchQuizzes(): Promise<QuizSummary[]> {
  return apiJson<QuizSummary[]>("/api/study/quizzes");
}

export function fetchWorkshops(): Promise<WorkshopSummary[]> {
  return apiJson<WorkshopSummary[]>("/api/study/workshops");
}

export function fetchMindmaps(): Promise<MindmapSummary[]> {
  return apiJson<MindmapSummary[]>("/api/study/mindmaps");
}
