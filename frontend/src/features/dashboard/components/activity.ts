/** Names and icons of the study activities the backend records (backend/progress/events.py). */
import { BookOpenText, Layers, ListChecks, MessagesSquare, Network, type LucideIcon } from "lucide-react";

export const ACTIVITY: Record<string, { label: string; one: string; many: string; icon: LucideIcon }> = {
  chat_message: { label: "Chat", one: "question asked", many: "questions asked", icon: MessagesSquare },
  quiz_answer: { label: "Quizzes", one: "quiz answer", many: "quiz answers", icon: ListChecks },
  card_review: { label: "Flashcards", one: "card reviewed", many: "cards reviewed", icon: Layers },
  lesson_read: { label: "Lessons", one: "lesson read", many: "lessons read", icon: BookOpenText },
  mindmap_export: { label: "Mind maps", one: "mind map exported", many: "mind maps exported", icon: Network },
};

export function activityCount(kind: string, count: number): string {
  const info = ACTIVITY[kind];
  if (!info) return `${count} ${kind.replace(/_/g, " ")}`;
  return `${count.toLocaleString("en")} ${count === 1 ? info.one : info.many}`;
}
