"""Flashcard routes under `/api/study/decks`: generate (202 + job), list, get, delete, add and edit
cards, the cards due now, FSRS reviews, and the Anki exports (CSV or `.apkg` package)."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Query, Response, status

from backend.api.deps import ActivityDep, DatabaseDep, StudyJobsDep
from backend.api.study_records import StudyRecord, add_record_routes
from backend.study import cards, exports, flashcards, fsrs_tuning
from backend.study.cards import CardIn, CardPatch, NewDeckIn
from backend.study.flashcards import (
    CardOut,
    DeckOut,
    DeckRequest,
    DeckSummary,
    DueOut,
    ReviewIn,
    ReviewOut,
)

router = APIRouter(prefix="/decks", tags=["study: flashcards"])


add_record_routes(router, StudyRecord(
    name="deck", plural="decks", request=DeckRequest, summary=DeckSummary, out=DeckOut,
    start=flashcards.start, list=flashcards.list_decks, get=flashcards.get_deck, delete=flashcards.delete_deck,
    generate_doc="Queue a deck generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`."))


@router.post("/manual", status_code=status.HTTP_201_CREATED)
def create_deck(body: NewDeckIn, db: DatabaseDep) -> DeckSummary:
    """An empty deck, to fill by hand or with cards made from passages."""
    return cards.create_deck(db, body)


@router.get("/{deck_id}/due")
def due_cards(deck_id: UUID, db: DatabaseDep, limit: Annotated[int, Query(ge=1, le=500)] = 100) -> DueOut:
    """Cards due now, most overdue first, each with the interval every rating would give."""
    return flashcards.due(db, str(deck_id), limit)


@router.post("/{deck_id}/cards", status_code=status.HTTP_201_CREATED)
def add_card(deck_id: UUID, body: CardIn, db: DatabaseDep) -> CardOut:
    """Add a card: `basic` (front/back), `typed` (the answer is typed in) or `cloze` (`{{c1::...}}` in the
    front; one card per deletion number, the first returned). `block_ids`: the passages it is made from."""
    return cards.add_card(db, str(deck_id), body)


@router.patch("/{deck_id}/cards/{card_id}")
def edit_card(deck_id: UUID, card_id: UUID, body: CardPatch, db: DatabaseDep) -> CardOut:
    """Change front, back and/or tags; the card keeps its review schedule (a cloze card: its note)."""
    return cards.edit_card(db, str(deck_id), str(card_id), body)


@router.delete("/{deck_id}/cards/{card_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_card(deck_id: UUID, card_id: UUID, db: DatabaseDep) -> Response:
    cards.delete_card(db, str(deck_id), str(card_id))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{deck_id}/cards/{card_id}/review")
def review_card(deck_id: UUID, card_id: UUID, body: ReviewIn, db: DatabaseDep, activity: ActivityDep,
                study: StudyJobsDep) -> ReviewOut:
    """Rate a card (again|hard|good|easy): FSRS reschedules it, the review is logged."""
    reviewed = flashcards.review(db, activity, str(deck_id), str(card_id), body.rating)
    fsrs_tuning.refit_if_due(study)  # every so many reviews the scheduler is fitted to them anew
    return reviewed


@router.get("/{deck_id}/export", response_class=Response)
def export_deck(deck_id: UUID, db: DatabaseDep,
                format: Annotated[Literal["csv", "apkg"], Query()] = "csv") -> Response:
    """`csv`: for Anki's File → Import (columns front, back, tags; Anki header lines start with #).
    `apkg`: an Anki package (one note per card, tags, the source on the back); importing it again
    updates the same deck and notes instead of adding copies."""
    if format == "apkg":
        filename, package = exports.deck_apkg(db, str(deck_id))
        return Response(package, media_type="application/apkg", headers=exports.attachment(filename))
    filename, body = exports.deck_csv(db, str(deck_id))
    return Response(body, media_type="text/csv; charset=utf-8", headers=exports.attachment(filename))
