"""The numbers badges are judged by, each computed on first use and then kept for the evaluation.

Badges are evaluated after every activity event, so these come from aggregates Postgres computes
(sessions, counts per kind) rather than from every event of the user's history. Time-of-day metrics
count sessions by the local hour (study time zone) at which they started: an early session starts
05:00–07:59, a night session 22:00–03:59.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from functools import cached_property

from backend.progress.sessions import Rules
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
    def counts(self) -> dict[str, int]:
        return store.kind_counts(self.db)

    @cached_property
    def facts(self) -> dict[str, int]:
        """Lessons read, perfect quizzes and completed workshops, fetched together on first use."""
        return store.study_facts(self.db)

    @cached_property
    def sessions(self) -> list[store.SpanRow]:
        return store.session_spans(self.db, self.rules.idle_gap_s, self.rules.min_event_s)

    def value(self, metric: str) -> float:
        if metric not in self._cache:
            self._cache[metric] = float(METRICS[metric](self))
        return self._cache[metric]

    def count(self, kind: str) -> int:
        return self.counts.get(kind, 0)

    def sessions_starting(self, hours: tuple[int, ...] | range) -> int:
        return sum(1 for s in self.sessions if self.rules.local(s["start"]).hour in hours)

    def longest_streak(self) -> int:
        # Events of a session are at most the idle gap apart, so a session touches every day from its
        # first day to its last: the active days are exactly the union of those ranges.
        days: set[date] = set()
        for session in self.sessions:
            day, last = self.rules.day(session["start"]), self.rules.day(session["end"])
            while day <= last:
                days.add(day)
                day += timedelta(days=1)
        return streaks(days, max(days))[1] if days else 0


METRICS: dict[str, Callable[[Metrics], float]] = {
    "sessions": lambda m: len(m.sessions),
    "study_minutes": lambda m: sum(s["seconds"] for s in m.sessions) / 60,
    "longest_session_minutes": lambda m: max((s["seconds"] for s in m.sessions), default=0) / 60,
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
