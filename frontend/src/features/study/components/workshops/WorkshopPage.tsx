/**
 * A workshop: the table of contents (lessons with estimated minutes, done or not) beside either the
 * outline — summary, objectives, key points, progress and the recap quiz — or the open lesson.
 */
import { Check, ChevronDown, CircleCheck, ListChecks, Play, Trash2 } from "lucide-react";
import { useState } from "react";
import { NavLink, useNavigate, useParams } from "react-router";
import { Badge } from "@/components/Badge";
import { Button, IconButton } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { Progress } from "@/components/Progress";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { formatMinutesEstimate } from "@/lib/duration";
import { plural } from "@/lib/format";
import type { Workshop } from "@/features/study/api/types";
import { useDeleteWorkshop, useRecap, useWorkshop } from "@/features/study/api/workshops";
import { pendingJobs } from "@/features/study/hooks/pendingJobs";
import { DeleteRecordDialog } from "../DeleteRecordDialog";
import { SourceLinks } from "../SourceLinks";
import { PageShell, Panel, StudyHeader } from "../StudyLayout";
import { LessonView } from "./LessonView";

function Contents({ workshop, current }: { workshop: Workshop; current: number | null }) {
  return (
    <nav aria-label="Table of contents" className="rounded-2xl border border-line bg-surface p-2 shadow-card">
      <NavLink to={`/study/workshops/${workshop.id}`} end
        className={({ isActive }) => cn("flex items-center gap-2 rounded-lg px-2.5 py-2 text-sm font-medium",
          isActive ? "bg-accent-soft text-accent-soft-ink" : "text-ink-muted hover:bg-surface-2 hover:text-ink")}>
        Overview
      </NavLink>
      <ol className="mt-1 space-y-0.5">
        {workshop.lessons.map((lesson) => {
          const done = Boolean(lesson.completed_at);
          return (
            <li key={lesson.n}>
              <NavLink to={`/study/workshops/${workshop.id}/lessons/${lesson.n}`}
                aria-current={current === lesson.n ? "page" : undefined}
                className={cn("flex items-start gap-2.5 rounded-lg px-2.5 py-2 text-sm",
                  current === lesson.n ? "bg-accent-soft text-accent-soft-ink" : "text-ink hover:bg-surface-2")}>
                <span className={cn("mt-px flex size-5 shrink-0 items-center justify-center rounded-full border text-[11px] font-semibold",
                  done ? "border-ok bg-ok text-white dark:text-[#0b1a10]" : "border-line-strong text-ink-muted")}
                  aria-label={done ? "Completed" : undefined}>
                  {done ? <Check size={12} strokeWidth={3} /> : lesson.n}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block leading-snug">{lesson.title}</span>
                  <span className="text-xs text-ink-faint">{formatMinutesEstimate(lesson.estimated_minutes)}{lesson.written ? "" : " · not written yet"}</span>
                </span>
              </NavLink>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

function Recap({ workshop }: { workshop: Workshop }) {
  const recap = useRecap(workshop.id);
  const navigate = useNavigate();
  const toast = useToast();
  const allDone = workshop.lesson_count > 0 && workshop.completed_lessons >= workshop.lesson_count;
  const make = () => recap.mutate(undefined, {
    onSuccess: (job) => {
      if (job.status === "succeeded" && job.result_id) {
        navigate(`/study/quizzes/${job.result_id}`);
        return;
      }
      pendingJobs.add({ job_id: job.job_id, kind: "recap", label: workshop.title, started_at: Date.now() });
      navigate(`/study/jobs/${encodeURIComponent(job.job_id)}`);
    },
    onError: (error) => toast({ tone: "error", title: "The recap quiz couldn't be started", body: errorMessage(error) }),
  });
  return (
    <Panel title="Recap quiz" id="recap-title">
      {workshop.recap_quiz_id ? (
        <div className="space-y-3">
          <p className="text-sm text-ink-muted">Five questions over every lesson — see what stuck.</p>
          <ButtonLink to={`/study/quizzes/${workshop.recap_quiz_id}`} variant="primary" icon={<ListChecks size={15} />}>Take the recap quiz</ButtonLink>
        </div>
      ) : allDone ? (
        <div className="space-y-3">
          <p className="text-sm text-ink-muted">Every lesson is done. A five-question quiz over the whole workshop shows what stuck.</p>
          <Button variant="primary" icon={<ListChecks size={15} />} onClick={make} loading={recap.isPending}>Make the recap quiz</Button>
        </div>
      ) : (
        <p className="text-sm text-ink-muted">
          Complete every lesson to unlock a five-question quiz over the whole workshop
          ({workshop.lesson_count - workshop.completed_lessons} to go).
        </p>
      )}
    </Panel>
  );
}

function Outline({ workshop }: { workshop: Workshop }) {
  const nextLesson = workshop.lessons.find((lesson) => !lesson.completed_at) ?? workshop.lessons[0];
  const started = workshop.completed_lessons > 0;
  return (
    <div className="space-y-6">
      <Panel className="space-y-4">
        <p className="text-[15px] leading-relaxed">{workshop.summary}</p>
        <div className="flex items-center gap-3">
          <Progress value={workshop.progress} label={`${workshop.completed_lessons} of ${plural(workshop.lesson_count, "lesson")} complete`}
            tone={workshop.progress >= 1 ? "ok" : "accent"} />
          <span className="shrink-0 text-[13px] text-ink-muted tabular-nums">{workshop.completed_lessons} of {workshop.lesson_count} done</span>
        </div>
        {nextLesson && workshop.progress < 1 && (
          <ButtonLink to={`/study/workshops/${workshop.id}/lessons/${nextLesson.n}`} variant="primary" icon={<Play size={15} />}>
            {started ? `Continue with lesson ${nextLesson.n}` : "Start the first lesson"}
          </ButtonLink>
        )}
      </Panel>
      <div className="grid gap-6 md:grid-cols-2">
        <Panel title="You will be able to" id="objectives-title">
          <ul className="space-y-2">
            {workshop.objectives.map((objective) => (
              <li key={objective} className="flex gap-2 text-sm"><CircleCheck size={16} className="mt-0.5 shrink-0 text-accent" />{objective}</li>
            ))}
          </ul>
        </Panel>
        <Panel title="Key points" id="keypoints-title">
          <ul className="space-y-2">
            {workshop.key_points.map((point) => (
              <li key={point} className="flex gap-2 text-sm"><span className="mt-2 size-1.5 shrink-0 rounded-full bg-ink-faint" />{point}</li>
            ))}
          </ul>
        </Panel>
      </div>
      <Recap workshop={workshop} />
      <SourceLinks sources={workshop.sources} label="Planned from" max={5} />
    </div>
  );
}

export function WorkshopPage() {
  const { workshopId = "", n } = useParams();
  const lessonNumber = n ? Number(n) : null;
  const workshop = useWorkshop(workshopId);
  const remove = useDeleteWorkshop();
  const [confirming, setConfirming] = useState(false);
  const data = workshop.data;

  return (
    <PageShell>
      <StudyHeader
        back={{ to: "/study", label: "Study" }}
        title={data?.title ?? (workshop.isError ? "Workshop not found" : "Workshop")}
        badges={data && <Badge tone="accent">{data.difficulty[0]?.toUpperCase() + data.difficulty.slice(1)}</Badge>}
        subtitle={data && `${plural(data.lesson_count, "lesson")} · ${formatMinutesEstimate(data.total_minutes)}`}
        actions={data && <IconButton label="Delete workshop" onClick={() => setConfirming(true)} className="hover:text-danger"><Trash2 size={16} /></IconButton>}
      />
      {workshop.isPending && <SkeletonRows rows={8} label="Loading the workshop" />}
      {workshop.isError && <p role="alert" className="text-sm text-danger">This workshop couldn't be opened: {errorMessage(workshop.error)}</p>}
      {data && (
        <div className="grid gap-6 lg:grid-cols-[17rem_1fr] lg:items-start">
          <details className="group lg:hidden" open={lessonNumber === null}>
            <summary className="flex cursor-pointer list-none items-center justify-between rounded-xl border border-line bg-surface px-4 py-2.5 text-sm font-medium [&::-webkit-details-marker]:hidden">
              Lessons · {data.completed_lessons} of {data.lesson_count} done
              <ChevronDown size={16} className="text-ink-faint transition-transform group-open:rotate-180" />
            </summary>
            <div className="mt-2"><Contents workshop={data} current={lessonNumber} /></div>
          </details>
          <div className="hidden lg:sticky lg:top-6 lg:block"><Contents workshop={data} current={lessonNumber} /></div>
          <div className="min-w-0">
            {lessonNumber ? <LessonView key={lessonNumber} workshop={data} n={lessonNumber} /> : <Outline workshop={data} />}
          </div>
        </div>
      )}
      <DeleteRecordDialog open={confirming} id={workshopId} remove={remove} onCancel={() => setConfirming(false)}
        title="Delete this workshop?"
        description="Its outline, written lessons and recap quiz are removed. Your study time and badges stay."
        confirmLabel="Delete workshop" />
    </PageShell>
  );
}
