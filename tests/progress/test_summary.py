"""Totals, streaks, the zero-filled daily series, the breakdown and one day's detail, from events in a
real database — with calendar days taken in the study time zone."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from backend.progress import summary
from backend.progress.events import Activity
from backend.progress.sessions import Rules
from backend.store.db import Database

BERLIN = Rules(zone=ZoneInfo("Europe/Berlin"))
NOW = datetime(2026, 6, 10, 15, 0, tzinfo=UTC)


def at(days_ago: int, hour: int, minute: int = 0) -> datetime:
    return (NOW - timedelta(days=days_ago)).replace(hour=hour, minute=minute)


def test_streaks_current_and_longest() -> None:
    today = date(2026, 6, 10)
    days = {today - timedelta(days=n) for n in (1, 2, 5, 6, 7, 8)}
    assert summary.streaks(days, today) == (2, 4)  # yesterday still counts; today is not over
    assert summary.streaks(days | {today}, today) == (3, 4)
    assert summary.streaks({today - timedelta(days=3)}, today) == (0, 1)
    assert summary.streaks(set(), today) == (0, 0)


def test_summary_counts_time_sessions_and_streaks(db: Database, activity: Activity) -> None:
    for when, kind in [(at(2, 9), "chat_message"), (at(2, 9, 10), "quiz_answer"), (at(1, 20), "card_review"),
                       (at(0, 8), "lesson_read"), (at(0, 11), "chat_message")]:
        activity.record(kind, occurred_at=when)
    result = summary.summary(db, BERLIN, now=NOW)
    assert result["sessions"] == 4
    assert result["total_seconds"] == (600 + 60) + 60 + 60 + 60
    assert (result["messages"], result["quiz_answers"], result["card_reviews"], result["lessons_read"]) == (2, 1, 1, 1)
    assert (result["current_streak"], result["longest_streak"], result["active_days"]) == (3, 3, 3)
    assert result["today_seconds"] == 120
    assert result["timezone"] == "Europe/Berlin"


def test_daily_series_is_zero_filled_and_uses_the_study_zone(db: Database, activity: Activity) -> None:
    # 23:30 UTC on June 8 is 01:30 on June 9 in Berlin
    activity.record("quiz_answer", occurred_at=datetime(2026, 6, 8, 23, 30, tzinfo=UTC))
    activity.record("quiz_answer", occurred_at=datetime(2026, 6, 8, 23, 35, tzinfo=UTC))
    series = summary.daily(db, BERLIN, 7, now=NOW)
    assert [d["date"] for d in series["days"]] == [date(2026, 6, 4) + timedelta(days=i) for i in range(7)]
    by_date = {d["date"]: d for d in series["days"]}
    assert by_date[date(2026, 6, 9)]["seconds"] == 360
    assert by_date[date(2026, 6, 9)]["by_kind"] == {"quiz_answer": 2}
    assert by_date[date(2026, 6, 8)] == {"date": date(2026, 6, 8), "seconds": 0, "minutes": 0.0, "sessions": 0,
                                         "events": 0, "by_kind": {}}
    utc_series = summary.daily(db, Rules(zone=UTC), 7, now=NOW)
    assert {d["date"]: d["events"] for d in utc_series["days"]}[date(2026, 6, 8)] == 2


def test_a_year_of_days_can_be_asked_for(db: Database) -> None:
    series = summary.daily(db, BERLIN, summary.MAX_DAYS, end=date(2026, 6, 10))
    assert len(series["days"]) == 365
    assert series["start"] == date(2025, 6, 11)


def test_breakdown_splits_study_time_by_activity(db: Database, activity: Activity) -> None:
    activity.record("chat_message", occurred_at=at(0, 9))
    activity.record("card_review", occurred_at=at(0, 9, 5))
    activity.record("card_review", occurred_at=at(0, 9, 6))
    activity.record("mindmap_export", occurred_at=at(40, 9))
    items = {i["kind"]: i for i in summary.breakdown(db, BERLIN, now=NOW)["items"]}
    assert (items["chat_message"]["seconds"], items["card_review"]["seconds"]) == (300, 120)
    assert items["card_review"]["events"] == 2
    assert items["mindmap_export"]["events"] == 1
    recent = {i["kind"]: i for i in summary.breakdown(db, BERLIN, days=30, now=NOW)["items"]}
    assert recent["mindmap_export"]["events"] == 0
    assert recent["lesson_read"]["share"] == 0.0
    assert round(sum(i["share"] for i in recent.values()), 3) == 1.0


def test_day_detail_and_session_list(db: Database, activity: Activity) -> None:
    activity.record("quiz_answer", ref="quiz:1", occurred_at=at(1, 7))
    activity.record("quiz_answer", ref="quiz:1", occurred_at=at(1, 7, 5))
    activity.record("chat_message", occurred_at=at(1, 12))
    activity.record("chat_message", occurred_at=at(0, 12))
    day = summary.day_detail(db, BERLIN, date(2026, 6, 9))
    assert [s["events"] for s in day["sessions"]] == [2, 1]
    assert [e["local_time"] for e in day["events"]] == ["09:00:00", "09:05:00", "14:00:00"]
    assert day["events"][0]["ref"] == "quiz:1"
    sessions = summary.list_sessions(db, BERLIN, limit=2)
    assert [s["day"] for s in sessions] == ["2026-06-10", "2026-06-09"]
    older = summary.list_sessions(db, BERLIN, limit=5, before=sessions[-1]["start"])
    assert [s["events"] for s in older] == [2]
