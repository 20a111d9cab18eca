"""The study hub's API under `/api/study`: quizzes, decks, workshops, mind maps, and generation jobs.

Every generator answers `POST` with **202** and a job (`JobOut`: job_id, kind, status
queued|running|succeeded|failed, result_id, result_url, error {code, message}). Poll
`GET /api/study/jobs/{job_id}`; on `succeeded`, `result_url` is the artifact. Sending the same
`client_token` with the same parameters returns the same job (no double generation on a double click);
without a token, identical requests share a job while it runs. With no model available the POST is a
503 `model_unavailable` whose message says what to run, and nothing is stored.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from backend.api import (
    study_decks,
    study_guides,
    study_loop,
    study_mindmaps,
    study_overviews,
    study_plans,
    study_quizzes,
    study_workshops,
)
from backend.api.deps import StudyJobsDep
from backend.study.schemas import JobOut, JobStatus

router = APIRouter(prefix="/api/study")
for _sub in (study_quizzes.router, study_decks.router, study_workshops.router, study_mindmaps.router,
             study_loop.router, study_plans.router, study_guides.router, study_overviews.router):
    router.include_router(_sub)


@router.get("/jobs", tags=["study: jobs"])
def list_jobs(study: StudyJobsDep, status: Annotated[list[JobStatus] | None, Query()] = None,
              limit: Annotated[int, Query(ge=1, le=100)] = 20) -> list[JobOut]:
    """Recent jobs, newest first; `status` (repeatable) filters, default queued and running."""
    return study.recent_jobs(list(status or ["queued", "running"]), limit)


@router.get("/jobs/{job_id}", tags=["study: jobs"])
def get_job(job_id: str, study: StudyJobsDep) -> JobOut:
    return study.status(job_id)
