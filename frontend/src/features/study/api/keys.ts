/** Query keys for the study hub's server state, so a change on one screen refreshes the others. */
import { listKeys } from "@/api/lists";

export const studyKeys = {
  all: ["study"] as const,
  job: (id: string) => ["study", "job", id] as const,
  activeJobs: ["study", "jobs", "active"] as const,
  quizzes: listKeys.quizzes,
  quiz: (id: string) => ["study", "quiz", id] as const,
  attempts: (id: string) => ["study", "quiz", id, "attempts"] as const,
  decks: listKeys.decks,
  deck: (id: string) => ["study", "deck", id] as const,
  due: (id: string) => ["study", "deck", id, "due"] as const,
  workshops: listKeys.workshops,
  workshop: (id: string) => ["study", "workshop", id] as const,
  lesson: (id: string, n: number) => ["study", "workshop", id, "lesson", n] as const,
  mindmaps: listKeys.mindmaps,
  mindmap: (id: string) => ["study", "mindmap", id] as const,
};
