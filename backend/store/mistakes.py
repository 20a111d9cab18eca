"""SQL for the mistakes loop: the "Mistakes" deck of a scope, the card a wrong or unsure quiz answer
becomes, and the passages behind recent mistakes and lapsed cards ("practise my weak spots")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from backend.store.db import Connection, Database, one


def mistakes_deck(conn: Connection, deck_id: str, title: str, scope: dict[str, Any]) -> str:
    """The id of the scope's Mistakes deck, made now if it has none (one per scope, even when two
    answers race: the unique index decides and the loser reads the winner's deck)."""
    conn.execute(
        "INSERT INTO decks (id, title, scope, purpose) VALUES (%s, %s, %s, 'mistakes')"
        " ON CONFLICT (scope) WHERE purpose = 'mistakes' DO NOTHING",
        (deck_id, title, Jsonb(scope)),
    )
    row = one(conn.execute("SELECT id::text AS id FROM decks WHERE purpose = 'mistakes' AND scope = %s",
                           (Jsonb(scope),)))
    return str(row["id"])


def add_mistake_card(conn: Connection, deck_id: str, card: dict[str, Any]) -> str:
    """Add the card of a missed question, or make the one it already has due now (unretired); returns its id."""
    conn.execute("SELECT 1 FROM decks WHERE id = %s FOR UPDATE", (deck_id,))
    row = one(conn.execute(
        "INSERT INTO cards (id, deck_id, position, kind, front, back, tags, origin, sources, question_id)"
        " SELECT %(id)s, %(deck)s, coalesce(max(position), 0) + 1, 'basic', %(front)s, %(back)s, %(tags)s,"
        " 'mistake', %(sources)s, %(question_id)s FROM cards WHERE deck_id = %(deck)s"
        " ON CONFLICT (deck_id, question_id) WHERE question_id IS NOT NULL DO UPDATE"
        " SET due = least(cards.due, now()), retired_at = NULL, updated_at = now()"
        " RETURNING id::text AS id",
        {**card, "deck": deck_id, "sources": Jsonb(card["sources"])},
    ))
    return str(row["id"])


def weak_spot_sources(db: Database, since: datetime, limit: int) -> list[list[dict[str, Any]]]:
    """The grounding of recent mistakes (answers wrong or unsure since `since`) and of cards that lapsed
    or were last rated "again", most recent first."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT sources, at FROM ("
            "  SELECT q.sources, x.answered_at AS at FROM quiz_answers x JOIN quiz_questions q ON q.id = x.question_id"
            "  WHERE (NOT x.correct OR x.unsure) AND x.answered_at >= %(since)s AND q.retired_at IS NULL"
            "  UNION ALL"
            "  SELECT c.sources, coalesce(c.last_review, c.created_at) AS at FROM cards c"
            "  WHERE c.retired_at IS NULL AND (c.lapses > 0 OR EXISTS (SELECT 1 FROM card_reviews r"
            "    WHERE r.card_id = c.id AND r.rating = 1 AND r.reviewed_at >= %(since)s"
            "    AND r.reviewed_at = (SELECT max(reviewed_at) FROM card_reviews WHERE card_id = c.id)))"
            ") weak ORDER BY at DESC LIMIT %(limit)s",
            {"since": since, "limit": limit},
        ).fetchall()
    return [row["sources"] for row in rows]


def live_twins(db: Database, block_ids: Sequence[str]) -> dict[str, str]:
    """For each block, the live block of its document holding the same text (itself when it is live):
    a passage cited before a new version of its document stays citable when its text did not change."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT DISTINCT ON (o.id) o.id::text AS old, n.id::text AS live FROM blocks o"
            " JOIN documents d ON d.id = o.document_id AND d.status <> 'trashed'"
            " JOIN blocks n ON n.document_id = o.document_id AND n.is_live AND md5(n.text)::uuid = md5(o.text)::uuid"
            " WHERE o.id = ANY(%s::uuid[]) ORDER BY o.id, n.id = o.id DESC, abs(n.ordinal - o.ordinal)",
            (list(block_ids),),
        ).fetchall()
    return {row["old"]: row["live"] for row in rows}
