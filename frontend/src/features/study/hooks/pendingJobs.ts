/**
 * The generation jobs this browser started and hasn't seen finish, as a small external store over
 * localStorage (other tabs' changes arrive through the `storage` event).
 */
import { useSyncExternalStore } from "react";
import { addPending, readPending, removePending, type PendingJob } from "../lib/jobs";

const listeners = new Set<() => void>();
let snapshot: PendingJob[] | null = null;

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
    const store = storage();
    if (store && getSnapshot().some((job) => job.job_id === jobId)) emit(removePending(store, jobId));
  },
  get(jobId: string): PendingJob | undefined {
    return getSnapshot().find((job) => job.job_id === jobId);
  },
};

export function usePendingJobs(): PendingJob[] {
  return useSyncExternalStore(subscribe, getSnapshot, () => []);
}
