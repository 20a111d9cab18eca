"""Cards made and changed by hand: front/back, typed-answer and cloze cards, in any deck, optionally made
from passages (the card keeps them as its sources and opens them), and edits that keep the schedule.

A cloze note (`{{c1::…}} … {{c2::…}}`) becomes one card per deletion number, sharing a `note_id`; editing
one card's text edits the note: every sibling gets the new text, a new number adds a card, and a number
no longer in the text removes its card. Retiring a card (a source changed and the user retired it) takes
it out of reviews, plans and exports; its history stays.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field, model_validator

from backend.errors import NotFound, QuireError
from backend.store import decks as store
from backend.store import study_sources
from backend.store.db import Database
from backend.study import cloze, fsrs_tuning
from backend.study.flashcards import CardKind, CardOut, DeckSummary, card_out, card_row, clean_tags, deck_row
from backend.study.schemas import ScopeIn
from backend.study.scopes import scope_params

MAX_TYPED_ANSWER = 300  # a typed answer is compared with what the user types: a word or a phrase


class CardIn(BaseModel):
    """A new card. `back` may be empty for a cloze card (its "extra"); `block_ids`: passages it is made
    from (the card cites them and opens them)."""

    kind: CardKind = "basic"
    front: str = Field(min_length=1, max_length=2000)
    back: str = Field("", max_length=4000)
    tags: list[str] = Field(default_factory=list, max_length=20)
    block_ids: list[uuid.UUID] = Field(default_factory=list, max_length=8)

    @model_validator(mode="after")
    def _shape(self) -> CardIn:
        check_shape(self.kind, self.front, self.back)
        return self


class CardPatch(BaseModel):
    front: str | None = Field(None, min_length=1, max_length=2000)
    back: str | None = Field(None, max_length=4000)
    tags: list[str] | None = Field(None, max_length=20)


class NewDeckIn(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    scope: ScopeIn = Field(default_factory=ScopeIn)


def check_shape(kind: str, front: str, back: str) -> None:
    """ValueError (a 422 from pydantic) when the text does not fit the kind of card."""
    if kind == "cloze":
        if (problem := cloze.problem(front)) is not None:
            raise ValueError(problem)
        return
    if not front.strip() or not back.strip():
        raise ValueError("A card needs a front and a back.")
    if kind == "typed" and len(back.strip()) > MAX_TYPED_ANSWER:
        raise ValueError(f"A typed answer is at most {MAX_TYPED_ANSWER} characters (a word or a phrase to type).")


def _invalid(exc: ValueError) -> QuireError:
    return QuireError("invalid_card", str(exc), 422)


def block_sources(db: Database, block_ids: list[str]) -> list[dict[str, Any]]:
    """The grounding snapshot of these passages (404 when one is unknown or its document is in the trash)."""
    rows = {row["id"]: row for row in study_sources.blocks_by_ids(db, block_ids, "")}
    missing = [b for b in block_ids if b not in rows]
    if missing:
        raise NotFound("Passage", missing[0])
    return [{"block_id": b, "document_id": rows[b]["document_id"], "filename": rows[b]["filename"],
             "page": rows[b]["page"]} for b in block_ids]


def new_cards(kind: str, front: str, back: str, tags: list[str], origin: str,
              sources: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows one note makes: one card, or for a cloze note one per deletion number."""
    base = {"kind": kind, "front": front.strip(), "back": back.strip(), "tags": clean_tags(tags), "origin": origin,
            "sources": sources}
    if kind != "cloze":
        return [{**base, "id": str(uuid.uuid4())}]
    note_id = str(uuid.uuid4())
    return [{**base, "id": str(uuid.uuid4()), "note_id": note_id, "cloze_n": n} for n in cloze.numbers(front)]


def add_card(db: Database, deck_id: str, card: CardIn) -> CardOut:
    """Add a card (a cloze note: all its cards); returns the first card made."""
    now = datetime.now(UTC)
    deck_row(db, deck_id, now)
    block_ids = [str(b) for b in card.block_ids]
    sources = block_sources(db, block_ids) if block_ids else []
    rows = store.add_cards(db, deck_id, new_cards(card.kind, card.front, card.back, card.tags,
                                                      "passage" if sources else "manual", sources))
    return card_out(rows[0], now, fsrs_tuning.scheduler_for(db))


def edit_card(db: Database, deck_id: str, card_id: str, patch: CardPatch) -> CardOut:
    """Change a card's text or tags; its schedule is kept. A cloze card's text change edits its note."""
    row = card_row(db, deck_id, card_id)
    fields = patch.model_dump(exclude_none=True)
    if "tags" in fields:
        fields["tags"] = clean_tags(fields["tags"])
    if "front" in fields:
        fields["front"] = fields["front"].strip()
    if "back" in fields:
        fields["back"] = fields["back"].strip()
    try:
        check_shape(row["kind"], fields.get("front", row["front"]), fields.get("back", row["back"]))
    except ValueError as exc:
        raise _invalid(exc) from exc
    if row["kind"] == "cloze" and row["note_id"] and "front" in fields:
        _edit_note(db, deck_id, row, fields)
    updated = store.update_card(db, deck_id, card_id, fields)
    if updated is None:  # its deletion number left the note: show the note's first card instead
        updated = store.note_cards(db, deck_id, str(row["note_id"]))[0]
    return card_out(updated, datetime.now(UTC), fsrs_tuning.scheduler_for(db))


def _edit_note(db: Database, deck_id: str, row: store.CardRow, fields: dict[str, Any]) -> None:
    note_id = str(row["note_id"])
    siblings = store.note_cards(db, deck_id, note_id)
    wanted = set(cloze.numbers(fields["front"]))
    have = {card["cloze_n"]: card for card in siblings}
    for card in siblings:
        if card["cloze_n"] in wanted:
            store.update_card(db, deck_id, card["id"], fields)
    gone = [card["id"] for n, card in have.items() if n not in wanted]
    if gone:
        store.delete_note_cards(db, deck_id, gone)
    added = [{"id": str(uuid.uuid4()), "kind": "cloze", "front": fields["front"],
              "back": fields.get("back", row["back"]), "tags": fields.get("tags", row["tags"]),
              "origin": row["origin"], "sources": row["sources"], "note_id": note_id, "cloze_n": n}
             for n in sorted(wanted - set(have))]
    if added:
        store.add_cards(db, deck_id, added)


def delete_card(db: Database, deck_id: str, card_id: str) -> None:
    if not store.delete_card(db, deck_id, card_id):
        raise NotFound("Card", card_id)


def create_deck(db: Database, body: NewDeckIn) -> DeckSummary:
    """An empty deck to fill by hand or from passages (the scope may be empty: the whole vault)."""
    scope = scope_params(db, body.scope) if body.scope.document_ids or body.scope.categories else \
        {"document_ids": [], "categories": []}
    row = store.create_deck(db, str(uuid.uuid4()), body.title.strip(), scope, datetime.now(UTC))
    return DeckSummary.model_validate(row)
