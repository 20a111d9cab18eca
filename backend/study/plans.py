"""Exam plans: an exam date, what it covers (documents, categories, decks) and a target retrievability; each
read plans today's reviews, new cards and quiz from the cards' current FSRS state (`planner.py`) and says
whether the student is on track.

- **Today**: the learnt cards due by the plan (missed ones included), today's share of new cards
  (mistake cards at once), what was studied today, and a quiz when one is planned: a weak-spots quiz on
  any day with recent mistakes in the scope, otherwise a short quiz over the scope every third day
  counting back from the exam (the day before it included), for plans that cover documents.
- **Status**: `on_track` (nothing missed), `behind` (reviews missed: they are today's), `exam_today`,
  `exam_passed`, or `nothing_to_study` (no cards in the scope yet).
- The study day follows the study time zone (QUIRE_TIMEZONE, as the dashboard does); the scheduler's
  parameters are the user's fitted ones once there are any (`fsrs_tuning.py`).
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, time
from typing import Literal

from fsrs import Card
from pydantic import BaseModel, Field, field_validator

from backend.errors import NotFound, QuireError, found
from backend.progress.sessions import Rules
from backend.store import decks as deck_store
from backend.store import plans as store
from backend.store.db import Database
from backend.study import fsrs_tuning, mistakes
from backend.study.flashcards import CardOut, card_out, fsrs_card
from backend.study.planner import Calendar, Forecast, PlanCard, forecast
from backend.study.schemas import ScopeIn
from backend.study.scopes import scope_params, scope_title

PlanStatus = Literal["on_track", "behind", "exam_today", "exam_passed", "nothing_to_study"]
QUIZ_EVERY_DAYS = 3
MAX_DAYS_AHEAD = 3 * 366  # a plan lists every day to the exam: beyond three years it plans nothing useful
PLAN_QUIZ_QUESTIONS = 5


class PlanScopeIn(ScopeIn):
    deck_ids: list[uuid.UUID] = Field(default_factory=list, max_length=200)


class PlanIn(BaseModel):
    exam_date: date
    title: str | None = Field(None, min_length=1, max_length=200)
    scope: PlanScopeIn = Field(default_factory=PlanScopeIn)
    target_retention: float = Field(0.9, gt=0.5, lt=1.0)


class PlanPatch(BaseModel):
    exam_date: date | None = None
    title: str | None = Field(None, min_length=1, max_length=200)
    target_retention: float | None = Field(None, gt=0.5, lt=1.0)

    @field_validator("title")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        return value.strip() if value else value


class PlanScopeOut(BaseModel):
    document_ids: list[str]
    categories: list[str]
    deck_ids: list[str]


class PlanDayOut(BaseModel):
    date: date
    reviews: int
    new: int
    quiz: bool


class QuizPlanOut(BaseModel):
    kind: Literal["weak_spots", "scope"]
    questions: int
    done: bool  # a quiz over the scope was finished today
    reason: str


class TodayOut(BaseModel):
    date: date
    reviews_due: int  # learnt cards due today by the plan, missed ones included
    new_due: int  # new cards to learn today
    missed: int
    reviews_done: int  # reviews of the scope's cards today
    learnt_today: int  # of which first reviews of new cards
    quiz: QuizPlanOut | None


class PlanOut(BaseModel):
    id: str
    title: str
    exam_date: date
    days_left: int  # study days before the exam (today included)
    scope: PlanScopeOut
    target_retention: float
    status: PlanStatus
    message: str
    cards: int
    new_left: int
    retention_now: float  # mean predicted retrievability at the exam without more study
    retention_planned: float  # the same if the plan is followed
    at_target: int  # cards reaching the target at the exam if the plan is followed
    today: TodayOut
    days: list[PlanDayOut]
    created_at: datetime


class PlanCardsOut(BaseModel):
    """Today's cards of the plan, to review in one session (each with its deck)."""

    plan_id: str
    cards: list[CardOut]


def _calendar(rules: Rules, exam: date, now: datetime) -> Calendar:
    zone = rules.zone
    today = now.astimezone(zone).date() if zone else now.astimezone().date()
    return Calendar(today=today, exam=exam, zone=zone, now=now)


def _plan_row(db: Database, plan_id: str) -> store.PlanRow:
    return found(store.get(db, plan_id), "Exam plan", plan_id)


def _check_date(rules: Rules, exam: date, now: datetime) -> None:
    today = _calendar(rules, exam, now).today
    if exam < today:
        raise QuireError("exam_in_past", "The exam date has passed; choose today or a later day.", 422)
    if (exam - today).days > MAX_DAYS_AHEAD:
        raise QuireError("exam_too_far", "Plan toward an exam at most three years ahead.", 422)


def create(db: Database, rules: Rules, body: PlanIn) -> PlanOut:
    now = datetime.now(UTC)
    _check_date(rules, body.exam_date, now)
    documents = scope_params(db, body.scope) if body.scope.document_ids or body.scope.categories else \
        {"document_ids": [], "categories": []}
    deck_ids = sorted(str(d) for d in body.scope.deck_ids)
    for deck_id in deck_ids:
        if deck_store.get_deck(db, deck_id, now) is None:
            raise NotFound("Deck", deck_id)
    scope = {**documents, "deck_ids": deck_ids}
    title = body.title or scope_title(db, documents, "Exam")
    row = store.insert(db, {"id": str(uuid.uuid4()), "title": title.strip(), "exam_date": body.exam_date,
                                "scope": scope, "target_retention": body.target_retention})
    return plan_out(db, rules, row, now)


def update(db: Database, rules: Rules, plan_id: str, patch: PlanPatch) -> PlanOut:
    _plan_row(db, plan_id)
    if patch.exam_date is not None:
        _check_date(rules, patch.exam_date, datetime.now(UTC))
    row = store.update(db, plan_id, patch.model_dump(exclude_none=True))
    if row is None:
        raise NotFound("Exam plan", plan_id)
    return plan_out(db, rules, row, datetime.now(UTC))


def delete(db: Database, plan_id: str) -> None:
    if not store.delete(db, plan_id):
        raise NotFound("Exam plan", plan_id)


def list_plans(db: Database, rules: Rules) -> list[PlanOut]:
    now = datetime.now(UTC)
    return [plan_out(db, rules, row, now) for row in store.list_plans(db)]


def get_plan(db: Database, rules: Rules, plan_id: str) -> PlanOut:
    return plan_out(db, rules, _plan_row(db, plan_id), datetime.now(UTC))


def _forecast(db: Database, rules: Rules, row: store.PlanRow,
              now: datetime) -> tuple[Forecast, Calendar, dict[str, int]]:
    cal = _calendar(rules, row["exam_date"], now)
    cards = store.scope_cards(db, row["scope"])
    studied = store.studied_since(db, [c["id"] for c in cards], cal.at(cal.today, time(0)))
    plan_cards = [PlanCard(c["id"], fsrs_card(c) if c["reps"] else Card(), new=c["reps"] == 0,
                           due_now=c["origin"] == "mistake") for c in cards]
    parameters = fsrs_tuning.scheduler_for(db).parameters
    result = forecast(plan_cards, cal, parameters, row["target_retention"], studied["learnt"])
    return result, cal, studied


def _quiz(db: Database, row: store.PlanRow, cal: Calendar) -> QuizPlanOut | None:
    scope = row["scope"]
    if cal.today >= cal.exam or not (scope["document_ids"] or scope["categories"]):
        return None
    done = store.quizzes_finished_since(db, scope["document_ids"], cal.at(cal.today, time(0))) > 0
    weak = mistakes.weak_block_ids(db, {"document_ids": scope["document_ids"], "categories": scope["categories"]})
    if weak:
        return QuizPlanOut(kind="weak_spots", questions=PLAN_QUIZ_QUESTIONS, done=done,
                           reason=f"{len(weak)} passages behind recent mistakes or forgotten cards")
    if (cal.exam - cal.today).days % QUIZ_EVERY_DAYS != 1:
        return None
    return QuizPlanOut(kind="scope", questions=PLAN_QUIZ_QUESTIONS, done=done,
                       reason=f"a short quiz every {QUIZ_EVERY_DAYS} days keeps the whole scope in view")


def _status(result: Forecast, cal: Calendar) -> tuple[PlanStatus, str]:
    if cal.today > cal.exam:
        return "exam_passed", "The exam date has passed."
    if cal.today == cal.exam:
        return "exam_today", "The exam is today: good luck."
    if result.total == 0:
        return "nothing_to_study", "No cards in this plan's scope yet: make a deck or take a quiz on it."
    if result.missed:
        return "behind", f"{result.missed} reviews were missed; they are in today's plan."
    return "on_track", "On track: follow today's plan and every card reaches the target by the exam."


def plan_out(db: Database, rules: Rules, row: store.PlanRow, now: datetime) -> PlanOut:
    result, cal, studied = _forecast(db, rules, row, now)
    status, message = _status(result, cal)
    quiz = _quiz(db, row, cal)
    covers_documents = bool(row["scope"]["document_ids"] or row["scope"]["categories"])
    days = [PlanDayOut(date=d.day, reviews=d.reviews, new=d.new,
                   quiz=covers_documents and (row["exam_date"] - d.day).days % QUIZ_EVERY_DAYS == 1)
            for d in result.days]
    today = TodayOut(date=cal.today, reviews_due=len(result.review_today), new_due=len(result.new_today),
                     missed=result.missed, reviews_done=studied["reviews"], learnt_today=studied["learnt"],
                     quiz=quiz)
    return PlanOut(id=row["id"], title=row["title"], exam_date=row["exam_date"], days_left=len(result.days),
                   scope=PlanScopeOut.model_validate(row["scope"]), target_retention=row["target_retention"],
                   status=status, message=message, cards=result.total, new_left=result.new_left,
                   retention_now=result.retention_now, retention_planned=result.retention_planned,
                   at_target=result.at_target, today=today, days=days, created_at=row["created_at"])


def today_cards(db: Database, rules: Rules, plan_id: str) -> PlanCardsOut:
    """The plan's cards for today: learnt cards due (most overdue first), then today's new cards."""
    now = datetime.now(UTC)
    row = _plan_row(db, plan_id)
    result, _, _ = _forecast(db, rules, row, now)
    wanted = result.review_today + result.new_today
    by_id = {c["id"]: c for c in store.scope_cards(db, row["scope"])}
    scheduler = fsrs_tuning.scheduler_for(db)
    reviews = sorted((by_id[i] for i in result.review_today), key=lambda c: c["due"])
    ordered = reviews + [by_id[i] for i in result.new_today]
    return PlanCardsOut(plan_id=plan_id, cards=[card_out(c, now, scheduler) for c in ordered if c["id"] in wanted])
