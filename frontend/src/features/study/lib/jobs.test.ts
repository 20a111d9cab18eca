import { describe, expect, it } from "vitest";
import type { Job } from "../api/types";
import { addPending, isTerminal, jobActivity, mergeJobs, pollDelay, readPending, removePending, resultPath, type PendingJob } from "./jobs";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

const pending = (job_id: string, started_at: number): PendingJob =>
  ({ job_id, kind: "quiz", generator: "quiz", label: "Biology", started_at });

describe("job polling", () => {
  it("is over only when the job succeeded or failed", () => {
    expect(["queued", "running", "succeeded", "failed"].map((s) => isTerminal(s as Job["status"])))
      .toEqual([false, false, true, true]);
    expect(isTerminal(undefined)).toBe(false);
  });

  it("asks often at first and then settles down", () => {
    expect(pollDelay(0)).toBe(800);
    expect(pollDelay(9_999)).toBe(800);
    expect(pollDelay(10_000)).toBe(1_500);
    expect(pollDelay(59_999)).toBe(1_500);
    expect(pollDelay(5 * 60_000)).toBe(3_000);
  });

  it("says what is happening, and why a long wait is normal", () => {
    expect(jobActivity("quiz", "queued", 2)).toBe("Getting ready…");
    expect(jobActivity("deck", "queued", 30)).toMatch(/another generation is finishing/);
    expect(jobActivity("quiz", "running", 5)).toBe("Reading your documents and writing questions…");
    expect(jobActivity("mindmap", "running", 120)).toMatch(/take a few minutes/);
  });

  it("maps a finished job to the screen of its result", () => {
    const job = (kind: Job["kind"], result_url: string | null = null) => ({ kind, result_id: "r1", result_url });
    expect(resultPath(job("quiz"))).toBe("/study/quizzes/r1");
    expect(resultPath(job("recap"))).toBe("/study/quizzes/r1");
    expect(resultPath(job("deck"))).toBe("/study/decks/r1");
    expect(resultPath(job("mindmap"))).toBe("/study/mindmaps/r1");
    expect(resultPath(job("lesson", "/api/study/workshops/r1/lessons/3"))).toBe("/study/workshops/r1/lessons/3");
    expect(resultPath({ kind: "quiz", result_id: null, result_url: null })).toBeNull();
  });
});

describe("jobs this browser started", () => {
  it("adds newest first without duplicates and removes by id", () => {
    const storage = memoryStorage();
    addPending(storage, pending("a", 1_000));
    addPending(storage, pending("b", 2_000));
    expect(addPending(storage, pending("a", 3_000)).map((job) => job.job_id)).toEqual(["a", "b"]);
    expect(removePending(storage, "a", 3_000).map((job) => job.job_id)).toEqual(["b"]);
  });

  it("forgets jobs older than a day and survives garbage in storage", () => {
    const day = 24 * 3600 * 1000;
    const storage = memoryStorage({ "quire-study-jobs": JSON.stringify([pending("old", 0), pending("new", day), { nope: 1 }]) });
    expect(readPending(storage, day + 10).map((job) => job.job_id)).toEqual(["new"]);
    expect(readPending(memoryStorage({ "quire-study-jobs": "{not json" }))).toEqual([]);
  });
});

describe("the hub's list of jobs being made", () => {
  const server = (job_id: string, created_at: string, kind: Job["kind"] = "deck"): Job => ({
    job_id, kind, status: "running", result_id: null, result_url: null, error: null, created_at, started_at: created_at,
    finished_at: null,
  });

  it("adds the server's active jobs this browser didn't know, newest first, keeping what it knew", () => {
    const mine = pending("mine", Date.parse("2026-03-01T10:00:00Z"));
    const merged = mergeJobs([mine], [
      server("elsewhere", "2026-03-01T10:05:00Z", "mindmap"),
      server("mine", "2026-03-01T10:00:00Z", "quiz"),
      server("older", "2026-03-01T09:00:00Z"),
    ], new Set());
    expect(merged.map((job) => job.job_id)).toEqual(["elsewhere", "mine", "older"]);
    expect(merged[0]).toEqual({ job_id: "elsewhere", kind: "mindmap", started_at: Date.parse("2026-03-01T10:05:00Z") });
    expect(merged[1]).toBe(mine); // its label and parameters (for "try again") are kept
  });

  it("lists what it knows before the server answers, and doesn't bring back a job it saw finish", () => {
    const mine = pending("mine", 1_000);
    expect(mergeJobs([mine], undefined, new Set())).toEqual([mine]);
    expect(mergeJobs([], [server("done", "2026-03-01T10:00:00Z")], new Set(["done"]))).toEqual([]);
  });
});
