/**
 * Starting a generation and following its job. `POST /api/study/<kind>` answers 202 with a job; the
 * job is polled (often at first, then calmly) until it succeeds or fails. The server also lists every
 * job still queued or running, whichever browser started it.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiSend, buildQuery } from "@/lib/api";
import { isTerminal, pollDelay } from "../lib/jobs";
import { studyKeys } from "./keys";
import type { GeneratorKind, GeneratorParams, Job } from "./types";

const GENERATOR_PATHS: Record<GeneratorKind, string> = {
  quiz: "/api/study/quizzes",
  deck: "/api/study/decks",
  workshop: "/api/study/workshops",
  mindmap: "/api/study/mindmaps",
  guide: "/api/study/guides",
  audio_overview: "/api/study/overviews",
};

export function startGeneration(kind: GeneratorKind, params: GeneratorParams, clientToken: string): Promise<Job> {
  return apiSend<Job>("POST", GENERATOR_PATHS[kind], { ...params, client_token: clientToken });
}

export function fetchJob(jobId: string): Promise<Job> {
  return apiJson<Job>(`/api/study/jobs/${encodeURIComponent(jobId)}`);
}

/** A job, polled until it is over. */
const DRAFT_POLL_MS = 600;

export function useJob(jobId: string | undefined) {
  return useQuery({
    queryKey: studyKeys.job(jobId ?? ""),
    queryFn: () => fetchJob(jobId as string),
    enabled: Boolean(jobId),
    staleTime: 0,
    refetchInterval: (query) => {
      const job = query.state.data;
      if (!job) return query.state.status === "error" ? false : pollDelay(0);
      if (isTerminal(job.status)) return false;
      // A lesson being written is read as it grows: its draft is worth fetching often.
      return job.kind === "lesson" && job.status === "running" ? DRAFT_POLL_MS : pollDelay(Date.now() - Date.parse(job.created_at));
    },
  });
}

/** How often the hub asks which jobs are being made (to notice those started in another browser). */
const ACTIVE_JOBS_POLL_MS = 5_000;

/** Jobs queued or running on the server, newest first; each also seeds its own job query. */
export function useActiveJobs() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: studyKeys.activeJobs,
    queryFn: async () => {
      const jobs = await apiJson<Job[]>(`/api/study/jobs${buildQuery({ status: ["queued", "running"], limit: 20 })}`);
      // Only where nothing is known yet: a job's own poll may already have seen it further along.
      jobs.forEach((job) => {
        if (!queryClient.getQueryData(studyKeys.job(job.job_id))) queryClient.setQueryData(studyKeys.job(job.job_id), job);
      });
      return jobs;
    },
    refetchInterval: ACTIVE_JOBS_POLL_MS,
    refetchOnWindowFocus: true,
  });
}
