"""Background generation: one DBOS workflow per request on the study queue, with a status to poll.

- **Dedupe.** A request's key is a hash of its kind, its canonical parameters and the optional client
  token; the job (= workflow) id is `study-<kind>-<key>-<attempt>`. With a token, the same request
  always answers with the same job, finished or not — a double click never generates twice. Without
  one, identical requests share a job while it is queued or running, and a later identical request
  starts a new attempt (the user asked for another quiz on the same documents). A failed job is
  retried under the next attempt number. Two racing submits compute the same id; the insert and DBOS's
  workflow-id idempotency let only one run.
- **Nothing half-written.** A generator (`runner`) does the slow part — retrieval and the model — and
  returns a `Saver`; the step runs that saver and marks the job succeeded in ONE transaction. A crash
  before it leaves nothing behind, and DBOS re-runs the step on recovery. A saver writes under ids
  derived from the job id, so a replay cannot store a second copy.
- **Failures are a status.** No model, a model error or an unusable answer ends the job as `failed`
  with a code and a message the user can act on.

`StudyJobs` is built once per process, before `DBOS.launch()`, and registers the job's workflow then
under the name earlier builds recorded (a closure over this object, as `ingest/workflow.py` explains),
so a job one of them left pending resumes here.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from dbos import DBOS, SetWorkflowID

from backend.durable import RETRY_WHEN_DATABASE_LOST, study_queue
from backend.errors import NotFound, QuireError
from backend.llm.client import LLMClient
from backend.llm.errors import ModelError, ModelUnavailable
from backend.llm.prompts import PromptLibrary
from backend.retrieval.service import SearchService
from backend.retrieval.types import Scope
from backend.store import study_jobs as store
from backend.store.db import Connection, Database
from backend.study import passages
from backend.study.errors import GenerationFailed
from backend.study.passages import Passage
from backend.study.repairs import Report
from backend.study.schemas import JobError, JobOut, JobReport


@dataclass(frozen=True)
class Drafting:
    """What a generator works with: the database (passages, scope names), the index (a lesson searches its
    title), the model client and the prompts."""

    db: Database
    search: SearchService
    llm: LLMClient
    prompts: PromptLibrary

    @property
    def embed_model(self) -> str:
        return self.search.embed_model

    def scope_passages(self, scope: Scope, count: int) -> list[Passage]:
        return passages.scope_passages(self.db, self.embed_model, scope, count)

    def query_passages(self, query: str, scope: Scope, count: int) -> list[Passage]:
        return passages.query_passages(self.search, query, scope, count)

    def block_passages(self, block_ids: Sequence[str], count: int) -> list[Passage]:
        return passages.block_passages(self.db, self.embed_model, block_ids, count)


Saver = Callable[[Connection], str]
Runner = Callable[[Drafting, dict[str, Any], str], Saver]

ACTIVE = ("queued", "running")
_DBOS_FAILED = {"ERROR", "CANCELLED", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"}
_ARTIFACT_NAMESPACE = uuid.UUID("5b0e7c1e-8a4f-4f57-9d4c-7c1e0b7a9e21")
RESULT_PATHS = {
    "quiz": "/api/study/quizzes/{id}", "recap": "/api/study/quizzes/{id}", "deck": "/api/study/decks/{id}",
    "workshop": "/api/study/workshops/{id}", "mindmap": "/api/study/mindmaps/{id}",
    "lesson": "/api/study/workshops/{id}", "weak_spots": "/api/study/quizzes/{id}", "guide": "/api/study/guides/{id}",
    "audio_overview": "/api/study/overviews/{id}", "optimize": "/api/study/scheduler",
}


def artifact_id(job_id: str, part: str = "") -> str:
    """A stable id for what a job stores, so a replayed step writes the same rows."""
    return str(uuid.uuid5(_ARTIFACT_NAMESPACE, f"{job_id}/{part}"))


def model_unavailable(exc: ModelUnavailable) -> QuireError:
    return QuireError("model_unavailable", f"{exc.message} {exc.hint}", 503)


def record_report(db: Database, job_id: str, report: Report) -> None:
    """Keep what the generation asked for and kept with the job (before it is saved or fails)."""
    store.set_report(db, job_id, report.payload())


def request_key(kind: str, params: dict[str, Any], token: str | None) -> str:
    canonical = json.dumps({"kind": kind, "params": params, "token": token}, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def job_out(row: store.StudyJobRow) -> JobOut:
    result_id = row["result_id"]  # a lesson job's result is its workshop
    url = RESULT_PATHS[row["kind"]].format(id=result_id) if result_id else None
    if url and row["kind"] == "lesson":
        url += f"/lessons/{row['params']['n']}"
    error = JobError(code=row["error_code"], message=row["error_message"] or "") if row["error_code"] else None
    return JobOut(job_id=row["id"], kind=row["kind"], status=row["state"], result_id=result_id, result_url=url,
                  error=error, created_at=row["created_at"], started_at=row["started_at"],
                  finished_at=row["finished_at"], draft=row["draft"] if row["state"] == "running" else None,
                  report=JobReport.model_validate(row["report"]) if row["report"] else None)


class StepOutcome(TypedDict):
    state: str  # the job's final state ("missing": its row is gone)
    result_id: str | None
    kind: NotRequired[str]  # outcomes recorded by earlier builds have none


class StudyJobs:
    """Queues study jobs and runs them: the database, the model client (a job is refused at once while the
    chat model is missing) and what the generators draft with."""

    def __init__(self, db: Database, llm: LLMClient, chat_model: str, drafting: Drafting,
                 runners: Mapping[store.JobKind, Runner],
                 followups: Mapping[str, Callable[[str], None]] | None = None) -> None:
        self.db = db
        self.llm = llm
        self.chat_model = chat_model
        self.drafting = drafting
        self.runners = runners  # the generator of each job kind (backend/study/runners.py)
        # Durable work after the artifact is stored, by job kind, given its id (an audio overview is spoken).
        self.followups = followups or {}

        @DBOS.workflow(name="study_job_workflow")
        def study_job_workflow(job_id: str) -> StepOutcome:
            outcome = self.generate_step(job_id)
            followup = self.followups.get(outcome.get("kind", ""))
            if followup is not None and outcome["state"] == "succeeded" and outcome["result_id"]:
                followup(outcome["result_id"])
            return outcome

        self._workflow = study_job_workflow

    def require_model(self) -> None:
        """Refuse to queue work the model server cannot do: 503 model_unavailable with what to run."""
        try:
            self.llm.require(self.chat_model)
        except ModelUnavailable as exc:
            raise model_unavailable(exc) from exc

    def submit(self, kind: store.JobKind, params: dict[str, Any], token: str | None = None, *,
               needs_model: bool = True) -> JobOut:
        """The job for this request: an existing one when deduplicated, else a new one queued now."""
        key = request_key(kind, params, token)
        latest = store.latest_for_key(self.db, key)
        if latest and (latest["state"] in ACTIVE or (token is not None and latest["state"] == "succeeded")):
            return self._ensure_queued(latest)
        if needs_model:
            self.require_model()
        attempt = latest["attempt"] + 1 if latest else 1
        row = store.insert(self.db, f"study-{kind}-{key[:24]}-{attempt}", kind, key, attempt, params)
        return self._ensure_queued(row)

    def latest_job(self, kind: store.JobKind, params: dict[str, Any]) -> JobOut | None:
        """The most recent token-less job for exactly this request, if any."""
        latest = store.latest_for_key(self.db, request_key(kind, params, None))
        return job_out(latest) if latest else None

    def _ensure_queued(self, row: store.StudyJobRow) -> JobOut:
        # Enqueueing under an existing workflow id attaches to it; this also heals a job row whose
        # enqueue was lost to a crash right after the insert.
        if row["state"] in ACTIVE:
            with SetWorkflowID(row["id"]):
                study_queue().enqueue(self._workflow, row["id"])
        return job_out(row)

    def status(self, job_id: str) -> JobOut:
        row = store.get(self.db, job_id)
        if row is None:
            raise NotFound("Study job", job_id)
        if row["state"] in ACTIVE:
            dbos_status = DBOS.get_workflow_status(job_id)
            if dbos_status is not None and dbos_status.status in _DBOS_FAILED:
                row = {**row, "state": "failed", "error_code": "internal_error",
                       "error_message": "Generation stopped unexpectedly; see the server log and try again."}
        return job_out(row)

    def recent_jobs(self, states: list[str], limit: int) -> list[JobOut]:
        """Jobs in these states, newest first — so any browser can show what is being made."""
        return [job_out(row) for row in store.recent(self.db, states, limit)]

    # -- the durable part ----------------------------------------------------------------------------
    @DBOS.step(name="generate_step", **RETRY_WHEN_DATABASE_LOST)
    def generate_step(self, job_id: str) -> StepOutcome:
        """Generate and store one artifact; returns the job's final state and result id only. A database lost
        meanwhile runs it again (the job is still 'running', nothing was saved: it generates afresh) rather
        than leaving the job 'running' for good."""
        job = store.get(self.db, job_id)
        if job is None:
            return {"state": "missing", "result_id": None}
        if job["state"] in ACTIVE:
            store.mark_running(self.db, job_id)
            self._run(job)
            job = store.get(self.db, job_id)
            assert job is not None
        return {"state": job["state"], "result_id": job["result_id"], "kind": job["kind"]}

    def _run(self, job: store.StudyJobRow) -> None:
        db = self.db
        try:
            save = self.runners[job["kind"]](self.drafting, job["params"], job["id"])
            with db.transaction() as conn:
                result_id = save(conn)
                store.finish(conn, job["id"], result_id)
        except ModelUnavailable as exc:
            store.fail(db, job["id"], "model_unavailable", f"{exc.message} {exc.hint}")
        except ModelError as exc:
            store.fail(db, job["id"], "model_error", exc.message)
        except GenerationFailed as exc:
            store.fail(db, job["id"], exc.code, exc.message)
        except QuireError as exc:  # e.g. the scope's documents were deleted while the job waited
            store.fail(db, job["id"], exc.code, exc.message)
