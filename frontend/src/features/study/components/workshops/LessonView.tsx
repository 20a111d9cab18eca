/**
 * One lesson. Lessons are written the first time they are opened: while the server answers 202 with
 * the job writing it, this polls that job and shows the text written so far (its draft), then the
 * lesson as soon as it is stored.
 * Written lessons render as sanitised Markdown with their sources, "mark complete" and a rewrite.
 */
import { useEffect } from "react";
import { AlertTriangle, ArrowLeft, ArrowRight, Check, RefreshCw } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { Badge } from "@/components/Badge";
import { Button } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { CodeText } from "@/components/CodeText";
import { Markdown } from "@/components/Markdown";
import { Progress } from "@/components/Progress";
import { Skeleton, SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { formatClock, formatMinutesEstimate } from "@/lib/duration";
import { useJob } from "@/features/study/api/jobs";
import { studyKeys } from "@/features/study/api/keys";
import type { Job, Workshop } from "@/features/study/api/types";
import { useCompleteLesson, useLesson, useRegenerateLesson } from "@/features/study/api/workshops";
import { useElapsed } from "@/features/study/hooks/useElapsed";
import { jobActivity } from "@/features/study/lib/jobs";
import { SourceLinks } from "../SourceLinks";

/** Follows a job and refreshes the lesson when it is done. */
function useLessonJob(job: Job | null | undefined, workshopId: string, n: number) {
  const followed = useJob(job?.job_id);
  const queryClient = useQueryClient();
  const status = followed.data?.status;
  useEffect(() => {
    if (status !== "succeeded") return;
    void queryClient.invalidateQueries({ queryKey: studyKeys.lesson(workshopId, n) });
    void queryClient.invalidateQueries({ queryKey: studyKeys.workshop(workshopId) });
  }, [status, queryClient, workshopId, n]);
  return followed.data ?? job ?? undefined;
}

function Writing({ job, onRetry }: { job: Job; onRetry: () => void }) {
  const elapsed = useElapsed(job.created_at, job.status !== "failed");
  if (job.status === "failed") {
    return (
      <div role="alert" className="rounded-xl border border-danger/30 bg-danger-soft px-4 py-4 text-sm">
        <p className="flex items-center gap-2 font-medium text-danger"><AlertTriangle size={15} /> This lesson couldn't be written</p>
        <p className="mt-1 text-ink-muted"><CodeText text={job.error?.message ?? "The model stopped without saying why."} /></p>
        <Button className="mt-3" size="sm" icon={<RefreshCw size={14} />} onClick={onRetry}>Try again</Button>
      </div>
    );
  }
  return (
    <div className="space-y-5" data-testid="lesson-writing">
      <div className="rounded-xl bg-accent-soft/60 px-4 py-3">
        <div className="flex items-center justify-between gap-3 text-[13px]">
          <span role="status" className="text-accent-soft-ink">{jobActivity("lesson", job.status, elapsed)}</span>
          <span className="shrink-0 tabular-nums text-ink-faint">{formatClock(elapsed)}</span>
        </div>
        <Progress className="mt-2" label="Writing the lesson" />
      </div>
      {job.draft ? (
        // The text so far (sanitised Markdown like the finished lesson); it grows with each poll.
        <div data-testid="lesson-draft">
          <Markdown className="text-[15px]">{job.draft}</Markdown>
          <p aria-hidden="true" className="mt-2 flex gap-1">
            {[0, 1, 2].map((dot) => (
              <span key={dot} className="size-1.5 animate-pulse rounded-full bg-accent" style={{ animationDelay: `${dot * 150}ms` }} />
            ))}
          </p>
        </div>
      ) : (
        <div className="space-y-2.5" aria-hidden="true">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-11/12" />
          <Skeleton className="h-4 w-4/5" />
          <Skeleton className="mt-6 h-5 w-1/4" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      )}
    </div>
  );
}

export function LessonView({ workshop, n }: { workshop: Workshop; n: number }) {
  const lesson = useLesson(workshop.id, n);
  const complete = useCompleteLesson(workshop.id);
  const regenerate = useRegenerateLesson(workshop.id);
  const toast = useToast();
  const queryClient = useQueryClient();
  const meta = workshop.lessons.find((item) => item.n === n);
  const result = lesson.data;
  const writingJob = useLessonJob(result?.kind === "writing" ? result.job : null, workshop.id, n);
  // The rewrite just asked for here, or one already under way when the lesson was opened.
  const rewriteJob = useLessonJob(regenerate.data ?? (result?.kind === "lesson" ? result.lesson.regenerating : null), workshop.id, n);
  const rewriting = rewriteJob && rewriteJob.status !== "succeeded" && rewriteJob.status !== "failed";
  const done = Boolean(meta?.completed_at);
  const previous = n > 1 ? n - 1 : null;
  const next = n < workshop.lesson_count ? n + 1 : null;

  const refetch = () => void queryClient.invalidateQueries({ queryKey: studyKeys.lesson(workshop.id, n) });
  const toggleComplete = () =>
    complete.mutate({ n, completed: !done }, {
      onError: (error) => toast({ tone: "error", title: "Couldn't save", body: errorMessage(error) }),
    });

  return (
    <article className="rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-7" aria-labelledby="lesson-title" data-testid="lesson">
      <p className="text-[13px] text-ink-muted">
        Lesson {n} of {workshop.lesson_count}{meta ? ` · ${formatMinutesEstimate(meta.estimated_minutes)}` : ""}
        {done && <Badge tone="ok" className="ml-2">Completed</Badge>}
      </p>
      <h2 id="lesson-title" className="mt-1 text-xl font-semibold tracking-tight">{meta?.title ?? `Lesson ${n}`}</h2>
      {meta?.summary && <p className="mt-1 text-sm text-ink-muted">{meta.summary}</p>}
      <div className="mt-6">
        {lesson.isPending && <SkeletonRows rows={6} label="Opening the lesson" />}
        {lesson.isError && <p role="alert" className="text-sm text-danger">This lesson couldn't be opened: {errorMessage(lesson.error)}</p>}
        {result?.kind === "writing" && writingJob && <Writing job={writingJob} onRetry={refetch} />}
        {result?.kind === "lesson" && (
          <>
            {rewriting && (
              <p role="status" className="mb-4 flex items-center gap-2 rounded-lg bg-accent-soft/60 px-3 py-2 text-[13px] text-accent-soft-ink">
                <RefreshCw size={14} className="animate-spin" /> A new version is being written; this one stays until it's ready.
              </p>
            )}
            {rewriteJob?.status === "failed" && (
              <p role="alert" className="mb-4 rounded-lg bg-danger-soft px-3 py-2 text-[13px] text-ink">
                The new version couldn't be written: <CodeText text={rewriteJob.error?.message ?? "the model stopped without saying why."} />
              </p>
            )}
            <Markdown className="text-[15px]">{result.lesson.content}</Markdown>
            <SourceLinks sources={result.lesson.sources} label="Written from" max={4} className="mt-6 border-t border-line pt-4" />
          </>
        )}
      </div>
      <footer className="mt-6 flex flex-col gap-3 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap gap-2">
          <Button variant={done ? "secondary" : "primary"} icon={<Check size={15} />} onClick={toggleComplete}
            loading={complete.isPending} disabled={result?.kind !== "lesson"} aria-pressed={done}>
            {done ? "Completed — undo" : "Mark as complete"}
          </Button>
          {result?.kind === "lesson" && (
            <Button variant="ghost" icon={<RefreshCw size={15} />} disabled={Boolean(rewriting) || regenerate.isPending}
              onClick={() => regenerate.mutate(n, { onError: (error) => toast({ tone: "error", title: "Couldn't rewrite", body: errorMessage(error) }) })}>
              Rewrite
            </Button>
          )}
        </div>
        <nav aria-label="Lessons" className="flex gap-2">
          {previous && <ButtonLink to={`/study/workshops/${workshop.id}/lessons/${previous}`} icon={<ArrowLeft size={15} />}>Previous</ButtonLink>}
          {next
            ? <ButtonLink to={`/study/workshops/${workshop.id}/lessons/${next}`} variant={done ? "primary" : "secondary"}>Next lesson <ArrowRight size={15} /></ButtonLink>
            : <ButtonLink to={`/study/workshops/${workshop.id}`}>Overview</ButtonLink>}
        </nav>
      </footer>
    </article>
  );
}
