"""Progress and vault routes: `/api/progress/*` (summary, daily series, breakdown, badges, sessions, one
day's detail) and `/api/vault/stats`. Days are calendar days of the study time zone (QUIRE_TIMEZONE,
default the server's); every timestamp is returned in UTC (ISO 8601)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, BeforeValidator

from backend.api.deps import ConnectionsDep, DatabaseDep, EmbedderDep, LLMDep, RulesDep, SearchDep, SettingsDep
from backend.progress import badges, summary
from backend.progress.badges import BadgeOut
from backend.progress.events import ActivityKind
from backend.progress.vault import VaultStats, vault_stats

router = APIRouter(prefix="/api", tags=["progress"])


class SummaryOut(BaseModel):
    total_seconds: int
    total_minutes: float
    sessions: int
    messages: int
    quiz_answers: int
    card_reviews: int
    lessons_read: int
    mindmap_exports: int
    current_streak: int
    longest_streak: int
    active_days: int
    today_seconds: int
    today_minutes: float
    first_activity_at: datetime | None
    last_activity_at: datetime | None
    timezone: str


class DayOut(BaseModel):
    date: date
    seconds: int
    minutes: float
    sessions: int
    events: int
    by_kind: dict[str, int]


class DailyOut(BaseModel):
    timezone: str
    start: date
    end: date
    days: list[DayOut]


class BreakdownItem(BaseModel):
    kind: ActivityKind
    label: str
    events: int
    seconds: int
    minutes: float
    share: float  # of the study time in the period


class BreakdownOut(BaseModel):
    since: date | None
    total_seconds: int
    items: list[BreakdownItem]


class SessionOut(BaseModel):
    start: datetime
    end: datetime
    local_start: str
    day: date
    seconds: int
    minutes: float
    events: int
    kinds: dict[str, int]


class EventOut(BaseModel):
    id: int
    kind: ActivityKind
    ref: str | None
    occurred_at: datetime
    local_time: str


class DayDetailOut(BaseModel):
    date: date
    timezone: str
    seconds: int
    minutes: float
    sessions: list[SessionOut]
    events: list[EventOut]


class BadgesOut(BaseModel):
    earned: int
    total: int
    badges: list[BadgeOut]


def _written_date(value: Any) -> Any:
    """Only a written calendar date: pydantic alone reads `0` or `1.5` as seconds since 1970, so a client's
    slip would be answered with 1970's empty days instead of an error."""
    if isinstance(value, str) and len(value) == 10 and value[4] == value[7] == "-":
        return value
    raise ValueError("must be a date written as YYYY-MM-DD")


def _written_datetime(value: Any) -> Any:
    if isinstance(value, str) and len(value) >= 10 and value[4] == value[7] == "-":
        return value
    raise ValueError("must be a date and time written as in ISO 8601, as 2026-12-01T14:30:00+01:00")


WrittenDate = Annotated[date, BeforeValidator(_written_date)]
WrittenDateTime = Annotated[datetime, BeforeValidator(_written_datetime)]


@router.get("/progress/summary")
def progress_summary(db: DatabaseDep, rules: RulesDep) -> SummaryOut:
    return SummaryOut.model_validate(summary.summary(db, rules))


@router.get("/progress/daily")
def progress_daily(db: DatabaseDep, rules: RulesDep, days: Annotated[int, Query(ge=1, le=summary.MAX_DAYS)] = 90,
                   end: WrittenDate | None = None) -> DailyOut:
    """`days` entries (zero-filled) ending at `end` (default today)."""
    return DailyOut.model_validate(summary.daily(db, rules, days, end))


@router.get("/progress/breakdown")
def progress_breakdown(db: DatabaseDep, rules: RulesDep,
                       days: Annotated[int | None, Query(ge=1, le=summary.MAX_DAYS)] = None) -> BreakdownOut:
    """Study time and events per activity over the last `days` days (all time if omitted)."""
    return BreakdownOut.model_validate(summary.breakdown(db, rules, days))


@router.get("/progress/badges")
def progress_badges(db: DatabaseDep, rules: RulesDep) -> BadgesOut:
    return BadgesOut.model_validate(badges.badge_list(db, rules))


@router.get("/progress/sessions")
def progress_sessions(db: DatabaseDep, rules: RulesDep, limit: Annotated[int, Query(ge=1, le=500)] = 50,
                      before: WrittenDateTime | None = None) -> list[SessionOut]:
    """Sessions newest first; pass the last one's `start` as `before` for the next page."""
    return [SessionOut.model_validate(s) for s in summary.list_sessions(db, rules, limit, before)]


@router.get("/progress/day/{day}")
def progress_day(day: WrittenDate, db: DatabaseDep, rules: RulesDep) -> DayDetailOut:
    """One day of the heatmap: its sessions and events."""
    return DayDetailOut.model_validate(summary.day_detail(db, rules, day))


@router.get("/vault/stats", tags=["vault"])
def stats(settings: SettingsDep, db: DatabaseDep, embedder: EmbedderDep, llm: LLMDep, search: SearchDep,
          connections: ConnectionsDep) -> VaultStats:
    """Documents, blocks and embedded share, index sizes, storage locations and sizes, models, and the
    outbound requests the app has made."""
    return vault_stats(settings, db, embedder, llm, search, connections)
