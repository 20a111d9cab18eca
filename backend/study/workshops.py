"""Workshops: a generated outline (title, summary, objectives, key points, 3–10 lessons with estimated
minutes), progress through its lessons, and deletion. Writing lessons and the recap quiz live in
`lessons.py`.

An outline has no partial success, so it is generated as one object — its schema states the number of
lessons and every limit; minutes out of range are clamped and surplus objectives, key points and lessons
cut (mechanical repairs) — retried once with a stricter reminder (the requested number of lessons is
checked as well), and then fails with a clear message.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from backend.errors import NotFound, QuireError, found
from backend.progress.events import Activity
from backend.store import workshops as store
from backend.store.db import Connection, Database
from backend.study import jobs
from backend.study.generation import (
    cited_ids,
    closest,
    fitted_prompt,
    generate_object,
    json_schema,
    resolve_ids,
    with_count,
)
from backend.study.repairs import Report, clamp, cut
from backend.study.schemas import Difficulty, GenerateRequest, JobOut, ScopeOut, SourceOut
from backend.study.scopes import as_scope, scope_params

OUTLINE_PASSAGES = 14
# Opening or completing a lesson again within this many seconds is the same reading (a refetch, a
# reopened tab), not another `lesson_read` event that would stretch the study session.
REREAD_AFTER_S = 300


MIN_MINUTES, MAX_MINUTES = 5, 90
MAX_OBJECTIVES, MAX_KEY_POINTS = 8, 12
OUTLINE_ANSWER_TOKENS = 1800


class LessonPlan(BaseModel):
    title: str = Field(min_length=3, max_length=150)
    estimated_minutes: int = Field(ge=MIN_MINUTES, le=MAX_MINUTES)
    summary: str = Field(min_length=10, max_length=800)


class Outline(BaseModel):
    """The outline as the model writes it."""

    title: str = Field(min_length=3, max_length=150)
    summary: str = Field(min_length=10, max_length=1500)
    objectives: list[str] = Field(min_length=1, max_length=MAX_OBJECTIVES)
    key_points: list[str] = Field(min_length=1, max_length=MAX_KEY_POINTS)
    lessons: list[LessonPlan] = Field(min_length=3, max_length=12)
    source_block_ids: list[str] = cited_ids(20)


class WorkshopRequest(GenerateRequest):
    difficulty: Difficulty = "intermediate"
    lessons: int = Field(5, ge=3, le=10)


class LessonMeta(BaseModel):
    n: int
    title: str
    estimated_minutes: int
    summary: str
    written: bool
    written_at: datetime | None
    completed_at: datetime | None


class WorkshopSummary(BaseModel):
    id: str
    title: str
    summary: str
    difficulty: Difficulty
    scope: ScopeOut
    lesson_count: int
    completed_lessons: int
    progress: float  # completed / lessons
    total_minutes: int
    recap_quiz_id: str | None
    created_at: datetime


class WorkshopOut(WorkshopSummary):
    objectives: list[str]
    key_points: list[str]
    sources: list[SourceOut]
    lessons: list[LessonMeta]


class ProgressOut(BaseModel):
    workshop_id: str
    total: int
    completed: int
    progress: float
    all_complete: bool
    recap_quiz_id: str | None


class CompleteIn(BaseModel):
    completed: bool = True


# -- generation ----------------------------------------------------------------------------------------
def start(study: jobs.StudyJobs, request: WorkshopRequest) -> JobOut:
    params = {"scope": scope_params(study.db, request.scope), "difficulty": request.difficulty,
              "lessons": request.lessons}
    return study.submit("workshop", params, request.client_token)


def run(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    passages = drafting.scope_passages(as_scope(params["scope"]), OUTLINE_PASSAGES)
    wanted = params["lessons"]

    def enough_lessons(outline: Outline) -> str | None:
        found = len(outline.lessons)
        return None if found >= wanted else f"the outline has {found} lessons; exactly {wanted} are required"

    prompt, passages = fitted_prompt(drafting.llm, drafting.prompts, "workshop_outline", passages,
                                     OUTLINE_ANSWER_TOKENS, lessons=wanted, difficulty=params["difficulty"])
    report = Report()
    try:
        outline = generate_object(drafting.llm, prompt, Outline, "workshop outline", report, check=enough_lessons,
                                  repair=lambda raw, rep: repair_outline(raw, wanted, rep),
                                  schema=with_count(json_schema(Outline), "lessons", wanted))
    finally:
        jobs.record_report(drafting.db, job_id, report)
    grounded = (resolve_ids(outline.source_block_ids, passages) or closest(outline.summary, passages, limit=6)
                or passages)
    workshop = {"id": jobs.artifact_id(job_id), "title": outline.title.strip(), "summary": outline.summary.strip(),
                "difficulty": params["difficulty"], "objectives": _clean(outline.objectives),
                "key_points": _clean(outline.key_points), "scope": params["scope"],
                "sources": [p.source() for p in grounded], "job_id": job_id}
    lessons = [{"n": n, "title": plan.title.strip(), "estimated_minutes": plan.estimated_minutes,
                "summary": plan.summary.strip()} for n, plan in enumerate(outline.lessons[:wanted], start=1)]

    def save(conn: Connection) -> str:
        store.insert_workshop(conn, workshop, lessons)
        return str(workshop["id"])

    return save


def repair_outline(raw: Any, wanted: int, report: Report) -> Any:
    """Mechanical fixes: minutes clamped, surplus objectives, key points and lessons cut."""
    if not isinstance(raw, dict):
        return raw
    outline = {**raw, "objectives": cut(raw.get("objectives"), MAX_OBJECTIVES, "objectives", report),
               "key_points": cut(raw.get("key_points"), MAX_KEY_POINTS, "key points", report),
               "lessons": cut(raw.get("lessons"), wanted, "lessons", report)}
    if isinstance(outline["lessons"], list):
        outline["lessons"] = [
            {**lesson, "estimated_minutes": clamp(lesson.get("estimated_minutes"), MIN_MINUTES, MAX_MINUTES,
                                                  "minutes", report)} if isinstance(lesson, dict) else lesson
            for lesson in outline["lessons"]]
    return outline


def _clean(items: list[str]) -> list[str]:
    return [item.strip() for item in items if item and item.strip()]


# -- reading and progress ------------------------------------------------------------------------------
def workshop_row(db: Database, workshop_id: str) -> store.WorkshopRow:
    return found(store.get_workshop(db, workshop_id), "Workshop", workshop_id)


def _summary(row: store.WorkshopRow) -> dict[str, Any]:
    total = row["lesson_count"]
    return {**row, "progress": round(row["completed_lessons"] / total, 4) if total else 0.0}


def lesson_meta(row: store.LessonRow) -> LessonMeta:
    return LessonMeta.model_validate({**row, "written": row["content"] is not None})


def list_workshops(db: Database) -> list[WorkshopSummary]:
    return [WorkshopSummary.model_validate(_summary(row)) for row in store.list_workshops(db)]


def get_workshop(db: Database, workshop_id: str) -> WorkshopOut:
    row = workshop_row(db, workshop_id)
    lessons = [lesson_meta(lesson) for lesson in store.lessons(db, workshop_id)]
    return WorkshopOut.model_validate({**_summary(row), "lessons": lessons})


def delete_workshop(db: Database, workshop_id: str) -> None:
    if not store.delete_workshop(db, workshop_id):
        raise NotFound("Workshop", workshop_id)


def progress(db: Database, workshop_id: str) -> ProgressOut:
    row = workshop_row(db, workshop_id)
    total, done = row["lesson_count"], row["completed_lessons"]
    return ProgressOut(workshop_id=workshop_id, total=total, completed=done,
                       progress=round(done / total, 4) if total else 0.0, all_complete=total > 0 and done == total,
                       recap_quiz_id=row["recap_quiz_id"])


def complete(db: Database, activity: Activity, workshop_id: str, n: int, completed: bool) -> ProgressOut:
    """Mark a lesson read (or not); marking it read is a `lesson_read` study event."""
    workshop_row(db, workshop_id)
    outcome = store.set_completed(db, workshop_id, n, completed)
    if outcome == "no_lesson":
        raise NotFound("Lesson", str(n))
    if outcome == "not_written":
        raise QuireError("lesson_not_written", f"Lesson {n} has not been written yet: open it to have it written, "
                         "read it, then mark it complete.", 409)
    if completed:
        activity.record("lesson_read", ref=f"lesson:{workshop_id}:{n}", unless_within_s=REREAD_AFTER_S)
    return progress(db, workshop_id)
