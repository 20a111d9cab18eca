"""SQL for exam plans and what planning needs: the cards in a plan's scope and today's study in it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Database, fetch_row, fetch_rows, one, one_as, row_as
from backend.store.decks import CARD_COLUMNS, CardRow


class PlanRow(TypedDict):
    id: str
    title: str
    exam_date: date
    scope: dict[str, Any]  # document_ids, categories, deck_ids
    target_retention: float
    created_at: datetime
    updated_at: datetime


_PLAN = "SELECT id::text AS id, title, exam_date, scope, target_retention, created_at, updated_at FROM exam_plans"
# A card is in scope when its deck is chosen, when its deck was made from chosen documents or categories,
# or when it cites a chosen document or a document of a chosen category. No choice at all: every card.
_IN_SCOPE = """
    c.retired_at IS NULL AND (
      (cardinality(%(decks)s::uuid[]) = 0 AND cardinality(%(ids)s::uuid[]) = 0 AND cardinality(%(cats)s::text[]) = 0)
      OR c.deck_id = ANY(%(decks)s::uuid[])
      OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(d.scope->'document_ids') x
                 WHERE x::uuid = ANY(%(ids)s::uuid[]))
      OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(d.scope->'categories') x WHERE x = ANY(%(cats)s::text[]))
      OR EXISTS (SELECT 1 FROM jsonb_array_elements(c.sources) s JOIN documents doc
                 ON doc.id = (s->>'document_id')::uuid
                 WHERE doc.id = ANY(%(ids)s::uuid[]) OR doc.category = ANY(%(cats)s::text[])))
"""


def _scope_params(scope: dict[str, Any]) -> dict[str, list[str]]:
    return {"decks": scope.get("deck_ids", []), "ids": scope.get("document_ids", []),
            "cats": scope.get("categories", [])}


def insert(db: Database, plan: dict[str, Any]) -> PlanRow:
    with db.connection() as conn:
        conn.execute("INSERT INTO exam_plans (id, title, exam_date, scope, target_retention)"
                     " VALUES (%(id)s, %(title)s, %(exam_date)s, %(scope)s, %(target_retention)s)",
                     {**plan, "scope": Jsonb(plan["scope"])})
        return one_as(PlanRow, conn.execute(f"{_PLAN} WHERE id = %s", (plan["id"],)))


def update(db: Database, plan_id: str, fields: dict[str, Any]) -> PlanRow | None:
    if "scope" in fields:
        fields = {**fields, "scope": Jsonb(fields["scope"])}
    sets = ", ".join(f"{name} = %({name})s" for name in fields
                     if name in ("title", "exam_date", "scope", "target_retention"))
    with db.connection() as conn:
        if sets:
            conn.execute(f"UPDATE exam_plans SET {sets}, updated_at = now() WHERE id = %(id)s",  # noqa: S608
                         {**fields, "id": plan_id})
        return row_as(PlanRow, conn.execute(f"{_PLAN} WHERE id = %s", (plan_id,)).fetchone())


def get(db: Database, plan_id: str) -> PlanRow | None:
    return fetch_row(db, PlanRow, f"{_PLAN} WHERE id = %s", (plan_id,))


def list_plans(db: Database) -> list[PlanRow]:
    return fetch_rows(db, PlanRow, f"{_PLAN} ORDER BY exam_date, created_at")


def delete(db: Database, plan_id: str) -> bool:
    with db.connection() as conn:
        return conn.execute("DELETE FROM exam_plans WHERE id = %s", (plan_id,)).rowcount > 0


def scope_cards(db: Database, scope: dict[str, Any]) -> list[CardRow]:
    """The live cards in the plan's scope, in deck order."""
    return fetch_rows(db, CardRow,
        f"SELECT {CARD_COLUMNS} FROM cards WHERE id IN (SELECT c.id FROM cards c JOIN decks d ON d.id = c.deck_id"  # noqa: S608
        f" WHERE {_IN_SCOPE}) ORDER BY created_at, position",
        _scope_params(scope),
    )


def studied_since(db: Database, card_ids: Sequence[str], since: datetime) -> dict[str, int]:
    """Reviews of these cards since `since`, and how many of them were the card's first review ever."""
    with db.connection() as conn:
        row = one(conn.execute(
            "SELECT count(*) AS reviews, count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM card_reviews e"
            " WHERE e.card_id = r.card_id AND e.reviewed_at < %(since)s) AND r.state_before = 1"
            " AND r.id = (SELECT min(id) FROM card_reviews f WHERE f.card_id = r.card_id)) AS learnt"
            " FROM card_reviews r WHERE r.card_id = ANY(%(ids)s::uuid[]) AND r.reviewed_at >= %(since)s",
            {"ids": list(card_ids), "since": since},
        ))
    return {"reviews": int(row["reviews"]), "learnt": int(row["learnt"])}


def quizzes_finished_since(db: Database, document_ids: Sequence[str], since: datetime) -> int:
    """Quiz attempts finished since `since` on quizzes over any of these documents (all quizzes: none given)."""
    with db.connection() as conn:
        row = one(conn.execute(
            "SELECT count(*) AS n FROM quiz_attempts a JOIN quizzes q ON q.id = a.quiz_id"
            " WHERE a.finished_at >= %(since)s AND (cardinality(%(ids)s::text[]) = 0"
            " OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(q.scope->'document_ids') x"
            " WHERE x = ANY(%(ids)s::text[])))",
            {"ids": list(document_ids), "since": since},
        ))
    return int(row["n"])
