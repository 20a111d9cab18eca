"""Exam plan routes under `/api/study/plans`: create, list, read (today's plan, the days to the exam, the
status), change, delete, and today's cards to review in one session."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Response, status

from backend.api.deps import DatabaseDep, RulesDep
from backend.study import plans
from backend.study.plans import PlanCardsOut, PlanIn, PlanOut, PlanPatch

router = APIRouter(prefix="/plans", tags=["study: exam plans"])


@router.post("", status_code=status.HTTP_201_CREATED)
def create_plan(body: PlanIn, db: DatabaseDep, rules: RulesDep) -> PlanOut:
    """Plan toward an exam: its date (today or later), scope (documents, categories, decks) and target."""
    return plans.create(db, rules, body)


@router.get("")
def list_plans(db: DatabaseDep, rules: RulesDep) -> list[PlanOut]:
    """Every plan, nearest exam first, each with today's plan and status."""
    return plans.list_plans(db, rules)


@router.get("/{plan_id}")
def get_plan(plan_id: UUID, db: DatabaseDep, rules: RulesDep) -> PlanOut:
    return plans.get_plan(db, rules, str(plan_id))


@router.patch("/{plan_id}")
def update_plan(plan_id: UUID, body: PlanPatch, db: DatabaseDep, rules: RulesDep) -> PlanOut:
    return plans.update(db, rules, str(plan_id), body)


@router.delete("/{plan_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_plan(plan_id: UUID, db: DatabaseDep) -> Response:
    plans.delete(db, str(plan_id))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{plan_id}/today")
def today_cards(plan_id: UUID, db: DatabaseDep, rules: RulesDep) -> PlanCardsOut:
    """Today's cards: the learnt ones due by the plan (most overdue first), then today's new ones. Rate
    each with `POST /api/study/decks/{deck_id}/cards/{card_id}/review`."""
    return plans.today_cards(db, rules, str(plan_id))
