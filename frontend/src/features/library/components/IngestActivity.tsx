/**
 * Live progress for each upload: every file's stage, a bar, and the error in words if it failed. Files
 * refused outright are counted here and listed, with reasons, in the "Not added" group.
 */
import { useCallback, useMemo, type ReactNode } from "react";
import { AlertTriangle, CheckCircle2, CircleSlash, FileText, Info, RefreshCw, X } from "lucide-react";
import type { DocumentOut } from "@/api/types";
import { Badge } from "@/components/Badge";
import { PageWarningList } from "@/components/PageWarningList";
import { Button, IconButton } from "@/components/Button";
import { Progress } from "@/components/Progress";
import { Spinner } from "@/components/Spinner";
import { formatPercent, plural } from "@/lib/format";
import type { IngestItem } from "../api/types";
import { ingestStore, type IngestEntry } from "../hooks/ingestStore";
import {
  afterCancel, cancelOutcome, isActive, overallFraction, progressLabel, runSummary, stageName, statusTone, type DocumentStatusOf,
} from "../lib/progress";
import { CancelRun } from "./CancelRun";
import { EmbeddingNote } from "./EmbeddingNote";

type Outcome = ReturnType<typeof afterCancel>;

function ItemIcon({ item, outcome }: { item: IngestItem; outcome: Outcome }) {
  if (item.status === "ready") return <CheckCircle2 size={16} className="shrink-0 text-ok" />;
  if (outcome !== null || item.status === "skipped") return <CircleSlash size={16} className="shrink-0 text-ink-faint" />;
  if (item.status === "failed") return <AlertTriangle size={16} className="shrink-0 text-danger" />;
  return <FileText size={16} className="shrink-0 text-ink-faint" />;
}

function ItemDetail({ item, outcome }: { item: IngestItem; outcome: Outcome }) {
  // A cancelled file needs no line of its own: the entry says what the cancel did.
  if (outcome === "cancelled") return null;
  if (outcome === "earlier") return <p className="text-[13px] text-ink-muted">Not added — the earlier version stays in your library.</p>;
  return <p className={item.status === "failed" ? "text-[13px] text-danger" : "text-[13px] text-ink-muted"}>{progressLabel(item)}</p>;
}

const STEP_WORD: Record<IngestItem["steps"][number]["name"], string> = { read: "Read", store: "Stored", embed: "Embedded" };
const STOPPED_WORD: Record<IngestItem["steps"][number]["name"], string> = { read: "Reading", store: "Storing", embed: "Embedding" };

function seconds(value: number): string {
  return value < 10 ? `${value.toFixed(1)} s` : `${Math.round(value)} s`;
}

/**
 * The document's steps so far with their times ("Read 2.1 s · Stored 0.3 s · Embedded 1.4 s, 3 batches").
 * A step still open when the file's processing ended (a cancel, a failure) says it stopped, not "…".
 */
function StepTimes({ steps, ended }: { steps: IngestItem["steps"]; ended: boolean }) {
  if (!steps.length) return null;
  return (
    <p className="mt-0.5 text-xs text-ink-faint" data-testid="item-steps">
      {steps.map((step, index) => (
        <span key={step.name} data-step={step.name} data-status={step.status}>
          {index > 0 && " · "}
          {step.seconds !== null ? `${STEP_WORD[step.name]} ${seconds(step.seconds)}`
            : ended ? `${STOPPED_WORD[step.name]} stopped` : `${STEP_WORD[step.name]} …`}
          {step.parts > 1 && `, ${plural(step.parts, "batch", "batches")}`}
          {step.executions > step.parts && " (resumed)"}
        </span>
      ))}
    </p>
  );
}

function ItemRow({ item, outcome }: { item: IngestItem; outcome: Outcome }) {
  const active = isActive(item.status);
  return (
    <li className="py-2.5" data-testid="ingest-item" data-status={outcome ?? item.status} data-filename={item.filename}>
      <div className="flex items-center gap-2.5">
        <ItemIcon item={item} outcome={outcome} />
        <span className="min-w-0 flex-1 truncate text-sm font-medium" title={item.filename}>{item.filename}</span>
        <Badge tone={outcome !== null ? "neutral" : statusTone(item.status)} dot={active} pulse={active}>
          {outcome !== null ? "Cancelled" : stageName(item.status)}
        </Badge>
      </div>
      <div className="pl-[26px]">
        {active && (
          <Progress
            label={`${item.filename}: ${progressLabel(item)}`}
            value={item.status === "queued" ? undefined : overallFraction(item)}
            className="mt-1.5 mb-1.5"
          />
        )}
        <ItemDetail item={item} outcome={outcome} />
        {/* The server read the file by its content, not its name: said, never silent. */}
        {item.read_as && (
          <p className="mt-0.5 flex items-center gap-1.5 text-[13px] text-ink-muted" data-testid="read-as">
            <Info size={13} className="shrink-0" /> {item.read_as}
          </p>
        )}
        {item.warnings.map((warning) => (
          <p key={warning} className="mt-0.5 text-[13px] text-warn">{warning}</p>
        ))}
        <PageWarningList documentId={item.id} warnings={item.page_warnings} />
        <StepTimes steps={item.steps} ended={!active} />
      </div>
    </li>
  );
}

function EntryHeader({ entry, statusOf }: { entry: IngestEntry; statusOf: DocumentStatusOf }) {
  const items = entry.snapshot?.documents ?? [];
  let title = entry.label;
  let status: ReactNode = null;
  if (entry.uploading !== undefined) {
    title = `Uploading ${entry.label}`;
    status = <span className="text-[13px] text-ink-muted">{formatPercent(entry.uploading)}</span>;
  } else if (items.length) {
    title = items.length === 1 ? (items[0]?.filename ?? entry.label) : plural(items.length, "file");
    status = <span className="text-[13px] text-ink-muted">{runSummary(items, entry.snapshot?.status, statusOf)}</span>;
  }
  const reconnecting = entry.runId && !entry.connected && !entry.ended;
  return (
    <div className="flex items-center gap-2">
      <h3 className="min-w-0 flex-1 truncate text-sm font-semibold">{title}</h3>
      {reconnecting && (
        <span role="status" className="inline-flex items-center gap-1.5 text-[13px] text-warn">
          <RefreshCw size={13} className="animate-spin" /> Reconnecting…
        </span>
      )}
      {status}
      <CancelRun entry={entry} />
      {entry.ended ? (
        <IconButton label="Dismiss" size="sm" onClick={() => ingestStore.dismiss(entry.key)}>
          <X size={15} />
        </IconButton>
      ) : (
        <Spinner size={14} className="text-ink-faint" />
      )}
    </div>
  );
}

function Entry({ entry, statusOf }: { entry: IngestEntry; statusOf: DocumentStatusOf }) {
  const items = entry.snapshot?.documents ?? [];
  const run = entry.snapshot?.status;
  return (
    <li className="rounded-xl border border-line bg-surface px-4 py-3" data-testid="ingest-entry" data-run-status={run}>
      <EntryHeader entry={entry} statusOf={statusOf} />
      {entry.uploading !== undefined && <Progress label={`Uploading ${entry.label}`} value={entry.uploading} className="mt-2.5" />}
      {run === "CANCELLED" && (
        <p role="status" data-testid="cancel-outcome" className="mt-2 flex items-start gap-2 rounded-lg bg-surface-2 px-3 py-2 text-[13px] text-ink">
          <CircleSlash size={15} className="mt-0.5 shrink-0 text-ink-muted" />
          {cancelOutcome(items, statusOf)}
        </p>
      )}
      {items.length > 0 && <ul className="mt-1 divide-y divide-line">{items.map((item) => (
        <ItemRow key={item.id} item={item} outcome={afterCancel(item, run, statusOf)} />
      ))}</ul>}
      {/* Refused files are listed (and kept by the server) under "Not added"; here only how many. */}
      {entry.rejected.length > 0 && (
        <p className="mt-2 flex items-center gap-2 rounded-lg bg-danger-soft px-2.5 py-1.5 text-[13px] text-danger" data-testid="rejected-summary">
          <AlertTriangle size={14} className="shrink-0" />
          {plural(entry.rejected.length, "file")} not added — the reasons are listed under “Not added”.
        </p>
      )}
      {entry.error && entry.rejected.length === 0 && <p role="alert" className="mt-2 text-[13px] text-danger">{entry.error}</p>}
    </li>
  );
}

/** `documents` is the library list: after a cancel it tells the files kept at an earlier version from the others. */
export function IngestActivity({ entries, documents }: { entries: IngestEntry[]; documents: DocumentOut[] }) {
  const statuses = useMemo(() => new Map(documents.map((doc) => [doc.id, doc.status])), [documents]);
  const statusOf = useCallback((id: string) => statuses.get(id), [statuses]);
  if (!entries.length) return null;
  const finished = entries.filter((entry) => entry.ended).length;
  const announce = entries
    .flatMap((entry) => (entry.snapshot?.documents ?? [])
      .filter((item) => !isActive(item.status))
      .map((item) => `${item.filename}: ${afterCancel(item, entry.snapshot?.status, statusOf) !== null ? "Cancelled" : stageName(item.status)}`))
    .join(". ");
  return (
    <section aria-labelledby="activity-title" className="space-y-2">
      <div className="flex items-center justify-between">
        <h2 id="activity-title" className="text-sm font-semibold text-ink-muted">Processing</h2>
        {finished > 1 && <Button size="sm" variant="ghost" onClick={() => ingestStore.dismissFinished()}>Clear finished</Button>}
      </div>
      <p aria-live="polite" className="sr-only">{announce}</p>
      <EmbeddingNote />
      <ul className="space-y-2">{entries.map((entry) => <Entry key={entry.key} entry={entry} statusOf={statusOf} />)}</ul>
    </section>
  );
}
