"""Quiz routes under `/api/study/quizzes`: generate (202 + job), list, get, delete, attempts with
server-side grading, and Markdown export."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Response, status
from pydantic import BaseModel

from backend.api.deps import ActivityDep, DatabaseDep
from backend.api.study_records import StudyRecord, add_record_routes
from backend.study import exports, quiz_attempts, quizzes
from backend.study.quiz_attempts import AnswerIn, AttemptOut, GradedAnswer
from backend.study.quizzes import QuizOut, QuizRequest, QuizSummary

router = APIRouter(prefix="/quizzes", tags=["study: quizzes"])


class AttemptIn(BaseModel):
    restart: bool = False  # true: start a fresh attempt even if one is unfinished


add_record_routes(router, StudyRecord(
    name="quiz", plural="quizzes", request=QuizRequest, summary=QuizSummary, out=QuizOut,
    start=quizzes.start, list=None, get=quizzes.get_quiz, delete=quizzes.delete_quiz,
    generate_doc="Queue a quiz generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`.",
    get_doc="The quiz with its questions; answers and explanations come back as each answer is graded."))


@router.get("")
def list_quizzes(db: DatabaseDep, workshop_id: UUID | None = None) -> list[QuizSummary]:
    return quizzes.list_quizzes(db, str(workshop_id) if workshop_id else None)


@router.post("/{quiz_id}/attempts")
def start_attempt(quiz_id: UUID, db: DatabaseDep, response: Response, body: AttemptIn | None = None) -> AttemptOut:
    """Resume the unfinished attempt (200) or start a new one (201)."""
    attempt, created = quiz_attempts.start_attempt(db, str(quiz_id), restart=bool(body and body.restart))
    response.status_code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    return attempt


@router.get("/{quiz_id}/attempts")
def list_attempts(quiz_id: UUID, db: DatabaseDep) -> list[AttemptOut]:
    """Every attempt, newest first, with its graded answers."""
    return quiz_attempts.list_attempts(db, str(quiz_id))


@router.get("/{quiz_id}/attempts/{attempt_id}")
def get_attempt(quiz_id: UUID, attempt_id: UUID, db: DatabaseDep) -> AttemptOut:
    return quiz_attempts.get_attempt(db, str(quiz_id), str(attempt_id))


@router.post("/{quiz_id}/attempts/{attempt_id}/answers")
def answer(quiz_id: UUID, attempt_id: UUID, body: AnswerIn, db: DatabaseDep, activity: ActivityDep) -> GradedAnswer:
    """Grade one answer; 409 `already_answered` if that question was answered in this attempt."""
    return quiz_attempts.answer(db, activity, str(quiz_id), str(attempt_id), body)


@router.get("/{quiz_id}/export", response_class=Response)
def export_quiz(quiz_id: UUID, db: DatabaseDep,
                mode: Annotated[exports.QuizExportMode, Query()] = "questions") -> Response:
    """Markdown: `questions` only, with `answers`, or with answers and `explanations` (+ sources)."""
    filename, body = exports.quiz_markdown(db, str(quiz_id), mode)
    return Response(body, media_type="text/markdown; charset=utf-8", headers=exports.attachment(filename))
