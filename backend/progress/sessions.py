"""Study sessions, derived from activity events (never stored, so they follow the current settings).

Events closer together than the idle gap (`Rules.idle_gap_s`, 900 s) belong to one
session; a longer gap starts a new one. A session's active time runs from its first event to its last
plus a minimum credit for that last event (60 s), so a one-question session counts one minute, not zero.
Per activity, each event is credited the time until the next event of its session (the last one the
minimum): that is how the breakdown splits study time between chat, quizzes, cards and lessons.

Times are stored and compared in UTC; calendar days and hours of day are those of the study time zone
(`QUIRE_TIMEZONE`, default the server's), and a session belongs to the day it started on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from backend.config import Settings
from backend.store.progress import EventRow

MIN_EVENT_S = 60


@dataclass(frozen=True)
class Rules:
    idle_gap_s: int = 900
    zone: tzinfo | None = None  # None: the server's local zone
    min_event_s: int = MIN_EVENT_S

    def local(self, moment: datetime) -> datetime:
        return moment.astimezone(self.zone)

    def day(self, moment: datetime) -> date:
        return self.local(moment).date()

    @property
    def zone_name(self) -> str:
        return str(self.zone) if self.zone else (datetime.now().astimezone().tzname() or "local")


def rules_for(settings: Settings) -> Rules:
    return Rules(zone=settings.zone)


@dataclass(frozen=True)
class Event:
    id: int
    kind: str
    ref: str | None
    occurred_at: datetime


@dataclass
class Session:
    events: list[Event]
    seconds: int = 0
    seconds_by_kind: Counter[str] = field(default_factory=Counter)

    @property
    def start(self) -> datetime:
        return self.events[0].occurred_at

    @property
    def end(self) -> datetime:
        return self.events[-1].occurred_at

    @property
    def kinds(self) -> Counter[str]:
        return Counter(e.kind for e in self.events)

    def as_dict(self, rules: Rules) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "local_start": rules.local(self.start).isoformat(),
                "day": rules.day(self.start).isoformat(), "seconds": self.seconds,
                "minutes": round(self.seconds / 60, 1), "events": len(self.events), "kinds": dict(self.kinds)}


def as_events(rows: Iterable[EventRow]) -> list[Event]:
    return [Event(row["id"], row["kind"], row["ref"], row["occurred_at"]) for row in rows]


def derive_sessions(events: Sequence[Event], rules: Rules) -> list[Session]:
    """Split time-ordered events into sessions at gaps longer than the idle gap and time them."""
    sessions: list[Session] = []
    gap = timedelta(seconds=rules.idle_gap_s)
    for event in events:
        if sessions and event.occurred_at - sessions[-1].end <= gap:
            sessions[-1].events.append(event)
        else:
            sessions.append(Session([event]))
    for session in sessions:
        _time(session, rules.min_event_s)
    return sessions


def _time(session: Session, min_event_s: int) -> None:
    events = session.events
    for event, following in zip(events, [*events[1:], None], strict=True):
        credit = (following.occurred_at - event.occurred_at).total_seconds() if following else min_event_s
        session.seconds_by_kind[event.kind] += int(credit)
    session.seconds = sum(session.seconds_by_kind.values())
