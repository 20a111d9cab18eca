"""Workshop lessons, written when first opened, and the workshop's recap quiz.

Opening a lesson that is not written yet starts a background job (one per lesson and writing version,
so opening it again while it is being written attaches to the same job) and answers with that job;
when the job has succeeded the lesson is there. A lesson retrieves passages for its own title within
the workshop's scope. "Regenerate" moves the lesson to its next version and writes it again; the old
text stays readable until the new one is stored. Reading a written lesson is a `lesson_read` event.

The recap quiz (five questions) can be generated once every lesson is complete; it is an ordinary
quiz linked to the workshop, grounded on the blocks the lessons were written from.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel

from backend.errors import QuireError, found
from backend.progress.events import Activity
from backend.store import study_jobs
from backend.store import workshops as store
from backend.store.db import Connection, Database
from backend.study import jobs, quizzes
from backend.study.generation import fitted_prompt, generate_markdown
from backend.study.repairs import Report
from backend.study.schemas import JobOut, SourceOut
from backend.study.scopes import as_scope
from backend.study.workshops import REREAD_AFTER_S, progress, workshop_row

LESSON_PASSAGES = 6
LESSON_SECTIONS = ("Introduction", "Core content", "Key takeaways", "Self-check")  # as prompts/lesson.md asks
RECAP_PASSAGES = 12
RECAP_QUESTIONS = 5
LESSON_ANSWER_TOKENS = 1800  # a lesson of 15–30 minutes' reading


class LessonOut(BaseModel):
    n: int
    title: str
    estimated_minutes: int
    summary: str
    content: str  # Markdown: Introduction, Core content, Key takeaways, Self-check
    sources: list[SourceOut]
    written_at: datetime | None
    completed_at: datetime | None
    regenerating: JobOut | None  # set while a new version is being written


def _lesson_row(db: Database, workshop_id: str, n: int) -> store.LessonRow:
    workshop_row(db, workshop_id)
    return found(store.lesson(db, workshop_id, n), "Lesson", str(n))


def _params(row: store.LessonRow) -> dict[str, Any]:
    return {"workshop_id": row["workshop_id"], "n": row["n"], "version": row["version"]}


def open_lesson(study: jobs.StudyJobs, activity: Activity, workshop_id: str, n: int) -> LessonOut | JobOut:
    """The written lesson, or the job writing it (started now if needed)."""
    row = _lesson_row(study.db, workshop_id, n)
    if row["content"] is None:
        return study.submit("lesson", _params(row))
    activity.record("lesson_read", ref=f"lesson:{workshop_id}:{n}", unless_within_s=REREAD_AFTER_S)
    pending = study.latest_job("lesson", _params(row))
    regenerating = pending if pending and pending.status in jobs.ACTIVE else None
    return LessonOut.model_validate({**row, "regenerating": regenerating})


def regenerate(study: jobs.StudyJobs, workshop_id: str, n: int) -> JobOut:
    """Write the lesson again; a rewrite already under way is returned instead of starting another."""
    row = _lesson_row(study.db, workshop_id, n)
    pending = study.latest_job("lesson", _params(row))
    if pending and pending.status in jobs.ACTIVE:
        return pending
    study.require_model()
    store.bump_version(study.db, workshop_id, n, row["version"])  # a racing request may have bumped it
    return study.submit("lesson", _params(_lesson_row(study.db, workshop_id, n)))


def write(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    workshop = workshop_row(drafting.db, params["workshop_id"])
    lessons = store.lessons(drafting.db, params["workshop_id"])
    lesson = next(row for row in lessons if row["n"] == params["n"])
    scope = as_scope(workshop["scope"])
    passages = (drafting.query_passages(lesson["title"], scope, LESSON_PASSAGES)
                or drafting.scope_passages(scope, LESSON_PASSAGES))
    prompt, passages = fitted_prompt(
        drafting.llm, drafting.prompts, "lesson", passages, LESSON_ANSWER_TOKENS, workshop_title=workshop["title"],
        difficulty=workshop["difficulty"],
        lesson_title=lesson["title"], lesson_summary=lesson["summary"], n=lesson["n"], total=len(lessons),
        estimated_minutes=lesson["estimated_minutes"], objectives="\n".join(f"- {o}" for o in workshop["objectives"]),
        outline="\n".join(f"{row['n']}. {row['title']}" for row in lessons),
    )
    # Streamed: the text so far is the job's draft, which the lesson page shows while it is written.
    content = generate_markdown(drafting.llm, prompt, LESSON_SECTIONS,
                                on_text=lambda text: study_jobs.set_draft(drafting.db, job_id, text))
    sources = [p.source() for p in passages]

    def save(conn: Connection) -> str:
        store.save_lesson(conn, params["workshop_id"], params["n"], params["version"], content, sources)
        return str(params["workshop_id"])

    return save


# -- recap quiz ----------------------------------------------------------------------------------------
def start_recap(study: jobs.StudyJobs, workshop_id: str) -> JobOut:
    """The job generating the recap quiz (or the one that did, once it exists); 409 until all lessons are done."""
    state = progress(study.db, workshop_id)
    params = {"workshop_id": workshop_id}
    if state.recap_quiz_id is not None and (done := study.latest_job("recap", params)) is not None:
        return done
    if not state.all_complete:
        raise QuireError("lessons_incomplete", f"Complete every lesson first ({state.completed} of "
                         f"{state.total} done); the recap quiz covers the whole workshop.", 409)
    return study.submit("recap", params)


def write_recap(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    workshop = workshop_row(drafting.db, params["workshop_id"])
    lessons = store.lessons(drafting.db, params["workshop_id"])
    block_ids = list(dict.fromkeys(s["block_id"] for row in lessons for s in row["sources"]))
    passages = (drafting.block_passages(block_ids, RECAP_PASSAGES)
                or drafting.scope_passages(as_scope(workshop["scope"]), RECAP_PASSAGES))
    focus = f'a recap of the workshop "{workshop["title"]}", whose lessons were: ' + "; ".join(
        row["title"] for row in lessons)
    report = Report()
    try:
        items = quizzes.draft(drafting, passages, RECAP_QUESTIONS, workshop["difficulty"], ["mcq", "true_false"], focus,
                              report)
    finally:
        jobs.record_report(drafting.db, job_id, report)
    quiz = {"id": jobs.artifact_id(job_id), "title": f"Recap: {workshop['title']}"[:200],
            "difficulty": workshop["difficulty"], "types": ["mcq", "true_false"],
            "requested_count": RECAP_QUESTIONS, "scope": workshop["scope"], "workshop_id": workshop["id"],
            "job_id": job_id}
    save_quiz = quizzes.saver(quiz, items)

    def save(conn: Connection) -> str:
        quiz_id = save_quiz(conn)
        store.set_recap(conn, workshop["id"], quiz_id)
        return quiz_id

    return save
