/**
 * What the library is ingesting, outside React so it keeps following runs while the user is on
 * another screen. Each entry is an upload (bytes still going up) that becomes a run once the server
 * accepts it; each run is followed over its event stream, reconnecting after a restart. Components
 * read it with `useSyncExternalStore`; document lists are refreshed when a file changes state.
 */
import type { RejectedUpload, UploadAccepted } from "@/api/types";
import { ApiError, errorMessage } from "@/lib/api";
import { cancelRun, followRun, type FollowResult } from "../api/ingest";
import { TERMINAL_RUN_STATUSES, type IngestItem, type IngestSnapshot, type NameConflict } from "../api/types";
import { nameConflicts } from "../lib/conflicts";

export interface IngestEntry {
  key: string;
  label: string;
  /** Upload progress 0–1 while bytes are going up. */
  uploading?: number;
  runId?: string;
  snapshot?: IngestSnapshot;
  connected: boolean;
  /** A cancel has been asked for and the server hasn't answered yet. */
  cancelling?: boolean;
  ended?: FollowResult;
  rejected: RejectedUpload[];
  error?: string;
}

type Listener = () => void;

/** What to show between the server accepting the files and the run's first progress line. */
function seedSnapshot(accepted: UploadAccepted): IngestSnapshot {
  return {
    workflow_id: accepted.workflow_id ?? "",
    status: "ENQUEUED",
    source: "upload",
    created_at: new Date().toISOString(),
    steps: [],
    executions: {},
    progress: { phase: "queued", done: 0, total: 0, detail: "" },
    documents: accepted.documents.map((doc) => ({
      id: doc.id, filename: doc.filename, kind: doc.kind, status: "queued", decision: null, error: null, warnings: [], page_warnings: [], steps: [], read_as: doc.read_as ?? null,
      progress: { done: 0, total: 0, detail: "" }, pages: null, blocks: null, embedded: null,
    })),
  };
}

function rejectedFrom(error: unknown): RejectedUpload[] {
  if (error instanceof ApiError && Array.isArray(error.details)) return error.details as RejectedUpload[];
  return [];
}

function statusSignature(snapshot: IngestSnapshot | undefined): string {
  return snapshot ? snapshot.documents.map((doc) => `${doc.id}:${doc.status}`).join(",") : "";
}

export class IngestStore {
  private entries: IngestEntry[] = [];
  private listeners = new Set<Listener>();
  private followers = new Map<string, AbortController>();
  private counter = 0;
  private dismissedRuns = new Set<string>();
  /** Called when documents changed state (new status, run ended): the app refreshes its lists. */
  onDocumentsChanged: () => void = () => undefined;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getEntries = (): IngestEntry[] => this.entries;

  private update(key: string, change: Partial<IngestEntry>): void {
    this.entries = this.entries.map((entry) => (entry.key === key ? { ...entry, ...change } : entry));
    this.listeners.forEach((listener) => listener());
  }

  private add(entry: IngestEntry): void {
    this.entries = [entry, ...this.entries];
    this.listeners.forEach((listener) => listener());
  }

  /**
   * Sends files (or a URL) through `send`, then follows the run the server started. A 409
   * `name_conflict` is no failure but a question: the entry goes away and the conflicts are returned
   * for the caller to ask about (null otherwise).
   */
  async submit(label: string, send: (onProgress: (fraction: number) => void) => Promise<UploadAccepted>): Promise<NameConflict[] | null> {
    const key = `upload-${++this.counter}`;
    this.add({ key, label, uploading: 0, connected: false, rejected: [] });
    try {
      const accepted = await send((fraction) => this.update(key, { uploading: fraction }));
      const runId = accepted.workflow_id ?? undefined;
      const existing = runId ? this.entries.find((entry) => entry.runId === runId && entry.key !== key) : undefined;
      if (existing) this.entries = this.entries.filter((entry) => entry.key !== existing.key);
      this.update(key, { uploading: undefined, runId, snapshot: seedSnapshot(accepted), rejected: accepted.rejected ?? [] });
      this.onDocumentsChanged();
      if (runId) this.follow(key, runId);
      else this.update(key, { ended: "GONE" });
    } catch (error) {
      const conflicts = nameConflicts(error);
      if (conflicts) {
        this.remove(key);
        return conflicts;
      }
      this.update(key, { uploading: undefined, ended: "ERROR", error: errorMessage(error), rejected: rejectedFrom(error) });
      this.onDocumentsChanged(); // a refused file is recorded by the server: the "Not added" list changed
    }
    return null;
  }

  private remove(key: string): void {
    this.entries = this.entries.filter((entry) => entry.key !== key);
    this.listeners.forEach((listener) => listener());
  }

  /** Follow a run that was already going (found after a reload or restart). */
  attach(runId: string, label = "Resumed ingestion"): void {
    if (this.dismissedRuns.has(runId) || this.entries.some((entry) => entry.runId === runId)) return;
    const key = `run-${runId}`;
    this.add({ key, label, runId, connected: false, rejected: [] });
    this.follow(key, runId);
  }

  /** Stops an entry's run; rejects with the server's error (the run then simply goes on). */
  async cancel(key: string): Promise<void> {
    const runId = this.entries.find((entry) => entry.key === key)?.runId;
    if (!runId) return;
    this.update(key, { cancelling: true });
    try {
      const snapshot = await cancelRun(runId);
      this.update(key, { snapshot });
      this.onDocumentsChanged();
    } finally {
      this.update(key, { cancelling: false });
    }
  }

  dismiss(key: string): void {
    const runId = this.entries.find((entry) => entry.key === key)?.runId;
    if (runId) this.dismissedRuns.add(runId);
    this.followers.get(key)?.abort();
    this.followers.delete(key);
    this.remove(key);
  }

  dismissFinished(): void {
    this.entries.filter((entry) => entry.ended).forEach((entry) => this.dismiss(entry.key));
  }

  private follow(key: string, runId: string): void {
    if (this.followers.has(key)) return;
    const controller = new AbortController();
    this.followers.set(key, controller);
    const onSnapshot = (snapshot: IngestSnapshot) => {
      const before = this.entries.find((entry) => entry.key === key)?.snapshot;
      this.update(key, { snapshot, connected: true });
      if (statusSignature(before) !== statusSignature(snapshot)) this.onDocumentsChanged();
    };
    followRun(runId, { onSnapshot, onConnection: (connected) => this.update(key, { connected }) }, controller.signal)
      .then((ended) => {
        const entry = this.entries.find((item) => item.key === key);
        const snapshot = entry?.snapshot && TERMINAL_RUN_STATUSES.has(ended) ? { ...entry.snapshot, status: ended as IngestSnapshot["status"] } : entry?.snapshot;
        this.update(key, { ended, connected: true, snapshot });
        this.onDocumentsChanged();
      })
      .catch(() => undefined) // aborted: the entry was dismissed
      .finally(() => this.followers.delete(key));
  }
}

export const ingestStore = new IngestStore();

/** The newest live state of each document being ingested, by document id. */
export function liveItems(entries: IngestEntry[]): Map<string, IngestItem> {
  const items = new Map<string, IngestItem>();
  for (const entry of [...entries].reverse()) {
    entry.snapshot?.documents.forEach((doc) => items.set(doc.id, doc));
  }
  return items;
}
