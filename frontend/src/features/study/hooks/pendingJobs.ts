/**
 * The generation jobs this browser knows about and hasn't seen finish, as a small external store over
 * localStorage (other tabs' changes arrive through the `storage` event), and the hub's list: those
 * merged with the jobs the server is making, the unknown ones adopted so they stay until they end.
 */
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { useActiveJobs } from "../api/jobs";
import { addPending, mergeJobs, readPending, removePending, type PendingJob } from "../lib/jobs";

const listeners = new Set<() => void>();
let snapshot: PendingJob[] | null = null;
/** Jobs removed in this session (finished, dismissed, gone): not to be adopted again from a stale list. */
const finished = new Set<string>();

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function emit(next: PendingJob[]): void {
  snapshot = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    const store = storage();
    if (event.key === null || event.key.startsWith("quire-study")) emit(store ? readPending(store) : []);
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function getSnapshot(): PendingJob[] {
  if (snapshot === null) {
    const store = storage();
    snapshot = store ? readPending(store) : [];
  }
  return snapshot;
}

export const pendingJobs = {
  add(job: PendingJob): void {
    const store = storage();
    if (store) emit(addPending(store, job));
  },
  remove(jobId: string): void {
    finished.add(jobId);
    const store = storage();
    if (store && getSnapshot().some((job) => job.job_id === jobId)) emit(removePending(store, jobId));
  },
  get(jobId: string): PendingJob | undefined {
    return getSnapshot().find((job) => job.job_id === jobId);
  },
};

function usePendingJobs(): PendingJob[] {
  return useSyncExternalStore(subscribe, getSnapshot, () => []);
}

/** What the hub lists as being made: this browser's jobs and the server's, newest first. */
export function useHubJobs(): PendingJob[] {
  const known = usePendingJobs();
  const active = useActiveJobs();
  const jobs = useMemo(() => mergeJobs(known, active.data, finished), [known, active.data]);
  useEffect(() => {
    const ids = new Set(known.map((job) => job.job_id));
    jobs.filter((job) => !ids.has(job.job_id)).forEach((job) => pendingJobs.add(job));
  }, [jobs, known]);
  return jobs;
}
