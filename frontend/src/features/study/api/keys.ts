/** Query keys for the study hub's server state, so a change on one screen refreshes the others. */
import { listKeys } from "@/api/lists";
import { loopKeys } from "@/api/studyLoop";

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
  plans: loopKeys.plans,
  plan: (id: string) => ["study", "plans", id] as const,
  planCards: (id: string) => ["study", "plan-session", id] as const,  // outside `plans`: a review must not restart the session
  changes: ["study", "changes"] as const,
  scheduler: loopKeys.scheduler,
  weakSpots: ["study", "weak-spots"] as const,
  guides: ["study", "guides"] as const,
  overviews: ["study", "overviews"] as const,
  overview: (id: string) => ["study", "overviews", id] as const,
  guide: (id: string) => ["study", "guides", id] as const,
};
