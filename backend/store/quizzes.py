"""SQL for quizzes, their questions, attempts and answers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Connection, Database, fetch_row, fetch_rows, one_as

_SUMMARY = """
    SELECT q.id::text AS id, q.title, q.difficulty, q.types, q.requested_count, q.scope,
           q.workshop_id::text AS workshop_id, q.purpose, q.created_at,
           (SELECT count(*) FROM quiz_questions qq WHERE qq.quiz_id = q.id AND qq.retired_at IS NULL) AS question_count,
           a.attempts, a.best_correct, a.last_attempt_at, o.open_answered
    FROM quizzes q
    LEFT JOIN LATERAL (
        SELECT count(*) AS attempts, max(s.correct) FILTER (WHERE s.finished_at IS NOT NULL) AS best_correct,
               max(s.started_at) AS last_attempt_at
        FROM (SELECT qa.started_at, qa.finished_at,
                     (SELECT count(*) FROM quiz_answers x WHERE x.attempt_id = qa.id AND x.correct
                      AND x.question_id IN (SELECT id FROM quiz_questions WHERE retired_at IS NULL)) AS correct
              FROM quiz_attempts qa WHERE qa.quiz_id = q.id) s
    ) a ON true
    LEFT JOIN LATERAL (
        SELECT (SELECT count(*) FROM quiz_answers x WHERE x.attempt_id = qa.id) AS open_answered
        FROM quiz_attempts qa WHERE qa.quiz_id = q.id AND qa.finished_at IS NULL
        ORDER BY qa.started_at DESC LIMIT 1
    ) o ON true
"""

class QuizRow(TypedDict):
    """A quiz with its question count and attempt statistics, as `_SUMMARY` reads it."""

    id: str
    title: str
    difficulty: str
    types: list[str]
    requested_count: int
    scope: dict[str, Any]
    workshop_id: str | None
    purpose: Literal["weak_spots"] | None
    created_at: datetime
    question_count: int
    attempts: int
    best_correct: int | None
    last_attempt_at: datetime | None
    open_answered: int | None


class QuestionRow(TypedDict):
    id: str
    position: int
    type: str
    question: str
    options: list[str]
    correct_index: int
    explanation: str
    sources: list[dict[str, Any]]


class AttemptRow(TypedDict):
    id: str
    quiz_id: str
    started_at: datetime
    finished_at: datetime | None
    total: int
    answered: int
    correct: int


class AnswerRow(TypedDict):
    attempt_id: str
    question_id: str
    choice_index: int
    correct: bool
    unsure: bool
    answered_at: datetime
    correct_index: int
    explanation: str


_ATTEMPT = """
    SELECT a.id::text AS id, a.quiz_id::text AS quiz_id, a.started_at, a.finished_at,
           (SELECT count(*) FROM quiz_questions qq WHERE qq.quiz_id = a.quiz_id AND qq.retired_at IS NULL) AS total,
           (SELECT count(*) FILTER (WHERE x.correct) FROM quiz_answers x JOIN quiz_questions qq
            ON qq.id = x.question_id AND qq.retired_at IS NULL WHERE x.attempt_id = a.id) AS correct,
           (SELECT count(*) FROM quiz_answers x JOIN quiz_questions qq ON qq.id = x.question_id
            AND qq.retired_at IS NULL WHERE x.attempt_id = a.id) AS answered
    FROM quiz_attempts a
"""


def insert_quiz(conn: Connection, quiz: dict[str, Any], questions: Sequence[dict[str, Any]]) -> None:
    conn.execute(
        "INSERT INTO quizzes (id, title, difficulty, types, requested_count, scope, workshop_id, job_id, purpose)"
        " VALUES (%(id)s, %(title)s, %(difficulty)s, %(types)s, %(requested_count)s, %(scope)s,"
        " %(workshop_id)s, %(job_id)s, %(purpose)s) ON CONFLICT (id) DO NOTHING",
        {"purpose": None, **quiz, "scope": Jsonb(quiz["scope"])},
    )
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO quiz_questions (id, quiz_id, position, type, question, options, correct_index,"
            " explanation, sources) VALUES (%(id)s, %(quiz_id)s, %(position)s, %(type)s, %(question)s,"
            " %(options)s, %(correct_index)s, %(explanation)s, %(sources)s) ON CONFLICT (id) DO NOTHING",
            [{**q, "quiz_id": quiz["id"], "options": Jsonb(q["options"]), "sources": Jsonb(q["sources"])}
             for q in questions],
        )


def list_quizzes(db: Database, workshop_id: str | None = None) -> list[QuizRow]:
    where, params = ("WHERE q.workshop_id = %s", (workshop_id,)) if workshop_id else ("", ())
    return fetch_rows(db, QuizRow, f"{_SUMMARY} {where} ORDER BY q.created_at DESC", params)


def get_quiz(db: Database, quiz_id: str) -> QuizRow | None:
    return fetch_row(db, QuizRow, f"{_SUMMARY} WHERE q.id = %s", (quiz_id,))


def questions(db: Database, quiz_id: str) -> list[QuestionRow]:
    return fetch_rows(db, QuestionRow,
        "SELECT id::text AS id, position, type, question, options, correct_index, explanation, sources"
        " FROM quiz_questions WHERE quiz_id = %s AND retired_at IS NULL ORDER BY position",
        (quiz_id,),
    )


def delete_quiz(db: Database, quiz_id: str) -> bool:
    with db.connection() as conn:
        return conn.execute("DELETE FROM quizzes WHERE id = %s", (quiz_id,)).rowcount > 0


def open_attempt(db: Database, quiz_id: str) -> AttemptRow | None:
    return fetch_row(db, AttemptRow,
        f"{_ATTEMPT} WHERE a.quiz_id = %s AND a.finished_at IS NULL ORDER BY a.started_at DESC LIMIT 1",
        (quiz_id,),
    )


def create_attempt(db: Database, attempt_id: str, quiz_id: str) -> AttemptRow:
    with db.connection() as conn:
        conn.execute("INSERT INTO quiz_attempts (id, quiz_id) VALUES (%s, %s)", (attempt_id, quiz_id))
        return one_as(AttemptRow, conn.execute(f"{_ATTEMPT} WHERE a.id = %s", (attempt_id,)))


def attempts(db: Database, quiz_id: str) -> list[AttemptRow]:
    return fetch_rows(db, AttemptRow, f"{_ATTEMPT} WHERE a.quiz_id = %s ORDER BY a.started_at DESC", (quiz_id,))


def attempt(db: Database, quiz_id: str, attempt_id: str) -> AttemptRow | None:
    return fetch_row(db, AttemptRow, f"{_ATTEMPT} WHERE a.quiz_id = %s AND a.id = %s", (quiz_id, attempt_id))


def answers(db: Database, attempt_ids: Sequence[str]) -> list[AnswerRow]:
    return fetch_rows(db, AnswerRow,
        "SELECT x.attempt_id::text AS attempt_id, x.question_id::text AS question_id, x.choice_index,"
        " x.correct, x.unsure, x.answered_at, q.correct_index, q.explanation FROM quiz_answers x"
        " JOIN quiz_questions q ON q.id = x.question_id AND q.retired_at IS NULL"
        " WHERE x.attempt_id = ANY(%s::uuid[])"
        " ORDER BY q.position",
        (list(attempt_ids),),
    )


def record_answer(conn: Connection, attempt_id: str, question_id: str, choice_index: int, correct: bool,
                  unsure: bool) -> bool:
    """Store an answer unless the question was answered in this attempt already (answers are immutable);
    the attempt is finished with its last answer. Returns False when it was already answered. Call in
    a transaction (the caller may store more with the answer: the card a mistake becomes)."""
    conn.execute("SELECT 1 FROM quiz_attempts WHERE id = %s FOR UPDATE", (attempt_id,))
    inserted = conn.execute(
        "INSERT INTO quiz_answers (attempt_id, question_id, choice_index, correct, unsure)"
        " VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
        (attempt_id, question_id, choice_index, correct, unsure),
    ).rowcount > 0
    conn.execute(
        "UPDATE quiz_attempts a SET finished_at = now() WHERE a.id = %s AND a.finished_at IS NULL"
        " AND (SELECT count(*) FROM quiz_answers x WHERE x.attempt_id = a.id)"
        "   >= (SELECT count(*) FROM quiz_questions q WHERE q.quiz_id = a.quiz_id AND q.retired_at IS NULL)",
        (attempt_id,),
    )
    return inserted
