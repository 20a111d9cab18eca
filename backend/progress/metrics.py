"""The numbers badges are judged by, each computed on first use and then kept for the evaluation.

Time-of-day metrics count sessions by the local hour (study time zone) at which they started: an
early session starts 05:00–07:59, a night session 22:00–03:59.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from backend.progress.sessions import Event, Rules, Session, as_events, derive_sessions
from backend.progress.summary import streaks
from backend.store import progress as store
from backend.store.db import Database

EARLY_HOURS = range(5, 8)
NIGHT_HOURS = (*range(22, 24), *range(0, 4))


class Metrics:
    def __init__(self, db: Database, rules: Rules) -> None:
        self.db = db
        self.rules = rules
        self._cache: dict[str, float] = {}

    @cached_property
    def events(self) -> list[Event]:
        return as_events(store.events(self.db))

    @cached_property
    def facts(self) -> dict[str, int]:
        """Lessons read, perfect quizzes and completed workshops, fetched together on first use."""
        return store.study_facts(self.db)

    @cached_property
    def sessions(self) -> list[Session]:
        return derive_sessions(self.events, self.rules)

    def value(self, metric: str) -> float:
        if metric not in self._cache:
            self._cache[metric] = float(METRICS[metric](self))
        return self._cache[metric]

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if e.kind == kind)

    def sessions_starting(self, hours: tuple[int, ...] | range) -> int:
        return sum(1 for s in self.sessions if self.rules.local(s.start).hour in hours)

    def longest_streak(self) -> int:
        days = {self.rules.day(e.occurred_at) for e in self.events}
        return streaks(days, max(days))[1] if days else 0


METRICS: dict[str, Callable[[Metrics], float]] = {
    "sessions": lambda m: len(m.sessions),
    "study_minutes": lambda m: sum(s.seconds for s in m.sessions) / 60,
    "longest_session_minutes": lambda m: max((s.seconds for s in m.sessions), default=0) / 60,
    "longest_streak": Metrics.longest_streak,
    "chat_messages": lambda m: m.count("chat_message"),
    "quiz_answers": lambda m: m.count("quiz_answer"),
    "card_reviews": lambda m: m.count("card_review"),
    "mindmap_exports": lambda m: m.count("mindmap_export"),
    "lessons_read": lambda m: m.facts["lessons_read"],
    "perfect_quizzes": lambda m: m.facts["perfect_quizzes"],
    "workshops_completed": lambda m: m.facts["workshops_completed"],
    "early_sessions": lambda m: m.sessions_starting(EARLY_HOURS),
    "night_sessions": lambda m: m.sessions_starting(NIGHT_HOURS),
}
