"""FSRS scheduling over simulated days against a real database: what is due when, what each rating
would give (and then gives), the review log, lapses, and the guard against a double-submitted review."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from backend.errors import QuireError
from backend.progress.events import Activity
from backend.store import decks as store
from backend.store.db import Database
from backend.study import cards, flashcards, fsrs_tuning
from backend.study.cards import CardIn, CardPatch

# Cards are created due "now" (the real clock); the simulated clock starts a day later, so that however
# long the suite runs between importing this module and running a test, new cards are due at T0.
T0 = datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)


@pytest.fixture
def deck_id(db: Database) -> str:
    deck = {"id": str(uuid.uuid4()), "title": "Deck: test", "scope": {"document_ids": [], "categories": []},
            "job_id": None}
    with db.transaction() as conn:
        store.insert_deck(conn, deck, [])
    return deck["id"]


def due_fronts(db: Database, deck_id: str, now: datetime) -> list[str]:
    return [c.front for c in flashcards.due(db, deck_id, now=now).cards]


def test_a_card_walks_through_learning_review_and_relearning(db: Database, activity: Activity, deck_id: str) -> None:
    card = cards.add_card(db, deck_id, CardIn(front="What is ATP?", back="The cell's energy currency."))
    assert card.state == "new"
    assert card.origin == "manual"
    row = store.get_card(db, deck_id, card.id)
    assert row is not None
    preview = flashcards.card_out(row, T0, fsrs_tuning.scheduler_for(db)).intervals
    assert (preview["again"].label, preview["good"].label) == ("1m", "10m")
    assert preview["easy"].seconds >= 86400

    assert due_fronts(db, deck_id, T0) == ["What is ATP?"]
    first = flashcards.review(db, activity, deck_id, card.id, "good", now=T0)
    assert first.due == preview["good"].due  # the preview is exactly what the rating gives
    assert first.card.state == "learning"
    assert first.interval_label == "10m"
    assert due_fronts(db, deck_id, T0 + timedelta(minutes=5)) == []
    assert due_fronts(db, deck_id, T0 + timedelta(minutes=10)) == ["What is ATP?"]

    second = flashcards.review(db, activity, deck_id, card.id, "good", now=T0 + timedelta(minutes=10))
    assert second.card.state == "review"
    assert second.interval_seconds >= 86400
    assert due_fronts(db, deck_id, second.due - timedelta(hours=1)) == []

    day_later = second.due + timedelta(hours=2)  # simulated: the user comes back after the due date
    assert due_fronts(db, deck_id, day_later) == ["What is ATP?"]
    lapse = flashcards.review(db, activity, deck_id, card.id, "again", now=day_later)
    assert lapse.card.state == "relearning"
    assert lapse.card.lapses == 1
    assert lapse.card.reps == 3
    assert lapse.due - day_later <= timedelta(minutes=10)

    log = store.reviews(db, card.id)
    assert [r["rating"] for r in log] == [3, 3, 1]
    assert [r["reviewed_at"] for r in log] == [T0, T0 + timedelta(minutes=10), day_later]


def test_easy_schedules_further_out_than_hard(db: Database, activity: Activity, deck_id: str) -> None:
    hard = cards.add_card(db, deck_id, CardIn(front="hard card", back="x"))
    easy = cards.add_card(db, deck_id, CardIn(front="easy card", back="y"))
    assert flashcards.review(db, activity, deck_id, easy.id, "easy", now=T0).due > \
        flashcards.review(db, activity, deck_id, hard.id, "hard", now=T0).due


def test_editing_a_card_keeps_its_schedule(db: Database, activity: Activity, deck_id: str) -> None:
    card = cards.add_card(db, deck_id, CardIn(front="Front", back="Back", tags=["cell biology", "atp"]))
    assert card.tags == ["cell_biology", "atp"]
    reviewed = flashcards.review(db, activity, deck_id, card.id, "good", now=T0)
    edited = cards.edit_card(db, deck_id, card.id, CardPatch(back="Better back"))
    assert (edited.front, edited.back, edited.due, edited.reps) == ("Front", "Better back", reviewed.due, 1)


def test_a_stale_double_submit_is_refused(db: Database, activity: Activity, deck_id: str) -> None:
    card = cards.add_card(db, deck_id, CardIn(front="Twice?", back="Once."))
    stale = store.get_card(db, deck_id, card.id)
    flashcards.review(db, activity, deck_id, card.id, "good", now=T0)
    after = {"state": 1, "step": 1, "stability": 1.0, "difficulty": 5.0, "due": T0, "last_review": T0}
    assert store.save_review(db, card.id, stale, after, 3, T0, False) is None
    assert len(store.reviews(db, card.id)) == 1


def test_unknown_cards_and_decks_are_404(db: Database, activity: Activity, deck_id: str) -> None:
    with pytest.raises(QuireError) as missing:
        flashcards.review(db, activity, deck_id, str(uuid.uuid4()), "good", now=T0)
    assert missing.value.status == 404
    with pytest.raises(QuireError):
        flashcards.due(db, str(uuid.uuid4()), now=T0)
