/**
 * The Quire processes sharing this vault's database, for whoever runs them: per process its queue work
 * (what it is running, what it has read and embedded), its state — alive, silent (not heard from: its work
 * waits to be taken over), fenced (it hung while holding its session; another ended its sessions and took
 * its work over), taken over (it died), stopped — and the recent takeovers. Read from `GET /api/health`.
 */
import { Cpu, Server } from "lucide-react";
import { Badge, type Tone } from "@/components/Badge";
import type { ProcessStatus, Takeover } from "@/api/types";
import { formatRelative, plural } from "@/lib/format";

const WORKFLOW_LABELS: Record<string, string> = {
  ingest_workflow: "upload",
  ingest_document_workflow: "document",
  embed_backfill_workflow: "embedding catch-up",
  study_job_workflow: "study job",
};

const STATES: Record<ProcessStatus["state"], { label: string; tone: Tone }> = {
  alive: { label: "alive", tone: "ok" },
  silent: { label: "silent", tone: "danger" },
  fenced: { label: "fenced, work taken over", tone: "warn" },
  taken_over: { label: "gone, work taken over", tone: "warn" },
  stopped: { label: "stopped", tone: "neutral" },
};

function describeQueueWork(process: ProcessStatus): string {
  const running = Object.entries(process.activity.by_workflow ?? {})
    .map(([name, count]) => plural(count, WORKFLOW_LABELS[name] ?? name.replaceAll("_", " ")));
  return running.length ? `Working on ${running.join(", ")}` : "Idle";
}

function describeWork(process: ProcessStatus): string | null {
  const work = process.activity.work ?? {};
  const parts = [
    work.pages_read ? plural(work.pages_read, "page") + " read" : null,
    work.passages_embedded ? plural(work.passages_embedded, "passage") + " embedded" : null,
  ].filter(Boolean);
  return parts.length ? `${parts.join(", ")} since it started` : null;
}

function describeState(process: ProcessStatus): string {
  switch (process.state) {
    case "alive":
      return describeQueueWork(process);
    case "silent":
      return `Not heard from for ${Math.round(process.silent_s)} s; its unfinished work waits to be taken over`;
    case "fenced":
    case "taken_over":
      return `Last seen ${formatRelative(process.last_seen)}; ${plural(process.recovered_workflows, "workflow")} `
        + `resumed by ${process.taken_over_by ?? "another process"}`
        + (process.state === "fenced" ? ` after ending its ${plural(process.sessions_ended, "session")}` : "");
    default:
      return `Stopped ${formatRelative(process.last_seen)}`;
  }
}

function ProcessRow({ process }: { process: ProcessStatus }) {
  const Icon = process.mode === "worker" ? Cpu : Server;
  const state = STATES[process.state];
  const work = describeWork(process);
  return (
    <li className="flex items-start gap-3 py-2.5" data-testid="worker-row" data-state={process.state}>
      <Icon size={16} className="mt-0.5 shrink-0 text-ink-muted" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-[13px]">
          <code className="font-mono text-xs break-all">{process.executor_id}</code>
          <span className="text-ink-muted">{process.mode === "worker" ? "worker" : "server"}</span>
          {process.this_process && <Badge tone="accent">this window's server</Badge>}
          <Badge tone={state.tone} dot pulse={process.state === "silent"}>{state.label}</Badge>
        </p>
        <p className="text-xs text-ink-muted">
          {describeState(process)}
          {" · "}pid {process.pid} on {process.hostname}
        </p>
        {work && <p className="text-xs text-ink-muted">{work}</p>}
      </div>
    </li>
  );
}

function TakeoverRow({ takeover }: { takeover: Takeover }) {
  const how = takeover.sessions_ended
    ? `hung ${Math.round(takeover.silent_s)} s, fenced: ${plural(takeover.sessions_ended, "session")} ended`
    : `silent ${Math.round(takeover.silent_s)} s, gone`;
  return (
    <li className="text-xs text-ink-muted" data-testid="takeover-row">
      {formatRelative(takeover.at)}: <code className="font-mono">{takeover.taken_over_by}</code> took over{" "}
      <code className="font-mono">{takeover.executor_id}</code> ({how}) and resumed{" "}
      {plural(takeover.workflows, "workflow")}
    </li>
  );
}

export function WorkersPanel({ processes, takeovers }: { processes: ProcessStatus[]; takeovers: Takeover[] }) {
  const alive = processes.filter((p) => p.alive).length;
  const silent = processes.filter((p) => p.state === "silent").length;
  return (
    <div data-testid="workers-panel">
      <p className="text-[13px] text-ink-muted">
        {plural(alive, "process", "processes")} alive on this database
        {silent > 0 && <>, <strong className="text-danger">{plural(silent, "silent one", "silent ones")}</strong></>}.
        Uploads, embeddings and study jobs are shared between them; if one stops or hangs, another resumes its
        unfinished work.
      </p>
      <ul className="mt-2 divide-y divide-line">
        {processes.map((process) => <ProcessRow key={process.executor_id} process={process} />)}
      </ul>
      {takeovers.length > 0 && (
        <div className="mt-3" data-testid="takeovers">
          <p className="text-[13px] font-medium">Recent takeovers</p>
          <ul className="mt-1 space-y-1">
            {takeovers.map((t) => <TakeoverRow key={`${t.at}-${t.executor_id}`} takeover={t} />)}
          </ul>
        </div>
      )}
    </div>
  );
}
