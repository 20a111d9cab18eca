/**
 * What is being made — asked for here or in another browser: one row per job, polled, linking to its
 * progress page. A finished job leaves the list (its result appears in its section); a failed one stays
 * with the reason until dismissed.
 */
import { useEffect } from "react";
import { AlertTriangle, X } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { IconButton } from "@/components/Button";
import { Spinner } from "@/components/Spinner";
import { formatRelative } from "@/lib/format";
import { useJob } from "../api/jobs";
import { studyKeys } from "../api/keys";
import { pendingJobs } from "../hooks/pendingJobs";
import { KIND_NOUN, type PendingJob } from "../lib/jobs";

function JobRow({ pending }: { pending: PendingJob }) {
  const job = useJob(pending.job_id);
  const queryClient = useQueryClient();
  const status = job.data?.status;
  const gone = job.isError;

  useEffect(() => {
    if (status === "succeeded" || gone) {
      pendingJobs.remove(pending.job_id);
      if (status === "succeeded") void queryClient.invalidateQueries({ queryKey: studyKeys.all });
    }
  }, [status, gone, pending.job_id, queryClient]);

  if (status === "succeeded") return null; // leaving the list; its result is in its section
  const failed = status === "failed";
  const detail = failed
    ? job.data?.error?.message
    : pending.label ? `from ${pending.label}` : `started ${formatRelative(new Date(pending.started_at).toISOString())}`;
  return (
    <li className="flex items-center gap-3 px-4 py-2.5" data-testid="pending-job" data-status={status ?? "queued"}>
      {failed ? <AlertTriangle size={16} className="shrink-0 text-danger" /> : <Spinner size={15} className="shrink-0 text-accent" />}
      <Link to={`/study/jobs/${encodeURIComponent(pending.job_id)}`} className="min-w-0 flex-1 text-sm hover:underline">
        <span className="font-medium">{failed ? `The ${KIND_NOUN[pending.kind]} couldn't be made` : `Making a ${KIND_NOUN[pending.kind]}`}</span>
        {detail && <span className="text-ink-muted"> · {detail}</span>}
      </Link>
      {failed && (
        <IconButton label="Dismiss" size="sm" onClick={() => pendingJobs.remove(pending.job_id)}>
          <X size={15} />
        </IconButton>
      )}
    </li>
  );
}

export function PendingJobs({ jobs }: { jobs: PendingJob[] }) {
  if (!jobs.length) return null;
  return (
    <section aria-label="Being made" className="rounded-2xl border border-line bg-surface shadow-card">
      <ul className="divide-y divide-line">
        {jobs.map((pending) => <JobRow key={pending.job_id} pending={pending} />)}
      </ul>
    </section>
  );
}
