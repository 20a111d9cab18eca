"""Badges: 25 defined as data in `badges.json` (code, name, icon, description, metric, target, group,
next level), evaluated after every study event, each earned once.

A badge is earned when its metric reaches its target; the award keeps the time of the event that
earned it. Only metrics of badges not yet earned are computed, so a vault with every badge pays nothing.
The metrics live in `metrics.py`; time-of-day badges look at when sessions really started (in the
study time zone), not at when the check ran.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from backend.progress.metrics import METRICS, Metrics
from backend.progress.sessions import Rules
from backend.store import progress as store
from backend.store.db import Database

BADGES_FILE = Path(__file__).with_name("badges.json")


class Badge(BaseModel):
    code: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    icon: str
    description: str
    metric: str
    target: float = Field(gt=0)
    group: str
    next_level: str | None = None


class BadgeOut(Badge):
    value: float
    progress: float  # 0..1 toward the target
    earned: bool
    earned_at: datetime | None


@cache
def catalogue() -> tuple[Badge, ...]:
    """The badge definitions, checked: unique codes, known metrics, next levels that exist."""
    badges = tuple(Badge.model_validate(item) for item in json.loads(BADGES_FILE.read_text(encoding="utf-8")))
    codes = [b.code for b in badges]
    if len(set(codes)) != len(codes):
        raise ValueError("badges.json: duplicate badge codes")
    for badge in badges:
        if badge.metric not in METRICS:
            raise ValueError(f"badges.json: {badge.code} uses unknown metric {badge.metric!r}")
        if badge.next_level is not None and badge.next_level not in codes:
            raise ValueError(f"badges.json: {badge.code} names unknown next level {badge.next_level!r}")
    return badges


def evaluate(db: Database, rules: Rules, at: datetime | None = None) -> list[str]:
    """Award every badge whose target is reached now; returns the codes newly earned (stamped `at`)."""
    earned = store.awards(db)
    pending = [b for b in catalogue() if b.code not in earned]
    if not pending:
        return []
    metrics = Metrics(db, rules)
    reached = [(b.code, at or datetime.now(UTC), value) for b in pending
               if (value := metrics.value(b.metric)) >= b.target]
    return store.award(db, reached) if reached else []


def badge_list(db: Database, rules: Rules) -> dict[str, Any]:
    """Every badge with its current value and progress; earned ones with the time they were earned."""
    earned = store.awards(db)
    metrics = Metrics(db, rules)
    badges = []
    for badge in catalogue():
        award = earned.get(badge.code)
        value = metrics.value(badge.metric)
        badges.append(BadgeOut(**badge.model_dump(), value=value, earned=award is not None,
                               earned_at=award["earned_at"] if award else None,
                               progress=1.0 if award else round(min(1.0, value / badge.target), 4)))
    return {"earned": len(earned), "total": len(badges), "badges": badges}
