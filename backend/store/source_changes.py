"""SQL for study items whose cited passage changed: cards and quiz questions citing a block that is no
longer live, whose document (not in the trash) has no live block with the same text, and about which the
user has not decided yet; the decisions; and re-pointing an item's citation at the new passage.

Nothing is stored when a version changes: which items are flagged follows from the live blocks, so a
new version flags them at once, in every process, and restoring the old version un-flags them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Connection, Database, fetch_rows

ItemKind = Literal["card", "question"]
Decision = Literal["kept", "updated", "retired"]

_CITED = """
    SELECT 'card' AS item_kind, c.id AS item_id, c.deck_id AS parent_id, s.value AS source
    FROM cards c CROSS JOIN jsonb_array_elements(c.sources) s WHERE c.retired_at IS NULL
    UNION ALL
    SELECT 'question', q.id, q.quiz_id, s.value
    FROM quiz_questions q CROSS JOIN jsonb_array_elements(q.sources) s WHERE q.retired_at IS NULL
"""


class ChangedRow(TypedDict):
    item_kind: ItemKind
    item_id: str
    parent_id: str  # the card's deck, the question's quiz
    block_id: str
    document_id: str
    filename: str
    old_text: str | None  # None: the version holding it was deleted since
    old_page: int | None


class LiveBlockRow(TypedDict):
    id: str
    document_id: str
    ordinal: int
    page: int | None
    text: str


def changed_citations(db: Database, limit: int) -> list[ChangedRow]:
    """Citations whose passage is gone from the live version of its document, undecided, oldest item first."""
    return fetch_rows(db, ChangedRow,
            f"""
            SELECT c.item_kind, c.item_id::text AS item_id, c.parent_id::text AS parent_id,
                   c.source->>'block_id' AS block_id, d.id::text AS document_id, d.filename,
                   o.text AS old_text, o.page AS old_page
            FROM ({_CITED}) c
            JOIN documents d ON d.id = (c.source->>'document_id')::uuid AND d.status <> 'trashed'
            LEFT JOIN blocks o ON o.id = (c.source->>'block_id')::uuid
            WHERE (o.id IS NULL OR NOT o.is_live)
              AND EXISTS (SELECT 1 FROM blocks l WHERE l.document_id = d.id AND l.is_live)
              AND NOT EXISTS (SELECT 1 FROM blocks n WHERE o.id IS NOT NULL AND n.document_id = d.id
                              AND n.is_live AND md5(n.text)::uuid = md5(o.text)::uuid)
              AND NOT EXISTS (SELECT 1 FROM source_decisions x WHERE x.item_kind = c.item_kind
                              AND x.item_id = c.item_id AND x.block_id = (c.source->>'block_id')::uuid)
            ORDER BY c.item_kind, c.item_id, block_id LIMIT %s
            """,  # noqa: S608 - fixed fragment
        (limit,),
    )


def live_blocks(db: Database, document_ids: Sequence[str]) -> list[LiveBlockRow]:
    return fetch_rows(db, LiveBlockRow,
        "SELECT id::text AS id, document_id::text AS document_id, ordinal, page, text FROM blocks"
        " WHERE document_id = ANY(%s::uuid[]) AND is_live ORDER BY document_id, ordinal",
        (list(document_ids),),
    )


def repoint(conn: Connection, kind: ItemKind, item_ids: Sequence[str], old_block_id: str,
            new_source: dict[str, Any]) -> None:
    """Cite `new_source` where these items cited `old_block_id` (their other citations stay as they are)."""
    table = "cards" if kind == "card" else "quiz_questions"
    conn.execute(
        f"UPDATE {table} SET sources = (SELECT coalesce(jsonb_agg(CASE WHEN e->>'block_id' = %(old)s"  # noqa: S608
        " THEN %(new)s ELSE e END ORDER BY i), '[]'::jsonb) FROM jsonb_array_elements(sources)"
        " WITH ORDINALITY AS t(e, i)) WHERE id = ANY(%(ids)s::uuid[])",
        {"old": old_block_id, "new": Jsonb(new_source), "ids": list(item_ids)},
    )


def decide(conn: Connection, kind: ItemKind, item_ids: Sequence[str], block_id: str, decision: Decision,
           new_block_id: str | None) -> None:
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO source_decisions (item_kind, item_id, block_id, decision, new_block_id)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            [(kind, item_id, block_id, decision, new_block_id) for item_id in item_ids],
        )


def retire(conn: Connection, kind: ItemKind, item_ids: Sequence[str]) -> None:
    table = "cards" if kind == "card" else "quiz_questions"
    conn.execute(f"UPDATE {table} SET retired_at = coalesce(retired_at, now()) WHERE id = ANY(%s::uuid[])",  # noqa: S608
                 (list(item_ids),))


def update_card_text(conn: Connection, card_ids: Sequence[str], front: str, back: str) -> None:
    conn.execute("UPDATE cards SET front = %s, back = %s, updated_at = now() WHERE id = ANY(%s::uuid[])",
                 (front, back, list(card_ids)))


def update_question(conn: Connection, question_id: str, fields: dict[str, Any]) -> None:
    conn.execute(
        "UPDATE quiz_questions SET question = %(question)s, options = %(options)s, correct_index = %(correct_index)s,"
        " explanation = %(explanation)s WHERE id = %(id)s",
        {**fields, "options": Jsonb(fields["options"]), "id": question_id},
    )


class ItemRow(TypedDict):
    id: str
    parent_id: str
    parent_title: str
    note_id: str | None
    kind: str  # card: basic | typed | cloze; question: mcq | true_false
    text: dict[str, Any]  # card: front, back; question: question, options, correct_index, explanation
    sources: list[dict[str, Any]]
    created_at: datetime


def items(db: Database, kind: ItemKind, item_ids: Sequence[str]) -> list[ItemRow]:
    """Cards or questions with what the user needs to judge them (their deck's or quiz's title)."""
    if kind == "card":
        query = ("SELECT c.id::text AS id, c.deck_id::text AS parent_id, d.title AS parent_title,"
                 " c.note_id::text AS note_id, c.kind, jsonb_build_object('front', c.front, 'back', c.back) AS text,"
                 " c.sources, c.created_at FROM cards c JOIN decks d ON d.id = c.deck_id WHERE c.id = ANY(%s::uuid[])")
    else:
        query = ("SELECT q.id::text AS id, q.quiz_id::text AS parent_id, z.title AS parent_title, NULL AS note_id,"
                 " q.type AS kind, jsonb_build_object('question', q.question, 'options', q.options, 'correct_index',"
                 " q.correct_index, 'explanation', q.explanation) AS text, q.sources, z.created_at"
                 " FROM quiz_questions q JOIN quizzes z ON z.id = q.quiz_id WHERE q.id = ANY(%s::uuid[])")
    return fetch_rows(db, ItemRow, query, (list(item_ids),))


def note_siblings(db: Database, note_id: str) -> list[str]:
    with db.connection() as conn:
        return [row["id"] for row in conn.execute("SELECT id::text AS id FROM cards WHERE note_id = %s",
                                                  (note_id,)).fetchall()]
