"""Flashcard decks: generation, listing and review scheduling with FSRS. Adding and editing cards (front/back,
typed-answer and cloze cards) lives in `cards.py`.

Scheduling uses the `fsrs` package's `Scheduler` with fuzzing off, so the intervals shown before a review
("again 1m · good 10m · easy 4d") are exactly what the chosen rating then gives; its parameters are
FSRS's defaults until they are fitted to the user's own reviews (`fsrs_tuning.py`). Review functions
take `now` so tests can walk a deck through simulated days; the API passes the real clock. A review
updates the card and appends to the review log in one transaction and is a `card_review` study event.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from fsrs import Card, Rating, Scheduler, State
from pydantic import BaseModel, Field, field_validator

from backend.errors import NotFound, QuireError, found
from backend.progress.events import Activity
from backend.store import decks as store
from backend.store.db import Connection, Database
from backend.study import cloze, fsrs_tuning, jobs
from backend.study.generation import cited_ids, fitted_prompt, generate_items
from backend.study.repairs import Report
from backend.study.schemas import GenerateRequest, JobOut, ScopeOut, SourceOut
from backend.study.scopes import as_scope, scope_params, scope_title

RatingName = Literal["again", "hard", "good", "easy"]
RATINGS: dict[RatingName, Rating] = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good,
                                     "easy": Rating.Easy}
STATE_NAMES = {State.Learning: "learning", State.Review: "review", State.Relearning: "relearning"}
MAX_PASSAGES = 16
ANSWER_TOKENS_PER_CARD = 90
CardKind = Literal["basic", "cloze", "typed"]


class CardItem(BaseModel):
    """One card as the model writes it."""

    front: str = Field(min_length=3, max_length=400)
    back: str = Field(min_length=1, max_length=1200)
    tags: list[str] = Field(default_factory=list, max_length=6)
    source_block_ids: list[str] = cited_ids(8)

    @field_validator("front", "back")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: list[str]) -> list[str]:
        return clean_tags(value)


class CardBatch(BaseModel):
    cards: list[CardItem]


class DeckRequest(GenerateRequest):
    count: Literal[10, 20, 40] = 20


class ReviewIn(BaseModel):
    rating: RatingName


class IntervalOut(BaseModel):
    due: datetime
    seconds: int
    label: str  # "1m", "10m", "4d", "2.5mo"


class SegmentOut(BaseModel):
    text: str
    hidden: bool
    hint: str | None


class CardOut(BaseModel):
    id: str
    deck_id: str
    position: int
    kind: CardKind  # basic: front/back; typed: the answer is typed, then compared; cloze: see `segments`
    front: str  # a cloze card: the whole note, with its {{c1::...}} deletions
    back: str  # a cloze card: the extra shown with the answer (may be empty)
    tags: list[str]
    origin: Literal["generated", "manual", "mistake", "passage"]
    sources: list[SourceOut]
    note_id: str | None  # a cloze card: the note it shares with its sibling cards (one per deletion number)
    cloze_n: int | None
    segments: list[SegmentOut] | None  # a cloze card's text: its own deletions hidden on the question side
    question_id: str | None  # a mistake card: the quiz question it came from
    state: Literal["new", "learning", "review", "relearning"]
    due: datetime
    last_review: datetime | None
    reps: int
    lapses: int
    stability: float | None
    difficulty: float | None
    intervals: dict[RatingName, IntervalOut]  # what each rating would schedule if given now


class DeckSummary(BaseModel):
    id: str
    title: str
    scope: ScopeOut
    purpose: Literal["mistakes"] | None  # mistakes: the deck wrong and unsure quiz answers become cards in
    card_count: int
    due_count: int
    new_count: int
    created_at: datetime
    last_reviewed_at: datetime | None


class DeckOut(DeckSummary):
    cards: list[CardOut]


class DueOut(BaseModel):
    deck_id: str
    now: datetime
    due_count: int
    cards: list[CardOut]


class ReviewOut(BaseModel):
    card: CardOut
    rating: RatingName
    reviewed_at: datetime
    due: datetime
    interval_seconds: int
    interval_label: str


def clean_tags(tags: list[str]) -> list[str]:
    """Anki-style tags: no spaces, no duplicates."""
    out: list[str] = []
    for tag in tags:
        cleaned = "_".join(str(tag).split())[:60]
        if cleaned and cleaned not in out:
            out.append(cleaned)
    return out


# -- generation ----------------------------------------------------------------------------------------
def start(study: jobs.StudyJobs, request: DeckRequest) -> JobOut:
    params = {"scope": scope_params(study.db, request.scope), "count": request.count}
    return study.submit("deck", params, request.client_token)


def run(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    passages = drafting.scope_passages(as_scope(params["scope"]), min(MAX_PASSAGES, max(6, params["count"] // 2)))
    prompt, passages = fitted_prompt(drafting.llm, drafting.prompts, "flashcards", passages,
                                     ANSWER_TOKENS_PER_CARD * params["count"], count=params["count"])
    report = Report()
    try:
        items = generate_items(drafting.llm, prompt, CardItem, CardBatch, "cards", params["count"], passages, report)
    finally:
        jobs.record_report(drafting.db, job_id, report)
    deck = {"id": jobs.artifact_id(job_id), "title": scope_title(drafting.db, params["scope"], "Deck"),
            "scope": params["scope"], "job_id": job_id}
    cards = [{"id": jobs.artifact_id(job_id, f"c{i}"), "position": i, "front": g.item.front, "back": g.item.back,
              "tags": g.item.tags, "sources": g.sources} for i, g in enumerate(items, start=1)]

    def save(conn: Connection) -> str:
        store.insert_deck(conn, deck, cards)
        return str(deck["id"])

    return save


# -- scheduling ----------------------------------------------------------------------------------------
def fsrs_card(row: store.CardRow) -> Card:
    return Card(card_id=1, state=State(row["fsrs_state"]), step=row["fsrs_step"], stability=row["stability"],
                difficulty=row["difficulty"], due=row["due"].astimezone(UTC),
                last_review=row["last_review"].astimezone(UTC) if row["last_review"] else None)


def interval_label(seconds: float) -> str:
    minutes, days = seconds / 60, seconds / 86400
    if minutes < 60:
        return f"{max(1, round(minutes))}m"
    if days < 1:
        return f"{round(minutes / 60)}h"
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{round(days / 30, 1):g}mo"
    return f"{round(days / 365, 1):g}y"


def _interval(due: datetime, now: datetime) -> IntervalOut:
    seconds = max(0, int((due - now).total_seconds()))
    return IntervalOut(due=due, seconds=seconds, label=interval_label(seconds))


def card_out(row: store.CardRow, now: datetime, scheduler: Scheduler) -> CardOut:
    now, card = now.astimezone(UTC), fsrs_card(row)
    intervals = {name: _interval(scheduler.review_card(card, rating, now)[0].due, now)
                 for name, rating in RATINGS.items()}
    state = "new" if row["reps"] == 0 else STATE_NAMES[card.state]
    segments = cloze.segments(row["front"], row["cloze_n"]) if row["kind"] == "cloze" and row["cloze_n"] else None
    return CardOut.model_validate({**row, "state": state, "intervals": intervals, "segments": segments})


def review(db: Database, activity: Activity, deck_id: str, card_id: str, rating: RatingName,
           now: datetime | None = None) -> ReviewOut:
    """Apply a rating at `now` (default: the real clock): new FSRS state, review logged, event recorded."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    row = card_row(db, deck_id, card_id)
    scheduler = fsrs_tuning.scheduler_for(db)
    updated, _ = scheduler.review_card(fsrs_card(row), RATINGS[rating], now)
    after = {"state": int(updated.state), "step": updated.step, "stability": updated.stability,
             "difficulty": updated.difficulty, "due": updated.due, "last_review": updated.last_review}
    lapse = rating == "again" and row["fsrs_state"] == State.Review
    saved = store.save_review(db, card_id, row, after, int(RATINGS[rating]), now, lapse)
    if saved is None:
        raise QuireError("review_conflict", "This card was just reviewed; reload it and rate again.", 409)
    activity.record("card_review", ref=f"deck:{deck_id}", occurred_at=now)
    interval = _interval(updated.due, now)
    return ReviewOut(card=card_out(saved, now, scheduler), rating=rating, reviewed_at=now, due=updated.due,
                     interval_seconds=interval.seconds, interval_label=interval.label)


# -- decks and cards -----------------------------------------------------------------------------------
def deck_row(db: Database, deck_id: str, now: datetime) -> store.DeckRow:
    return found(store.get_deck(db, deck_id, now), "Deck", deck_id)


def card_row(db: Database, deck_id: str, card_id: str) -> store.CardRow:
    return found(store.get_card(db, deck_id, card_id), "Card", card_id)


def list_decks(db: Database, now: datetime | None = None) -> list[DeckSummary]:
    return [DeckSummary.model_validate(row) for row in store.list_decks(db, now or datetime.now(UTC))]


def get_deck(db: Database, deck_id: str, now: datetime | None = None) -> DeckOut:
    now = now or datetime.now(UTC)
    row = deck_row(db, deck_id, now)
    scheduler = fsrs_tuning.scheduler_for(db)
    cards = [card_out(c, now, scheduler) for c in store.cards(db, deck_id)]
    return DeckOut.model_validate({**row, "cards": cards})


def due(db: Database, deck_id: str, limit: int = 100, now: datetime | None = None) -> DueOut:
    now = now or datetime.now(UTC)
    row = deck_row(db, deck_id, now)
    scheduler = fsrs_tuning.scheduler_for(db)
    cards = [card_out(c, now, scheduler) for c in store.due_cards(db, deck_id, now, limit)]
    return DueOut(deck_id=deck_id, now=now, due_count=row["due_count"], cards=cards)


def delete_deck(db: Database, deck_id: str) -> None:
    if not store.delete_deck(db, deck_id):
        raise NotFound("Deck", deck_id)
