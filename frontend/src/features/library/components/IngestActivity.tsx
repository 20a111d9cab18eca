/** Live progress for each upload: every file's stage, a bar, and the error in words if it failed. */
import type { ReactNode } from "react";
import { AlertTriangle, CheckCircle2, CircleSlash, FileText, RefreshCw, X } from "lucide-react";
import { Badge } from "@/components/Badge";
import { Button, IconButton } from "@/components/Button";
import { Progress } from "@/components/Progress";
import { Spinner } from "@/components/Spinner";
import { formatPercent, plural } from "@/lib/format";
import type { IngestItem } from "../api/types";
import { ingestStore, type IngestEntry } from "../hooks/ingestStore";
import { isActive, overallFraction, progressLabel, runSummary, stageName, statusTone } from "../lib/progress";

function ItemIcon({ item }: { item: IngestItem }) {
  if (item.status === "ready") return <CheckCircle2 size={16} className="text-ok" />;
  if (item.status === "failed") return <AlertTriangle size={16} className="text-danger" />;
  if (item.status === "skipped") return <CircleSlash size={16} className="text-ink-faint" />;
  return <FileText size={16} className="text-ink-faint" />;
}

function ItemRow({ item }: { item: IngestItem }) {
  const active = isActive(item.status);
  return (
    <li className="py-2.5" data-testid="ingest-item" data-status={item.status} data-filename={item.filename}>
      <div className="flex items-center gap-2.5">
        <ItemIcon item={item} />
        <span className="min-w-0 flex-1 truncate text-sm font-medium" title={item.filename}>{item.filename}</span>
        <Badge tone={statusTone(item.status)} dot={active} pulse={active}>{stageName(item.status)}</Badge>
      </div>
      <div className="mt-1.5 pl-[26px]">
        {active && (
          <Progress
            label={`${item.filename}: ${progressLabel(item)}`}
            value={item.status === "queued" ? undefined : overallFraction(item)}
            className="mb-1.5"
          />
        )}
        <p className={item.status === "failed" ? "text-[13px] text-danger" : "text-[13px] text-ink-muted"}>
          {progressLabel(item)}
        </p>
        {item.warnings.map((warning) => (
          <p key={warning} className="mt-0.5 text-[13px] text-warn">{warning}</p>
        ))}
      </div>
    </li>
  );
}

function EntryHeader({ entry }: { entry: IngestEntry }) {
  const items = entry.snapshot?.documents ?? [];
  let title = entry.label;
  let status: ReactNode = null;
  if (entry.uploading !== undefined) {
    title = `Uploading ${entry.label}`;
    status = <span className="text-[13px] text-ink-muted">{formatPercent(entry.uploading)}</span>;
  } else if (items.length) {
    title = items.length === 1 ? (items[0]?.filename ?? entry.label) : plural(items.length, "file");
    status = <span className="text-[13px] text-ink-muted">{runSummary(items)}</span>;
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

function Entry({ entry }: { entry: IngestEntry }) {
  const items = entry.snapshot?.documents ?? [];
  return (
    <li className="rounded-xl border border-line bg-surface px-4 py-3" data-testid="ingest-entry">
      <EntryHeader entry={entry} />
      {entry.uploading !== undefined && <Progress label={`Uploading ${entry.label}`} value={entry.uploading} className="mt-2.5" />}
      {items.length > 0 && <ul className="mt-1 divide-y divide-line">{items.map((item) => <ItemRow key={item.id} item={item} />)}</ul>}
      {entry.rejected.length > 0 && (
        <ul className="mt-2 space-y-1.5 rounded-lg bg-danger-soft p-2.5">
          {entry.rejected.map((rejected) => (
            <li key={rejected.filename + rejected.code} className="text-[13px] text-danger" data-testid="rejected-file">
              <span className="font-medium">{rejected.filename}</span> — {rejected.message}
            </li>
          ))}
        </ul>
      )}
      {entry.error && entry.rejected.length === 0 && <p role="alert" className="mt-2 text-[13px] text-danger">{entry.error}</p>}
    </li>
  );
}

export function IngestActivity({ entries }: { entries: IngestEntry[] }) {
  if (!entries.length) return null;
  const finished = entries.filter((entry) => entry.ended).length;
  const announce = entries
    .flatMap((entry) => entry.snapshot?.documents ?? [])
    .filter((item) => !isActive(item.status))
    .map((item) => `${item.filename}: ${stageName(item.status)}`)
    .join(". ");
  return (
    <section aria-labelledby="activity-title" className="space-y-2">
      <div className="flex items-center justify-between">
        <h2 id="activity-title" className="text-sm font-semibold text-ink-muted">Processing</h2>
        {finished > 1 && <Button size="sm" variant="ghost" onClick={() => ingestStore.dismissFinished()}>Clear finished</Button>}
      </div>
      <p aria-live="polite" className="sr-only">{announce}</p>
      <ul className="space-y-2">{entries.map((entry) => <Entry key={entry.key} entry={entry} />)}</ul>
    </section>
  );
}
