/**
 * Following an ingestion run live: reads `/api/ingest/{id}/events` and, when the connection drops
 * (server restarted, network blip), reconnects with backoff until the run reports its end. DBOS
 * resumes the run after a restart, so reconnecting is all the client has to do. A run can also be
 * cancelled: it stops at its next step, keeping the files already stored.
 */
import { ApiError, apiJson, apiSend, apiStream } from "@/lib/api";
import { backoffDelay, sleep } from "@/lib/backoff";
import type { IngestEvent, IngestRunSummary, IngestSnapshot, RunStatus } from "./types";

export function fetchRecentRuns(limit = 20): Promise<IngestRunSummary[]> {
  return apiJson<IngestRunSummary[]>(`/api/ingest?limit=${limit}`);
}

export function fetchRun(workflowId: string): Promise<IngestSnapshot> {
  return apiJson<IngestSnapshot>(`/api/ingest/${encodeURIComponent(workflowId)}`);
}

/** Stops a run at its next step boundary; answers with the run as it stands after the cancel. */
export function cancelRun(workflowId: string): Promise<IngestSnapshot> {
  return apiSend<IngestSnapshot>("POST", `/api/ingest/${encodeURIComponent(workflowId)}/cancel`);
}

export interface FollowHandlers {
  onSnapshot: (snapshot: IngestSnapshot) => void;
  onConnection?: (connected: boolean) => void;
}

export type FollowResult = RunStatus | "GONE";

function isEvent(value: unknown): value is IngestEvent {
  return typeof value === "object" && value !== null && "type" in value && "data" in value;
}

/** Streams a run's snapshots until it ends; resolves with its final status (or "GONE" if unknown). */
export async function followRun(workflowId: string, handlers: FollowHandlers, signal: AbortSignal): Promise<FollowResult> {
  let attempt = 0;
  for (;;) {
    try {
      const events = await apiStream(`/api/ingest/${encodeURIComponent(workflowId)}/events`, { signal });
      handlers.onConnection?.(true);
      attempt = 0;
      for await (const event of events) {
        if (event.type !== "value" || !isEvent(event.value)) continue;
        if (event.value.type === "progress") handlers.onSnapshot(event.value.data);
        else return event.value.data.status;
      }
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof ApiError && error.status === 404) return "GONE";
    }
    handlers.onConnection?.(false);
    await sleep(backoffDelay(attempt), signal);
    attempt += 1;
  }
}
