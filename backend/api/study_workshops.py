"""Workshop routes under `/api/study/workshops`.

Lessons are written on first open, which can take a while with a real model, so
`GET /workshops/{id}/lessons/{n}` answers either **200** with the lesson (`LessonOut`) or **202** with
the job writing it (`JobOut`; opening it again while it is written returns the same job). Poll
`GET /api/study/jobs/{job_id}` until `status` is `succeeded`, then GET the lesson again. `regenerate`
writes a new version in the background (202 + job); until it is stored, the lesson GET keeps returning
the old text with `regenerating` set to that job. The recap quiz (5 questions) can be generated once
every lesson is complete: `POST /workshops/{id}/recap` → 202 + job, whose result is a normal quiz.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path, Response, status

from backend.api.deps import ActivityDep, DatabaseDep, StudyJobsDep
from backend.api.study_records import StudyRecord, add_record_routes
from backend.study import lessons, workshops
from backend.study.lessons import LessonOut
from backend.study.schemas import JobOut
from backend.study.workshops import CompleteIn, ProgressOut, WorkshopOut, WorkshopRequest, WorkshopSummary

router = APIRouter(prefix="/workshops", tags=["study: workshops"])
LessonNumber = Annotated[int, Path(ge=1, le=10)]


add_record_routes(router, StudyRecord(
    name="workshop", plural="workshops", request=WorkshopRequest, summary=WorkshopSummary, out=WorkshopOut,
    start=workshops.start, list=workshops.list_workshops, get=workshops.get_workshop,
    delete=workshops.delete_workshop,
    generate_doc="Queue an outline generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`."))


@router.get("/{workshop_id}/progress")
def workshop_progress(workshop_id: UUID, db: DatabaseDep) -> ProgressOut:
    return workshops.progress(db, str(workshop_id))


@router.get("/{workshop_id}/lessons/{n}", responses={202: {"model": JobOut, "description": "being written"}})
def open_lesson(workshop_id: UUID, n: LessonNumber, study: StudyJobsDep, activity: ActivityDep,
                response: Response) -> LessonOut | JobOut:
    """200 + the lesson when written; 202 + the job writing it otherwise (see the module notes)."""
    result = lessons.open_lesson(study, activity, str(workshop_id), n)
    if isinstance(result, JobOut):
        response.status_code = status.HTTP_202_ACCEPTED
    return result


@router.post("/{workshop_id}/lessons/{n}/regenerate", status_code=status.HTTP_202_ACCEPTED)
def regenerate_lesson(workshop_id: UUID, n: LessonNumber, study: StudyJobsDep) -> JobOut:
    return lessons.regenerate(study, str(workshop_id), n)


@router.post("/{workshop_id}/lessons/{n}/complete")
def complete_lesson(workshop_id: UUID, n: LessonNumber, db: DatabaseDep, activity: ActivityDep,
                    body: CompleteIn | None = None) -> ProgressOut:
    """Mark the lesson read (`{"completed": false}` un-marks it); returns the workshop's progress."""
    return workshops.complete(db, activity, str(workshop_id), n, completed=body.completed if body else True)


@router.post("/{workshop_id}/recap", status_code=status.HTTP_202_ACCEPTED)
def recap_quiz(workshop_id: UUID, study: StudyJobsDep) -> JobOut:
    """The recap quiz's job (409 `lessons_incomplete` until every lesson is complete)."""
    return lessons.start_recap(study, str(workshop_id))
