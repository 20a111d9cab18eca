"""Sessions derived from events: split at the idle gap, active time with a minimum per session's last
event, time credited to each activity."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from backend.progress.events import Activity
from backend.progress.sessions import Event, Rules, as_events, derive_sessions
from backend.store import progress as store
from backend.store.db import Database

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)


def events(*spec: tuple[float, str]) -> list[Event]:
    return [Event(i, kind, None, T0 + timedelta(seconds=s)) for i, (s, kind) in enumerate(spec)]


def test_a_gap_longer_than_the_idle_gap_starts_a_new_session() -> None:
    sessions = derive_sessions(events((0, "chat_message"), (600, "quiz_answer"), (1500, "quiz_answer"),
                                      (1500 + 901, "card_review")), Rules(idle_gap_s=900))
    assert [len(s.events) for s in sessions] == [3, 1]
    assert sessions[1].start == T0 + timedelta(seconds=2401)


def test_a_gap_of_exactly_the_idle_gap_keeps_the_session() -> None:
    assert len(derive_sessions(events((0, "chat_message"), (900, "chat_message")), Rules(idle_gap_s=900))) == 1


def test_the_idle_gap_is_a_setting() -> None:
    spec = events((0, "chat_message"), (400, "chat_message"))
    assert len(derive_sessions(spec, Rules(idle_gap_s=900))) == 1
    assert len(derive_sessions(spec, Rules(idle_gap_s=300))) == 2


def test_active_time_counts_a_minimum_for_a_single_event() -> None:
    [single] = derive_sessions(events((0, "chat_message")), Rules())
    assert single.seconds == 60


def test_active_time_spans_the_session_plus_the_last_events_minimum_split_by_activity() -> None:
    [session] = derive_sessions(events((0, "chat_message"), (300, "quiz_answer"), (420, "quiz_answer")), Rules())
    assert session.seconds == 420 + 60
    assert dict(session.seconds_by_kind) == {"chat_message": 300, "quiz_answer": 120 + 60}
    assert dict(session.kinds) == {"chat_message": 1, "quiz_answer": 2}


def test_no_events_no_sessions() -> None:
    assert derive_sessions([], Rules()) == []


def test_postgres_session_spans_match_the_python_derivation(db: Database, activity: Activity) -> None:
    """Badges read sessions from SQL aggregates; they must equal what the dashboard derives in Python."""
    rng = random.Random(5)
    at = datetime(2026, 3, 1, 6, 0, tzinfo=UTC)
    kinds = ["chat_message", "quiz_answer", "card_review", "lesson_read"]
    for _ in range(300):
        at += timedelta(seconds=rng.choice([5, 40, 300, 899, 900, 901, 3600, 86_400]) + rng.random())
        activity.record(rng.choice(kinds), occurred_at=at)  # type: ignore[arg-type]
    rules = Rules(idle_gap_s=900)
    python = derive_sessions(as_events(store.events(db)), rules)
    sql = store.session_spans(db, rules.idle_gap_s, rules.min_event_s)
    assert [(s.start, s.end, len(s.events), s.seconds) for s in python] == [
        (s["start"], s["end"], s["events"], s["seconds"]) for s in sql]
    assert len(sql) > 50


def test_a_repeat_within_the_window_is_not_a_new_event(db: Database, activity: Activity) -> None:
    start = datetime(2026, 5, 4, 10, 0, tzinfo=UTC)
    ref = "lesson:w:1"
    assert activity.record("lesson_read", ref=ref, occurred_at=start, unless_within_s=300) is not None
    assert activity.record("lesson_read", ref=ref, occurred_at=start + timedelta(seconds=120),
                        unless_within_s=300) is None
    assert activity.record("lesson_read", ref="lesson:w:2", occurred_at=start + timedelta(seconds=130),
                        unless_within_s=300) is not None  # another lesson
    assert activity.record("lesson_read", ref=ref, occurred_at=start + timedelta(seconds=400),
                        unless_within_s=300) is not None  # read again later
    with db.connection() as conn:
        (count,) = conn.execute("SELECT count(*) FROM activity_events WHERE ref = %s", (ref,)).fetchone().values()
    assert count == 2
