"""Recording study activity. Every feature that counts as studying calls `record_event` once per event;
badges are evaluated right after, so one that the event earns is stamped with the event's time.

The chat is the exception: a question's event is stored with the question (one transaction fewer on
the way to the answer), and `check_badges_soon` judges it after the answer, on a timer thread. Those
checks are coalesced to one per `BADGE_CHECK_INTERVAL_S`: a person asks at most every few seconds, so
each question still gets its own check at once; a burst of questions (a script, a benchmark) gets one
check for all of them, stamped with the newest — instead of a badge evaluation competing with every
next answer.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from datetime import UTC, datetime
from typing import Literal

from backend.progress.badges import evaluate
from backend.progress.sessions import current_rules
from backend.store import activity as store
from backend.store.db import Database, PoolClosed

log = logging.getLogger(__name__)

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


BADGE_CHECK_INTERVAL_S = 1.0


class _CoalescedBadgeCheck:
    """Badge checks for one database: at most one per interval, each covering every event before it."""

    def __init__(self, db: Database) -> None:
        self._db = weakref.ref(db)
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
        db = self._db()
        if at is None or db is None:
            return
        try:
            evaluate(db, current_rules(), at)
        except PoolClosed:  # the app stopped meanwhile; the next event's check catches up
            return
        except Exception:  # progress bookkeeping must never disturb anything else
            log.exception("badge check failed")


_checks: weakref.WeakKeyDictionary[Database, _CoalescedBadgeCheck] = weakref.WeakKeyDictionary()
_checks_lock = threading.Lock()


def check_badges_soon(db: Database, at: datetime) -> None:
    """Evaluate badges for an event stored elsewhere (`at`: its time), soon and off the caller's thread."""
    with _checks_lock:
        check = _checks.get(db)
        if check is None:
            check = _checks[db] = _CoalescedBadgeCheck(db)
    check.request(at)
