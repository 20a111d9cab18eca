"""SQL for flashcard decks, their cards (with FSRS scheduling state) and the review log."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Connection, Database, fetch_row, fetch_rows, one_as, row_as, rows_as

_DECK = """
    SELECT d.id::text AS id, d.title, d.scope, d.purpose, d.created_at,
           count(c.id) AS card_count,
           count(c.id) FILTER (WHERE c.due <= %(now)s) AS due_count,
           count(c.id) FILTER (WHERE c.reps = 0) AS new_count,
           max(c.last_review) AS last_reviewed_at
    FROM decks d LEFT JOIN cards c ON c.deck_id = d.id AND c.retired_at IS NULL
"""
CARD_COLUMNS = """
    id::text AS id, deck_id::text AS deck_id, position, kind, front, back, tags, origin, sources,
    note_id::text AS note_id, cloze_n, question_id::text AS question_id, retired_at, fsrs_state, fsrs_step,
    stability, difficulty, due, last_review, reps, lapses, created_at, updated_at
"""
_CARD = f"SELECT {CARD_COLUMNS} FROM cards"  # noqa: S608 - fixed fragments
_LIVE = "retired_at IS NULL"
CardKind = Literal["basic", "cloze", "typed"]
CardOrigin = Literal["generated", "manual", "mistake", "passage"]


class DeckRow(TypedDict):
    """A deck with its card counts, as `_DECK` reads it."""

    id: str
    title: str
    scope: dict[str, Any]
    purpose: Literal["mistakes"] | None
    created_at: datetime
    card_count: int
    due_count: int
    new_count: int
    last_reviewed_at: datetime | None


class CardRow(TypedDict):
    """A card with its FSRS scheduling state, as `_CARD` reads it."""

    id: str
    deck_id: str
    position: int
    kind: CardKind
    front: str
    back: str
    tags: list[str]
    origin: CardOrigin
    sources: list[dict[str, Any]]
    note_id: str | None  # the cloze note a card belongs to (one card per deletion number)
    cloze_n: int | None
    question_id: str | None  # the quiz question a mistake card came from
    retired_at: datetime | None
    fsrs_state: int
    fsrs_step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None
    reps: int
    lapses: int
    created_at: datetime
    updated_at: datetime


class ReviewRow(TypedDict):
    rating: int
    reviewed_at: datetime
    state_before: int
    due_before: datetime
    due_after: datetime


def insert_deck(conn: Connection, deck: dict[str, Any], cards: Sequence[dict[str, Any]]) -> None:
    conn.execute(
        "INSERT INTO decks (id, title, scope, job_id) VALUES (%s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
        (deck["id"], deck["title"], Jsonb(deck["scope"]), deck["job_id"]),
    )
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO cards (id, deck_id, position, front, back, tags, origin, sources)"
            " VALUES (%(id)s, %(deck_id)s, %(position)s, %(front)s, %(back)s, %(tags)s, 'generated', %(sources)s)"
            " ON CONFLICT (id) DO NOTHING",
            [{**c, "deck_id": deck["id"], "sources": Jsonb(c["sources"])} for c in cards],
        )


def list_decks(db: Database, now: datetime) -> list[DeckRow]:
    return fetch_rows(db, DeckRow, f"{_DECK} GROUP BY d.id ORDER BY d.created_at DESC", {"now": now})


def get_deck(db: Database, deck_id: str, now: datetime) -> DeckRow | None:
    return fetch_row(db, DeckRow, f"{_DECK} WHERE d.id = %(id)s GROUP BY d.id", {"now": now, "id": deck_id})


def delete_deck(db: Database, deck_id: str) -> bool:
    with db.connection() as conn:
        return conn.execute("DELETE FROM decks WHERE id = %s", (deck_id,)).rowcount > 0


def cards(db: Database, deck_id: str) -> list[CardRow]:
    return fetch_rows(db, CardRow, f"{_CARD} WHERE deck_id = %s AND {_LIVE} ORDER BY position", (deck_id,))


def due_cards(db: Database, deck_id: str, now: datetime, limit: int) -> list[CardRow]:
    """Cards due at `now`, most overdue first."""
    return fetch_rows(db, CardRow,
        f"{_CARD} WHERE deck_id = %s AND {_LIVE} AND due <= %s ORDER BY due, position LIMIT %s",
        (deck_id, now, limit),
    )


def get_card(db: Database, deck_id: str, card_id: str) -> CardRow | None:
    return fetch_row(db, CardRow, f"{_CARD} WHERE deck_id = %s AND id = %s", (deck_id, card_id))


def add_cards(db: Database, deck_id: str, cards: Sequence[dict[str, Any]]) -> list[CardRow]:
    """Append cards (keys: id, kind, front, back, tags, origin, sources, note_id, cloze_n) at the deck's end."""
    with db.transaction() as conn:
        return insert_cards(conn, deck_id, cards)


def insert_cards(conn: Connection, deck_id: str, cards: Sequence[dict[str, Any]]) -> list[CardRow]:
    conn.execute("SELECT 1 FROM decks WHERE id = %s FOR UPDATE", (deck_id,))
    for card in cards:
        conn.execute(
            "INSERT INTO cards (id, deck_id, position, kind, front, back, tags, origin, sources, note_id, cloze_n,"
            " question_id) SELECT %(id)s, %(deck)s, coalesce(max(position), 0) + 1, %(kind)s, %(front)s, %(back)s,"
            " %(tags)s, %(origin)s, %(sources)s, %(note_id)s, %(cloze_n)s, %(question_id)s"
            " FROM cards WHERE deck_id = %(deck)s",
            {"note_id": None, "cloze_n": None, "question_id": None, **card, "deck": deck_id,
             "sources": Jsonb(card.get("sources", []))},
        )
    ids = [card["id"] for card in cards]
    return rows_as(CardRow, conn.execute(f"{_CARD} WHERE id = ANY(%s::uuid[]) ORDER BY position",
                                            (ids,)).fetchall())


def note_cards(db: Database, deck_id: str, note_id: str) -> list[CardRow]:
    """The cards of one cloze note (retired ones too: editing the note may bring a deletion back)."""
    return fetch_rows(db, CardRow, f"{_CARD} WHERE deck_id = %s AND note_id = %s ORDER BY cloze_n", (deck_id, note_id))


def update_card(db: Database, deck_id: str, card_id: str, fields: dict[str, Any]) -> CardRow | None:
    """Change some of front, back, tags, sources (keys of `fields`); the card's schedule is kept."""
    if "sources" in fields:
        fields = {**fields, "sources": Jsonb(fields["sources"])}
    sets = ", ".join(f"{name} = %({name})s" for name in fields if name in ("front", "back", "tags", "sources"))
    with db.connection() as conn:
        if sets:
            conn.execute(
                f"UPDATE cards SET {sets}, updated_at = now() WHERE deck_id = %(deck)s AND id = %(id)s",  # noqa: S608
                {**fields, "deck": deck_id, "id": card_id},
            )
        return row_as(CardRow,
                    conn.execute(f"{_CARD} WHERE deck_id = %s AND id = %s", (deck_id, card_id)).fetchone())


def delete_card(db: Database, deck_id: str, card_id: str) -> bool:
    with db.connection() as conn:
        return conn.execute("DELETE FROM cards WHERE deck_id = %s AND id = %s", (deck_id, card_id)).rowcount > 0


def save_review(db: Database, card_id: str, before: CardRow, after: dict[str, Any], rating: int,
                reviewed_at: datetime, lapse: bool) -> CardRow | None:
    """Store the card's new FSRS state and log the review, in one transaction; returns the new row, or
    None when the card was reviewed by someone else since `before` was read (a double submit)."""
    with db.transaction() as conn:
        updated = conn.execute(
            "UPDATE cards SET fsrs_state = %(state)s, fsrs_step = %(step)s, stability = %(stability)s,"
            " difficulty = %(difficulty)s, due = %(due)s, last_review = %(last_review)s, reps = reps + 1,"
            " lapses = lapses + %(lapse)s, updated_at = now() WHERE id = %(id)s AND reps = %(reps)s",
            {**after, "lapse": int(lapse), "id": card_id, "reps": before["reps"]},
        ).rowcount
        if not updated:
            return None
        conn.execute(
            "INSERT INTO card_reviews (card_id, rating, reviewed_at, state_before, due_before, due_after,"
            " stability_after, difficulty_after) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            (card_id, rating, reviewed_at, before["fsrs_state"], before["due"], after["due"],
             after["stability"], after["difficulty"]),
        )
        return one_as(CardRow, conn.execute(f"{_CARD} WHERE id = %s", (card_id,)))


def reviews(db: Database, card_id: str) -> list[ReviewRow]:
    return fetch_rows(db, ReviewRow,
        "SELECT rating, reviewed_at, state_before, due_before, due_after FROM card_reviews"
        " WHERE card_id = %s ORDER BY reviewed_at, id",
        (card_id,),
    )


def create_deck(db: Database, deck_id: str, title: str, scope: dict[str, Any], now: datetime) -> DeckRow:
    """An empty deck the user fills by hand (or with cards made from passages)."""
    with db.connection() as conn:
        conn.execute("INSERT INTO decks (id, title, scope) VALUES (%s, %s, %s)", (deck_id, title, Jsonb(scope)))
        return one_as(DeckRow, conn.execute(f"{_DECK} WHERE d.id = %(id)s GROUP BY d.id",
                                              {"now": now, "id": deck_id}))


def delete_note_cards(db: Database, deck_id: str, card_ids: Sequence[str]) -> None:
    with db.connection() as conn:
        conn.execute("DELETE FROM cards WHERE deck_id = %s AND id = ANY(%s::uuid[])", (deck_id, list(card_ids)))


def set_retired(db: Database, card_ids: Sequence[str], retired: bool) -> int:
    """Retire cards (they leave reviews, plans and exports, their history kept) or bring them back."""
    with db.connection() as conn:
        return conn.execute(
            "UPDATE cards SET retired_at = CASE WHEN %s THEN coalesce(retired_at, now()) END, updated_at = now()"
            " WHERE id = ANY(%s::uuid[])",
            (retired, list(card_ids)),
        ).rowcount
