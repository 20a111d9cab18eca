/**
 * The Quire processes sharing this vault's database: which are alive, what each is working on, and
 * which one took over the work of a process that died. Read from `GET /api/health`.
 */
import { Cpu, Server } from "lucide-react";
import { Badge } from "@/components/Badge";
import type { ProcessStatus } from "@/api/types";
import { formatRelative, plural } from "@/lib/format";

const WORKFLOW_LABELS: Record<string, string> = {
  ingest_workflow: "upload",
  ingest_document_workflow: "document",
  embed_backfill_workflow: "embedding catch-up",
  study_job_workflow: "study job",
};

function describeActivity(process: ProcessStatus): string {
  const running = Object.entries(process.activity.by_workflow ?? {})
    .map(([name, count]) => plural(count, WORKFLOW_LABELS[name] ?? name.replaceAll("_", " ")));
  return running.length ? `Working on ${running.join(", ")}` : "Idle";
}

function ProcessRow({ process }: { process: ProcessStatus }) {
  const Icon = process.mode === "worker" ? Cpu : Server;
  return (
    <li className="flex items-start gap-3 py-2.5" data-testid="worker-row">
      <Icon size={16} className="mt-0.5 shrink-0 text-ink-muted" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-[13px]">
          <code className="font-mono text-xs break-all">{process.executor_id}</code>
          <span className="text-ink-muted">{process.mode === "worker" ? "worker" : "server"}</span>
          {process.this_process && <Badge tone="accent">this window's server</Badge>}
          {process.alive
            ? <Badge tone="ok">alive</Badge>
            : <Badge tone="warn">{process.taken_over_by ? "stopped, work taken over" : "silent"}</Badge>}
        </p>
        <p className="text-xs text-ink-muted">
          {process.alive ? describeActivity(process) : `Last seen ${formatRelative(process.last_seen)}`}
          {" · "}pid {process.pid} on {process.hostname}
          {process.taken_over_by && ` · ${plural(process.recovered_workflows, "workflow")} resumed by ${process.taken_over_by}`}
        </p>
      </div>
    </li>
  );
}

export function WorkersPanel({ processes }: { processes: ProcessStatus[] }) {
  const alive = processes.filter((p) => p.alive).length;
  return (
    <div data-testid="workers-panel">
      <p className="text-[13px] text-ink-muted">
        {plural(alive, "process", "processes")} alive on this database. Uploads, embeddings and study jobs are
        shared between them; if one stops, another resumes its unfinished work.
      </p>
      <ul className="mt-2 divide-y divide-line">
        {processes.map((process) => <ProcessRow key={process.executor_id} process={process} />)}
      </ul>
    </div>
  );
}
