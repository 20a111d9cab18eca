/**
 * Generation jobs, client side: when a job is over, how often to ask about it, what to say while it
 * runs, where its result lives in the app, and the jobs this browser knows about (kept in localStorage,
 * so a reload lists them at once, with what was asked for) merged with those the server says are still
 * being made. Pure apart from the storage passed in.
 */
import type { GeneratorKind, GeneratorParams, Job, JobKind, JobStatus } from "../api/types";

export const TERMINAL: ReadonlySet<JobStatus> = new Set(["succeeded", "failed"]);

export function isTerminal(status: JobStatus | undefined): boolean {
  return status !== undefined && TERMINAL.has(status);
}

/** Ask often at first (small jobs finish fast), then settle down: 0.8 s → 1.5 s → 3 s. */
export function pollDelay(elapsedMs: number): number {
  if (elapsedMs < 10_000) return 800;
  if (elapsedMs < 60_000) return 1_500;
  return 3_000;
}

export const KIND_NOUN: Record<JobKind, string> = {
  quiz: "quiz",
  deck: "flashcard deck",
  workshop: "workshop",
  mindmap: "mind map",
  lesson: "lesson",
  recap: "recap quiz",
  weak_spots: "weak-spots quiz",
  guide: "study guide",
  audio_overview: "audio overview",
  optimize: "personal scheduling parameters",
};

/** What the model is doing, in a calm sentence, for a job that isn't over. */
export function jobActivity(kind: JobKind, status: JobStatus, elapsedS: number): string {
  if (status === "queued") {
    return elapsedS < 20 ? "Getting ready…" : "Waiting for the model — another generation is finishing first.";
  }
  const work: Record<JobKind, string> = {
    quiz: "Reading your documents and writing questions",
    recap: "Writing questions that cover every lesson",
    deck: "Picking the ideas worth remembering and writing cards",
    workshop: "Planning the lessons and their objectives",
    lesson: "Writing the lesson from your documents",
    mindmap: "Finding the main topics and how they connect",
    weak_spots: "Writing questions on what you got wrong",
    guide: "Reading your documents and writing the guide",
    audio_overview: "Reading your documents and writing the hosts' script",
    optimize: "Fitting the scheduler to your reviews",
  };
  const tail = elapsedS > 90 ? " — larger scopes take a few minutes on a local model." : "…";
  return work[kind] + tail;
}

/** The app route that shows a finished job's result. */
export function resultPath(job: Pick<Job, "kind" | "result_id" | "result_url">): string | null {
  if (!job.result_id) return null;
  const id = encodeURIComponent(job.result_id);
  switch (job.kind) {
    case "quiz":
    case "recap":
    case "weak_spots":
      return `/study/quizzes/${id}`;
    case "guide":
      return `/study/guides/${id}`;
    case "audio_overview":
      return `/study/overviews/${id}`;
    case "optimize":
      return "/dashboard";
    case "deck":
      return `/study/decks/${id}`;
    case "workshop":
      return `/study/workshops/${id}`;
    case "mindmap":
      return `/study/mindmaps/${id}`;
    case "lesson": {
      const n = /\/lessons\/(\d+)$/.exec(job.result_url ?? "")?.[1];
      return `/study/workshops/${id}${n ? `/lessons/${n}` : ""}`;
    }
  }
}

/** A fresh token per click: the server answers the same token with the same job (no double generation). */
export function newClientToken(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

// -- jobs this browser knows about ---------------------------------------------------------------------
export interface PendingJob {
  job_id: string;
  kind: JobKind;
  /** What the user asked for, so "try again" can ask again (absent for lessons, recaps, and jobs
   * started in another browser). */
  generator?: GeneratorKind;
  params?: GeneratorParams;
  /** Words for the scope ("Biology", "3 documents"), shown while it runs (unknown for jobs started elsewhere). */
  label?: string;
  started_at: number;
}

/**
 * The hub's "being made" list: the jobs this browser knows (with what was asked for), plus the active
 * ones the server reports that it didn't know — started in another browser, or before this one's
 * storage was cleared — except those it has just seen finish (the server's list may be a moment older).
 * One entry per job, newest first.
 */
export function mergeJobs(known: readonly PendingJob[], active: readonly Job[] | undefined,
  finished: ReadonlySet<string>): PendingJob[] {
  const ids = new Set(known.map((job) => job.job_id));
  const discovered = (active ?? [])
    .filter((job) => !ids.has(job.job_id) && !finished.has(job.job_id))
    .map((job): PendingJob => ({ job_id: job.job_id, kind: job.kind, started_at: Date.parse(job.created_at) }));
  return [...known, ...discovered].sort((a, b) => b.started_at - a.started_at);
}

const KEY = "quire-study-jobs";
const MAX_AGE_MS = 24 * 3600 * 1000;
const MAX_JOBS = 20;

type Store = Pick<Storage, "getItem" | "setItem">;

function isPending(value: unknown): value is PendingJob {
  if (typeof value !== "object" || value === null) return false;
  const job = value as Partial<PendingJob>;
  return typeof job.job_id === "string" && typeof job.kind === "string" && typeof job.started_at === "number";
}

export function readPending(storage: Store, now = Date.now()): PendingJob[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(KEY) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(isPending).filter((job) => now - job.started_at < MAX_AGE_MS);
  } catch {
    return [];
  }
}

function write(storage: Store, jobs: PendingJob[]): void {
  try {
    storage.setItem(KEY, JSON.stringify(jobs.slice(0, MAX_JOBS)));
  } catch {
    // storage full or disabled: the job still runs, only the hub won't list it
  }
}

export function addPending(storage: Store, job: PendingJob): PendingJob[] {
  const jobs = [job, ...readPending(storage, job.started_at).filter((other) => other.job_id !== job.job_id)];
  write(storage, jobs);
  return jobs;
}

export function removePending(storage: Store, jobId: string, now = Date.now()): PendingJob[] {
  const jobs = readPending(storage, now).filter((job) => job.job_id !== jobId);
  write(storage, jobs);
  return jobs;
}
