"""Badges: the catalogue as data, each earned exactly when its target is reached (not before), once,
stamped with the earning event's time; time-of-day badges judge when the session really happened."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from backend.progress import badges
from backend.progress.events import Activity
from backend.progress.metrics import METRICS
from backend.progress.sessions import Rules
from backend.store import activity
from backend.store import progress as store
from backend.store.db import Database

DAY = datetime(2026, 4, 13, 12, 0, tzinfo=UTC)  # a Monday


def earned(db: Database) -> set[str]:
    return set(store.awards(db))


def test_the_catalogue_is_25_badges_with_every_field() -> None:
    raw = json.loads(badges.BADGES_FILE.read_text(encoding="utf-8"))
    assert len(raw) == 25
    for item in raw:
        assert set(item) == {"code", "name", "icon", "description", "metric", "target", "group", "next_level"}
        assert item["metric"] in METRICS
    catalogue = {b.code: b for b in badges.catalogue()}
    assert catalogue["streak_3"].next_level == "streak_7"
    assert catalogue[catalogue["streak_3"].next_level].target > catalogue["streak_3"].target


def test_count_badges_at_the_threshold_and_not_before(db: Database, activity: Activity) -> None:
    assert earned(db) == set()
    activity.record("card_review", occurred_at=DAY)
    assert {"card_rookie", "first_steps"} <= earned(db)
    assert "card_shark" not in earned(db)
    for i in range(1, 249):
        store_only(db, "card_review", DAY + timedelta(seconds=i))
    badges.evaluate(db, Rules(), DAY + timedelta(seconds=249))
    assert "card_shark" not in earned(db)  # 249 reviews
    activity.record("card_review", occurred_at=DAY + timedelta(seconds=250))
    assert "card_shark" in earned(db)
    assert store.awards(db)["card_shark"]["earned_at"] == DAY + timedelta(seconds=250)


def store_only(db: Database, kind: str, when: datetime) -> None:
    """Insert an event without evaluating badges (fast set-up of many events)."""
    activity.insert_event(db, kind, None, when)


def test_a_badge_is_earned_once_with_its_first_timestamp(db: Database, activity: Activity) -> None:
    activity.record("chat_message", occurred_at=DAY)
    activity.record("chat_message", occurred_at=DAY + timedelta(days=1))
    assert store.awards(db)["curious"]["earned_at"] == DAY
    assert sum(1 for b in badges.badge_list(db, Rules())["badges"] if b.code == "curious") == 1


def test_streak_badges_need_consecutive_days(db: Database, activity: Activity) -> None:
    activity.record("chat_message", occurred_at=DAY)
    activity.record("chat_message", occurred_at=DAY + timedelta(days=1))
    activity.record("chat_message", occurred_at=DAY + timedelta(days=3))
    assert "streak_3" not in earned(db)
    activity.record("chat_message", occurred_at=DAY + timedelta(days=2))
    assert "streak_3" in earned(db)
    assert store.awards(db)["streak_3"]["earned_at"] == DAY + timedelta(days=2)


def test_time_of_day_badges_judge_the_sessions_local_time(db: Database) -> None:
    berlin = Rules(zone=ZoneInfo("Europe/Berlin"))
    # 04:30 UTC is 06:30 in Berlin (summer time): early in Berlin, not in UTC
    store_only(db, "quiz_answer", datetime(2026, 4, 14, 4, 30, tzinfo=UTC))
    badges.evaluate(db, Rules(zone=UTC), DAY)
    assert "early_bird" not in earned(db)
    # evaluated in the afternoon: the session's own time counts, not the time of the check
    badges.evaluate(db, berlin, datetime(2026, 4, 14, 15, 0, tzinfo=UTC))
    assert "early_bird" in earned(db)
    assert "night_owl" not in earned(db)


def test_a_late_session_started_before_midnight_earns_night_owl(db: Database) -> None:
    store_only(db, "chat_message", datetime(2026, 4, 14, 22, 30, tzinfo=UTC))
    store_only(db, "chat_message", datetime(2026, 4, 14, 22, 40, tzinfo=UTC))
    badges.evaluate(db, Rules(zone=UTC), DAY)
    assert "night_owl" in earned(db)


def test_progress_toward_unearned_badges(db: Database) -> None:
    for i in range(25):
        store_only(db, "quiz_answer", DAY + timedelta(seconds=i))
    listing = {b.code: b for b in badges.badge_list(db, Rules())["badges"]}
    assert (listing["quiz_whiz"].value, listing["quiz_whiz"].progress, listing["quiz_whiz"].earned) == (25, 0.25, False)
    assert listing["first_answer"].progress == 1.0


def wait_for_award(db: Database, code: str, timeout_s: float = 5.0) -> datetime:
    deadline = time.monotonic() + timeout_s
    while code not in (awards := store.awards(db)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert code in awards, f"{code} was not awarded within {timeout_s} s"
    return awards[code]["earned_at"]


def test_chat_questions_are_judged_soon_and_a_burst_is_judged_once(db: Database, activity: Activity) -> None:
    # A chat question's event is stored with the question; its badge check runs after the answer, at once.
    store_only(db, "chat_message", DAY)
    activity.check_badges_soon(DAY)
    assert wait_for_award(db, "curious") == DAY
    # A burst within the check interval is judged by one check, stamped with the burst's newest question:
    # the 100th question earns "inquisitive", but the check sees the 105th too.
    burst = [DAY + timedelta(seconds=i) for i in range(1, 105)]
    for at in burst:
        store_only(db, "chat_message", at)
    for at in burst:
        activity.check_badges_soon(at)
    assert wait_for_award(db, "inquisitive") == DAY + timedelta(seconds=104)
