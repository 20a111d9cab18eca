"""Recording study activity. Every feature that counts as studying calls `Activity.record` once per event;
badges are evaluated right after, so one that the event earns is stamped with the event's time.

The chat is the exception: a question's event is stored with the question (one transaction fewer on
the way to the answer), and `Activity.check_badges_soon` judges it after the answer, on a timer thread. Those
checks are coalesced to one per `BADGE_CHECK_INTERVAL_S`: a person asks at most every few seconds, so
each question still gets its own check at once; a burst of questions (a script, a benchmark) gets one
check for all of them, stamped with the newest — instead of a badge evaluation competing with every
next answer. `Activity` is built once per process with the study rules (idle gap, time zone).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime
from typing import Literal

from backend.progress.badges import evaluate
from backend.progress.sessions import Rules
from backend.store import activity as store
from backend.store.db import Database, PoolClosed

log = logging.getLogger(__name__)

ActivityKind = Literal["chat_message", "quiz_answer", "card_review", "lesson_read", "mindmap_export"]


BADGE_CHECK_INTERVAL_S = 1.0


class _CoalescedBadgeCheck:
    """Badge checks for one database: at most one per interval, each covering every event before it."""

    def __init__(self, db: Database, rules: Rules) -> None:
        self._db = db
        self._rules = rules
        self._lock = threading.Lock()
        self._newest: datetime | None = None  # the newest event waiting for a check; None: none waits
        self._last_run = float("-inf")

    def request(self, at: datetime) -> None:
        with self._lock:
            waiting = self._newest is not None
            self._newest = at if self._newest is None else max(self._newest, at)
            if waiting:  # a scheduled check will see this event too
                return
            delay = max(0.0, self._last_run + BADGE_CHECK_INTERVAL_S - time.monotonic())
        timer = threading.Timer(delay, self._run)
        timer.daemon = True
        timer.start()

    def _run(self) -> None:
        with self._lock:
            at, self._newest, self._last_run = self._newest, None, time.monotonic()
        if at is None:
            return
        try:
            evaluate(self._db, self._rules, at)
        except PoolClosed:  # the app stopped meanwhile; the next event's check catches up
            return
        except Exception:  # progress bookkeeping must never disturb anything else
            log.exception("badge check failed")


class Activity:
    """Study activity over the database, judged by the study rules (sessions, days and streaks)."""

    def __init__(self, db: Database, rules: Rules) -> None:
        self.db = db
        self.rules = rules
        self._check = _CoalescedBadgeCheck(db, rules)

    def record(self, kind: ActivityKind, *, ref: str | None = None, occurred_at: datetime | None = None,
               unless_within_s: int = 0) -> int | None:
        """Store one activity event (now, unless `occurred_at` is given), then award any badge it earns;
        returns the event's id. With `unless_within_s`, an event of the same kind and ref that recent makes
        this one a repeat, and nothing is stored (None)."""
        at = occurred_at or datetime.now(UTC)
        event_id = store.insert_event(self.db, kind, ref, at, unless_within_s)
        if event_id is not None:
            evaluate(self.db, self.rules, at)
        return event_id

    def check_badges_soon(self, at: datetime) -> None:
        """Evaluate badges for an event stored elsewhere (`at`: its time), soon and off the caller's thread."""
        self._check.request(at)
