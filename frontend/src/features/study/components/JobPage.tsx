/**
 * A generation in progress: a calm, indeterminate progress view that says what the model is doing and
 * for how long, then opens the result — or says in words why it failed and offers to try again. The job
 * id is in the URL, so a reload (or coming back later) picks it up again.
 */
import { useEffect, useState } from "react";
import { AlertTriangle, RefreshCw } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { Navigate, useNavigate, useParams } from "react-router";
import { Button } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { CodeText } from "@/components/CodeText";
import { Progress } from "@/components/Progress";
import { ApiError, errorMessage } from "@/lib/api";
import { formatClock } from "@/lib/duration";
import { plural } from "@/lib/format";
import { startGeneration, useJob } from "../api/jobs";
import { studyKeys } from "../api/keys";
import type { Job } from "../api/types";
import { pendingJobs } from "../hooks/pendingJobs";
import { useElapsed } from "../hooks/useElapsed";
import { jobActivity, KIND_NOUN, newClientToken, resultPath } from "../lib/jobs";
import { isGeneratorKind, JOB_ICONS, KINDS } from "./kinds";
import { PageShell, StudyHeader } from "./StudyLayout";

function Working({ job, label }: { job: Job; label?: string }) {
  const elapsed = useElapsed(job.created_at);
  const Icon = JOB_ICONS[job.kind];
  return (
    <div className="rounded-2xl border border-line bg-surface px-5 py-10 text-center shadow-card sm:px-10" data-testid="job-progress" data-status={job.status}>
      <div className="mx-auto mb-5 flex size-14 items-center justify-center rounded-2xl bg-accent-soft text-accent-soft-ink">
        <Icon size={24} className="animate-pulse-soft" />
      </div>
      <h2 className="text-lg font-semibold">Making your {KIND_NOUN[job.kind]}</h2>
      {label && <p className="mt-0.5 text-sm text-ink-muted">from {label}</p>}
      <div className="mx-auto mt-6 max-w-sm">
        <Progress label={`Generating the ${KIND_NOUN[job.kind]}`} />
        <div className="mt-2 flex items-center justify-between gap-3 text-[13px] text-ink-muted">
          <span role="status" aria-live="polite">{jobActivity(job.kind, job.status, elapsed)}</span>
          <span className="shrink-0 tabular-nums text-ink-faint" aria-label={`${plural(Math.floor(elapsed), "second")} so far`}>{formatClock(elapsed)}</span>
        </div>
      </div>
      <p className="mx-auto mt-8 max-w-sm text-[13px] text-ink-faint">
        It keeps going if you leave this page — you'll find it in the Study hub when it's ready.
      </p>
      <div className="mt-4">
        <ButtonLink to="/study" size="sm" variant="ghost">Back to Study</ButtonLink>
      </div>
    </div>
  );
}

function Failed({ job }: { job: Job }) {
  const navigate = useNavigate();
  const pending = pendingJobs.get(job.job_id);
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState<unknown>(null);
  const noun = KIND_NOUN[job.kind];
  const canRetry = Boolean(pending?.generator && pending.params);
  const generator = pending?.generator ?? (isGeneratorKind(job.kind) ? job.kind : undefined);

  const retry = async () => {
    if (!pending?.generator || !pending.params) return;
    setRetrying(true);
    try {
      const next = await startGeneration(pending.generator, pending.params, newClientToken());
      pendingJobs.remove(job.job_id);
      pendingJobs.add({ ...pending, job_id: next.job_id, started_at: Date.now() });
      navigate(`/study/jobs/${encodeURIComponent(next.job_id)}`, { replace: true });
    } catch (error) {
      setRetryError(error);
      setRetrying(false);
    }
  };

  const message = retryError ? errorMessage(retryError) : job.error?.message || "The generation stopped without saying why.";
  const noModel = job.error?.code === "model_unavailable" || (retryError instanceof ApiError && retryError.code === "model_unavailable");
  return (
    <div role="alert" className="rounded-2xl border border-line bg-surface px-5 py-10 text-center shadow-card sm:px-10" data-testid="job-progress" data-status="failed">
      <div className="mx-auto mb-5 flex size-14 items-center justify-center rounded-2xl bg-danger-soft text-danger">
        <AlertTriangle size={24} />
      </div>
      <h2 className="text-lg font-semibold">{noModel ? "No model to write it with" : `The ${noun} couldn't be made`}</h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-ink-muted"><CodeText text={message} /></p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        {canRetry && (
          <Button variant="primary" icon={<RefreshCw size={15} />} loading={retrying} onClick={() => void retry()}>Try again</Button>
        )}
        {/* Without what was asked for (it was asked in another browser), a fresh form is the way forward. */}
        {generator && (
          <ButtonLink to={`/study/new/${generator}`} variant={canRetry ? "secondary" : "primary"}>
            {canRetry ? "Change the settings" : `New ${KINDS[generator].noun}`}
          </ButtonLink>
        )}
        <ButtonLink to="/study" variant="ghost" onClick={() => pendingJobs.remove(job.job_id)}>Back to Study</ButtonLink>
      </div>
    </div>
  );
}

export function JobPage() {
  const { jobId = "" } = useParams();
  const job = useJob(jobId);
  const queryClient = useQueryClient();
  const data = job.data;
  const target = data?.status === "succeeded" ? resultPath(data) : null;

  useEffect(() => {
    if (data?.status !== "succeeded") return;
    pendingJobs.remove(data.job_id);
    void queryClient.invalidateQueries({ queryKey: studyKeys.all });
  }, [data?.status, data?.job_id, queryClient]);

  if (target) return <Navigate to={target} replace />;
  const label = pendingJobs.get(jobId)?.label;

  return (
    <PageShell narrow>
      <StudyHeader back={{ to: "/study", label: "Study" }} title={data ? `New ${KIND_NOUN[data.kind]}` : "Generating"} />
      {job.isPending && <div className="h-72 animate-pulse-soft rounded-2xl bg-surface-2" aria-label="Loading" role="status" />}
      {job.isError && (
        <div role="alert" className="rounded-2xl border border-line bg-surface p-6 text-sm">
          <p className="font-medium">This generation can't be found.</p>
          <p className="mt-1 text-ink-muted">{errorMessage(job.error)}</p>
          <div className="mt-4"><ButtonLink to="/study" onClick={() => pendingJobs.remove(jobId)}>Back to Study</ButtonLink></div>
        </div>
      )}
      {data && data.status !== "failed" && data.status !== "succeeded" && <Working job={data} label={label} />}
      {data?.status === "failed" && <Failed job={data} />}
    </PageShell>
  );
}
