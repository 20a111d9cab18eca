"""Taking a quiz: attempts that can be resumed, answers graded by the server one question at a time.

An answer is immutable once given (a second answer to the same question is a 409), the score is always
computed from the stored answers — never taken from the client — and an attempt finishes with its last
answer. Every answer is a `quiz_answer` study event; a wrong or "not sure" one also becomes a card in
the scope's Mistakes deck, in the answer's transaction (`mistakes.py`).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, Field

from backend.errors import NotFound, QuireError
from backend.progress.events import Activity
from backend.store import quizzes as store
from backend.store.db import Database
from backend.study.mistakes import MistakeCard, MistakeCardOut
from backend.study.quizzes import quiz_row
from backend.study.schemas import SourceOut


class AnswerIn(BaseModel):
    question_id: uuid.UUID
    choice_index: int = Field(ge=0, le=3)
    unsure: bool = False  # "not sure": a right answer given unsure becomes a card too


class AnswerOut(BaseModel):
    question_id: str
    choice_index: int
    correct: bool
    unsure: bool
    correct_index: int
    explanation: str
    answered_at: datetime


# The attempt's row as it is, with its score and answers. No docstring: it would become the schema's
# description and change the web app's generated types.
class AttemptOut(store.AttemptRow):
    score: float  # correct / total questions
    answers: list[AnswerOut]


class GradedAnswer(AnswerOut):
    """The answer just given, graded, with the explanation, its sources and the attempt's new totals."""

    sources: list[SourceOut]
    attempt: AttemptOut
    mistake_card: MistakeCardOut | None  # a wrong or unsure answer: the card it became


def _attempts_out(db: Database, rows: list[store.AttemptRow]) -> list[AttemptOut]:
    answers: dict[str, list[AnswerOut]] = {row["id"]: [] for row in rows}
    for answer in store.answers(db, list(answers)) if answers else []:
        answers[answer["attempt_id"]].append(AnswerOut.model_validate(answer))
    return [{**row, "score": round(row["correct"] / row["total"], 4) if row["total"] else 0.0,
             "answers": answers[row["id"]]} for row in rows]


def start_attempt(db: Database, quiz_id: str, restart: bool = False) -> tuple[AttemptOut, bool]:
    """Resume the unfinished attempt (unless `restart`), else start one; returns it and whether it is new."""
    quiz_row(db, quiz_id)
    if not restart and (row := store.open_attempt(db, quiz_id)) is not None:
        return _attempts_out(db, [row])[0], False
    row = store.create_attempt(db, str(uuid.uuid4()), quiz_id)
    return _attempts_out(db, [row])[0], True


def list_attempts(db: Database, quiz_id: str) -> list[AttemptOut]:
    quiz_row(db, quiz_id)
    return _attempts_out(db, store.attempts(db, quiz_id))


def get_attempt(db: Database, quiz_id: str, attempt_id: str) -> AttemptOut:
    row = store.attempt(db, quiz_id, attempt_id)
    if row is None:
        raise NotFound("Quiz attempt", attempt_id)
    return _attempts_out(db, [row])[0]


def answer(db: Database, activity: Activity, quiz_id: str, attempt_id: str, given: AnswerIn) -> GradedAnswer:
    """Grade one answer on the server and store it; a question answers once per attempt."""
    get_attempt(db, quiz_id, attempt_id)
    question = next((q for q in store.questions(db, quiz_id) if q["id"] == str(given.question_id)), None)
    if question is None:
        raise NotFound("Question", str(given.question_id))
    if given.choice_index >= len(question["options"]):
        raise QuireError("invalid_choice", f"This question has {len(question['options'])} options "
                         f"(choice_index 0–{len(question['options']) - 1}).", 422)
    correct = given.choice_index == question["correct_index"]
    mistake = MistakeCard(db, quiz_row(db, quiz_id), question) if given.unsure or not correct else None
    with db.transaction() as conn:  # the answer and the card it becomes, together or not at all
        if not store.record_answer(conn, attempt_id, question["id"], given.choice_index, correct, given.unsure):
            raise QuireError("already_answered", "This question was already answered in this attempt; "
                             "answers cannot be changed. Start a new attempt to try again.", 409)
        card = mistake.save(conn) if mistake else None
    activity.record("quiz_answer", ref=f"quiz:{quiz_id}")
    attempt = get_attempt(db, quiz_id, attempt_id)
    stored = next(a for a in attempt["answers"] if a.question_id == question["id"])
    return GradedAnswer(**stored.model_dump(), sources=[SourceOut.model_validate(s) for s in question["sources"]],
                        attempt=attempt, mistake_card=card)
