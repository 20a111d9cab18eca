"""Recording study activity. Every feature that counts as studying calls `record_event` once per event;
badges are evaluated right after, so one that the event earns is stamped with the event's time."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from backend.progress.badges import evaluate
from backend.progress.sessions import current_rules
from backend.store import activity as store
from backend.store.db import Database

ActivityKind = Literal["chat_message", "quiz_answer", "card_review", "lesson_read", "mindmap_export"]


def record_event(db: Database, kind: ActivityKind, *, ref: str | None = None,
                 occurred_at: datetime | None = None, unless_within_s: int = 0) -> int | None:
    """Store one activity event (now, unless `occurred_at` is given), then award any badge it earns;
    returns the event's id. With `unless_within_s`, an event of the same kind and ref that recent makes
    this one a repeat, and nothing is stored (None)."""
    at = occurred_at or datetime.now(UTC)
    event_id = store.insert_event(db, kind, ref, at, unless_within_s)
    if event_id is not None:
        evaluate(db, current_rules(), at)
    return event_id
