"""Quizzes: generation (multiple choice and true/false, from passages across the scope), listing,
reading and deletion. Taking a quiz lives in `quiz_attempts.py`; Markdown export in `exports.py`.

The model is sent a schema stating these rules (`McqDraft`, `TrueFalseDraft`), and its questions are
validated one by one against them: a multiple-choice question has exactly four distinct options, a
true/false one exactly ["True", "False"] (other spellings of true/false are normalised), `correct_index`
must point at an option and an explanation is required. Mechanical slips are repaired first
(backend/study/repairs.py); questions of a type that was not asked for, and repeats, are dropped.

Models put the right option first far more often than chance, so a multiple-choice question's options
are shuffled when it is saved, the key moved with them. The order is seeded by the question's id (itself
derived from the job), so a retried job step stores the same order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from backend.errors import NotFound, found
from backend.store import quizzes as store
from backend.store.db import Connection, Database
from backend.study import jobs
from backend.study.generation import Grounded, cited_ids, fitted_prompt, generate_items, json_schema
from backend.study.passages import Passage
from backend.study.repairs import MCQ_OPTIONS, Report, repair_question
from backend.study.schemas import Difficulty, GenerateRequest, JobOut, ScopeOut, SourceOut
from backend.study.scopes import as_scope, scope_params, scope_title

QuestionType = Literal["mcq", "true_false"]
TRUE_FALSE = ["True", "False"]
_TRUTHY = {"true", "wahr", "richtig", "yes", "correct"}
_FALSY = {"false", "falsch", "no", "incorrect"}
MAX_PASSAGES = 16
ANSWER_TOKENS_PER_ITEM = 160  # a question, four options and an explanation, as JSON


class QuizItem(BaseModel):
    """One question as the model writes it."""

    type: QuestionType
    question: str = Field(min_length=5, max_length=600)
    options: list[str] = Field(default_factory=list, max_length=4)
    correct_index: int = Field(ge=0, le=3)
    explanation: str = Field(min_length=3, max_length=1500)
    source_block_ids: list[str] = cited_ids(8)

    @field_validator("question", "explanation")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @model_validator(mode="after")
    def _shape(self) -> QuizItem:
        options = [str(o).strip() for o in self.options]
        if self.type == "true_false":
            self.options, self.correct_index = _true_false(options, self.correct_index)
            return self
        if len(options) != 4 or not all(options) or len({o.casefold() for o in options}) != 4:
            raise ValueError("a multiple-choice question needs exactly 4 distinct, non-empty options")
        self.options = options
        return self


def _true_false(options: list[str], index: int) -> tuple[list[str], int]:
    if not options:
        options = TRUE_FALSE
    if len(options) != 2 or index > 1:
        raise ValueError("a true/false question has exactly 2 options")
    words = [o.casefold().rstrip(".") for o in options]
    if words[0] in _TRUTHY and words[1] in _FALSY:
        return TRUE_FALSE, index
    if words[0] in _FALSY and words[1] in _TRUTHY:
        return TRUE_FALSE, 1 - index
    raise ValueError('true/false options must be "True" and "False"')


class QuizBatch(BaseModel):
    questions: list[QuizItem]


_SOURCES = Field(max_length=8, description='ids of the passages used, e.g. ["P3"]')


class McqDraft(BaseModel):
    """A multiple-choice question as the schema sent to the model states it (what `QuizItem` requires)."""

    type: Literal["mcq"]
    question: str = Field(min_length=5, max_length=600)
    options: list[str] = Field(min_length=MCQ_OPTIONS, max_length=MCQ_OPTIONS, json_schema_extra={"uniqueItems": True},
                               description="exactly 4 different options, one of them correct")
    correct_index: int = Field(ge=0, le=MCQ_OPTIONS - 1, description="0-based index of the correct option")
    explanation: str = Field(min_length=3, max_length=1500)
    source_block_ids: list[str] = _SOURCES


class TrueFalseDraft(BaseModel):
    """A true/false question as the schema sent to the model states it."""

    type: Literal["true_false"]
    question: str = Field(min_length=5, max_length=600)
    options: list[Literal["True", "False"]] = Field(min_length=2, max_length=2, json_schema_extra={"uniqueItems": True})
    correct_index: int = Field(ge=0, le=1, description="0 if the statement is true, 1 if it is false")
    explanation: str = Field(min_length=3, max_length=1500)
    source_block_ids: list[str] = _SOURCES


def quiz_schema(types: Sequence[str]) -> dict[str, Any]:
    """The list schema sent to the model: only the requested question types, each with its rules."""
    variants = [json_schema(McqDraft)] * ("mcq" in types) + [json_schema(TrueFalseDraft)] * ("true_false" in types)
    items = variants[0] if len(variants) == 1 else {"anyOf": variants}
    return {"type": "object", "properties": {"questions": {"type": "array", "items": items}},
            "required": ["questions"]}


class QuizRequest(GenerateRequest):
    difficulty: Difficulty = "intermediate"
    count: Literal[5, 10, 20] = 10
    types: list[QuestionType] = Field(default_factory=lambda: list[QuestionType](["mcq", "true_false"]),
                                      min_length=1, max_length=2)

    @field_validator("types")
    @classmethod
    def _unique(cls, value: list[str]) -> list[str]:
        return sorted(set(value))


class QuestionOut(BaseModel):
    """A question as shown while taking the quiz: the answer comes back when it is submitted."""

    id: str
    position: int
    type: QuestionType
    question: str
    options: list[str]
    sources: list[SourceOut]


class OpenAttempt(BaseModel):
    answered: int
    total: int


class QuizSummary(BaseModel):
    id: str
    title: str
    difficulty: Difficulty
    types: list[QuestionType]
    question_count: int
    requested_count: int
    scope: ScopeOut
    workshop_id: str | None
    purpose: Literal["weak_spots"] | None  # weak_spots: made from the passages behind mistakes and lapsed cards
    created_at: datetime
    attempts: int
    best_score: float | None  # best finished attempt, correct / total
    last_attempt_at: datetime | None
    open_attempt: OpenAttempt | None  # the unfinished attempt a user can resume, if any


class QuizOut(QuizSummary):
    questions: list[QuestionOut]


# -- generation ----------------------------------------------------------------------------------------
def start(study: jobs.StudyJobs, request: QuizRequest) -> JobOut:
    params = {"scope": scope_params(study.db, request.scope), "difficulty": request.difficulty,
              "count": request.count, "types": request.types}
    return study.submit("quiz", params, request.client_token)


def run(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    passages = drafting.scope_passages(as_scope(params["scope"]), min(MAX_PASSAGES, max(6, params["count"])))
    report = Report()
    try:
        items = draft(drafting, passages, params["count"], params["difficulty"], params["types"],
                      "the material in the passages", report)
    finally:
        jobs.record_report(drafting.db, job_id, report)
    quiz = {"id": jobs.artifact_id(job_id), "title": scope_title(drafting.db, params["scope"], "Quiz"),
            "difficulty": params["difficulty"], "types": params["types"], "requested_count": params["count"],
            "scope": params["scope"], "workshop_id": None, "job_id": job_id}
    return saver(quiz, items)


def draft(drafting: jobs.Drafting, passages: Sequence[Passage], count: int, difficulty: str, types: Sequence[str],
          focus: str, report: Report) -> list[Grounded[QuizItem]]:
    """Validated questions of the requested types from these passages (shared with the workshop recap)."""
    wanted = ", ".join({"mcq": 'multiple choice ("mcq", exactly 4 options)',
                        "true_false": 'true/false ("true_false", options ["True", "False"])'}[t] for t in types)
    prompt, passages = fitted_prompt(drafting.llm, drafting.prompts, "quiz", passages, ANSWER_TOKENS_PER_ITEM * count,
                                     count=count, difficulty=difficulty, types=wanted, focus=focus)
    return generate_items(drafting.llm, prompt, QuizItem, QuizBatch, "questions", count, passages, report,
                          accept=lambda item: item.type in types, repair=repair_question, schema=quiz_schema(types))


def shuffled(item: QuizItem, seed: str) -> tuple[list[str], int]:
    """The item's options in an order drawn from `seed` and the index of the right one in that order.
    True/false keeps "True", "False": that order is a convention, not a hint."""
    if item.type != "mcq":
        return item.options, item.correct_index
    order = list(range(len(item.options)))
    random.Random(seed).shuffle(order)  # a str seed is hashed with SHA-512: the same in every process
    return [item.options[i] for i in order], order.index(item.correct_index)


def saver(quiz: dict[str, Any], items: Sequence[Grounded[QuizItem]]) -> jobs.Saver:
    questions = []
    for i, g in enumerate(items, start=1):
        question_id = jobs.artifact_id(quiz["job_id"], f"q{i}")
        options, correct = shuffled(g.item, question_id)
        questions.append({"id": question_id, "position": i, "type": g.item.type, "question": g.item.question,
                          "options": options, "correct_index": correct, "explanation": g.item.explanation,
                          "sources": g.sources})

    def save(conn: Connection) -> str:
        store.insert_quiz(conn, quiz, questions)
        return str(quiz["id"])

    return save


# -- reading -------------------------------------------------------------------------------------------
def _summary(row: store.QuizRow) -> dict[str, Any]:
    best, total, open_answered = row["best_correct"], row["question_count"], row["open_answered"]
    return {**row, "best_score": round(best / total, 4) if best is not None and total else None,
            "open_attempt": {"answered": open_answered, "total": total} if open_answered is not None else None}


def list_quizzes(db: Database, workshop_id: str | None = None) -> list[QuizSummary]:
    return [QuizSummary.model_validate(_summary(row)) for row in store.list_quizzes(db, workshop_id)]


def quiz_row(db: Database, quiz_id: str) -> store.QuizRow:
    return found(store.get_quiz(db, quiz_id), "Quiz", quiz_id)


def get_quiz(db: Database, quiz_id: str) -> QuizOut:
    row = quiz_row(db, quiz_id)
    questions = [QuestionOut.model_validate(q) for q in store.questions(db, quiz_id)]
    return QuizOut.model_validate({**_summary(row), "questions": questions})


def delete_quiz(db: Database, quiz_id: str) -> None:
    if not store.delete_quiz(db, quiz_id):
        raise NotFound("Quiz", quiz_id)
