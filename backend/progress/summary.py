"""The dashboard's numbers: totals and streaks, the daily series behind the heatmap, the breakdown by
activity, the list of sessions, and the detail of one day — all derived from activity events.

A streak counts consecutive study-zone calendar days with at least one event; the current streak is
still alive when the last active day is yesterday (today is not over yet).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import Any

from backend.progress.sessions import Event, Rules, Session, as_events, derive_sessions
from backend.store import progress as store
from backend.store.db import Database

KIND_LABELS = {"chat_message": "Chat", "quiz_answer": "Quizzes", "card_review": "Flashcards",
               "lesson_read": "Lessons", "mindmap_export": "Mind maps"}
MAX_DAYS = 365


def history(db: Database, rules: Rules) -> tuple[list[Event], list[Session]]:
    events = as_events(store.events(db))
    return events, derive_sessions(events, rules)


def streaks(active: set[date], today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive active days."""
    longest, run, previous = 0, 0, None
    for day in sorted(active):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest, previous = max(longest, run), day
    current, day = 0, today if today in active else today - timedelta(days=1)
    while day in active:
        current, day = current + 1, day - timedelta(days=1)
    return current, longest


def summary(db: Database, rules: Rules, now: datetime | None = None) -> dict[str, Any]:
    events, sessions = history(db, rules)
    today = rules.day(now or datetime.now(UTC))
    current, longest = streaks({rules.day(e.occurred_at) for e in events}, today)
    counts = Counter(e.kind for e in events)
    total = sum(s.seconds for s in sessions)
    today_s = sum(s.seconds for s in sessions if rules.day(s.start) == today)
    return {
        "total_seconds": total, "total_minutes": round(total / 60, 1), "sessions": len(sessions),
        "messages": counts["chat_message"], "quiz_answers": counts["quiz_answer"],
        "card_reviews": counts["card_review"], "lessons_read": len({e.ref for e in events if e.kind == "lesson_read"}),
        "mindmap_exports": counts["mindmap_export"], "current_streak": current, "longest_streak": longest,
        "active_days": len({rules.day(e.occurred_at) for e in events}),
        "today_seconds": today_s, "today_minutes": round(today_s / 60, 1),
        "first_activity_at": events[0].occurred_at if events else None,
        "last_activity_at": events[-1].occurred_at if events else None, "timezone": rules.zone_name,
    }


def daily(db: Database, rules: Rules, days: int, end: date | None = None,
          now: datetime | None = None) -> dict[str, Any]:
    """One entry per day for `days` days ending at `end` (default today), zero-filled."""
    end = end or rules.day(now or datetime.now(UTC))
    start = end - timedelta(days=days - 1)
    events, sessions = history(db, rules)
    series = {start + timedelta(days=i): _empty_day(start + timedelta(days=i)) for i in range(days)}
    for session in sessions:
        if (entry := series.get(rules.day(session.start))) is not None:
            entry["seconds"] += session.seconds
            entry["sessions"] += 1
    for event in events:
        if (entry := series.get(rules.day(event.occurred_at))) is not None:
            entry["events"] += 1
            entry["by_kind"][event.kind] = entry["by_kind"].get(event.kind, 0) + 1
    for entry in series.values():
        entry["minutes"] = round(entry["seconds"] / 60, 1)
    return {"timezone": rules.zone_name, "start": start, "end": end, "days": list(series.values())}


def _empty_day(day: date) -> dict[str, Any]:
    return {"date": day, "seconds": 0, "minutes": 0.0, "sessions": 0, "events": 0, "by_kind": {}}


def breakdown(db: Database, rules: Rules, days: int | None = None, now: datetime | None = None) -> dict[str, Any]:
    """Study time and events per activity, over the last `days` days or all time."""
    events, sessions = history(db, rules)
    since = rules.day(now or datetime.now(UTC)) - timedelta(days=days - 1) if days else None
    seconds: Counter[str] = Counter()
    for session in sessions:
        if since is None or rules.day(session.start) >= since:
            seconds.update(session.seconds_by_kind)
    counts = Counter(e.kind for e in events if since is None or rules.day(e.occurred_at) >= since)
    total = sum(seconds.values())
    items = [{"kind": kind, "label": label, "events": counts[kind], "seconds": seconds[kind],
              "minutes": round(seconds[kind] / 60, 1), "share": round(seconds[kind] / total, 4) if total else 0.0}
             for kind, label in KIND_LABELS.items()]
    return {"since": since, "total_seconds": total, "items": items}


def list_sessions(db: Database, rules: Rules, limit: int, before: datetime | None = None) -> list[dict[str, Any]]:
    """Sessions, newest first; `before` pages back (sessions that started before it)."""
    _, sessions = history(db, rules)
    if before is not None and before.tzinfo is None:
        before = before.replace(tzinfo=UTC)
    picked = [s for s in reversed(sessions) if before is None or s.start < before][:limit]
    return [s.as_dict(rules) for s in picked]


def day_detail(db: Database, rules: Rules, day: date) -> dict[str, Any]:
    """One study-zone day: the sessions that started on it and every event that happened on it."""
    events, sessions = history(db, rules)
    todays = [s for s in sessions if rules.day(s.start) == day]
    day_events = [{"id": e.id, "kind": e.kind, "ref": e.ref, "occurred_at": e.occurred_at,
                   "local_time": rules.local(e.occurred_at).strftime("%H:%M:%S")}
                  for e in events if rules.day(e.occurred_at) == day]
    seconds = sum(s.seconds for s in todays)
    return {"date": day, "timezone": rules.zone_name, "seconds": seconds, "minutes": round(seconds / 60, 1),
            "sessions": [s.as_dict(rules) for s in todays], "events": day_events}
