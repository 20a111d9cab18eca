"""Recording study activity. Every feature that counts as studying calls `record_event` once per event."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from backend.store import activity as store
from backend.store.db import Database

ActivityKind = Literal["chat_message", "quiz_answer", "card_review", "lesson_read", "mindmap_export"]


def record_event(db: Database, kind: ActivityKind, *, ref: str | None = None,
                 occurred_at: datetime | None = None) -> int:
    """Store one activity event (now, unless `occurred_at` is given); returns its id."""
    return store.insert_event(db, kind, ref, occurred_at)
