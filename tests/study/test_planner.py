"""The exam planner on cards in known states (pure: no database): new cards spread over the days left,
learnt cards due when their predicted retrievability would fall below the target, missed reviews due
today, and a plan that adapts to what was studied."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from fsrs import Card, Rating, Scheduler

from backend.study.planner import Calendar, PlanCard, forecast

ZONE = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 3, 2, 8, 0, tzinfo=ZONE).astimezone(UTC)
TODAY = date(2026, 3, 2)
DEFAULTS = Scheduler().parameters


def new(n: int, due_now: bool = False) -> PlanCard:
    return PlanCard(f"new-{n}", Card(card_id=n), new=True, due_now=due_now)


def learnt(name: str, days_ago: int, rating: Rating = Rating.Good) -> PlanCard:
    scheduler = Scheduler(learning_steps=(), enable_fuzzing=False)
    card, _ = scheduler.review_card(Card(), rating, NOW - timedelta(days=days_ago))
    return PlanCard(name, card, new=False, due_now=False)


def calendar(days_to_exam: int) -> Calendar:
    return Calendar(today=TODAY, exam=TODAY + timedelta(days=days_to_exam), zone=ZONE, now=NOW)


def test_new_cards_are_spread_over_the_days_before_the_exam_and_all_reach_the_target() -> None:
    plan = forecast([new(n) for n in range(30)], calendar(10), DEFAULTS, 0.9, learnt_today=0)
    assert [d.day for d in plan.days] == [TODAY + timedelta(days=i) for i in range(10)]
    assert [d.new for d in plan.days] == [4, 4, 4, 4, 4, 4, 4, 2, 0, 0]  # 30 over the first 9 days, the last kept
    assert plan.new_today == [f"new-{n}" for n in range(4)]
    assert plan.review_today == []
    assert (plan.new_left, plan.total, plan.missed) == (30, 30, 0)
    assert plan.retention_now == 0.0
    assert plan.at_target == 30
    assert plan.retention_planned >= 0.9
    assert sum(d.reviews for d in plan.days) > 0  # learnt cards come back before the exam


def test_a_card_below_the_target_is_missed_and_due_today_and_a_fresh_one_is_not() -> None:
    old, fresh = learnt("old", days_ago=20), learnt("fresh", days_ago=0)
    plan = forecast([old, fresh], calendar(30), DEFAULTS, 0.9, learnt_today=0)
    assert plan.missed == 1
    assert plan.review_today == ["old"]
    assert plan.days[0].reviews == 1
    assert 0 < plan.retention_now < 0.9
    assert plan.at_target == 2


def test_the_plan_adapts_to_cards_learnt_today() -> None:
    cards = [new(n) for n in range(26)]
    plan = forecast(cards, calendar(10), DEFAULTS, 0.9, learnt_today=4)
    assert plan.new_today == []  # today's share (4 of 30) is done
    assert sum(d.new for d in plan.days) == 26


def test_mistake_cards_are_due_today_and_an_exam_tomorrow_gets_everything_today() -> None:
    plan = forecast([new(1, due_now=True), new(2), new(3)], calendar(1), DEFAULTS, 0.9, learnt_today=0)
    assert plan.new_today == ["new-1", "new-2", "new-3"]
    assert [d.new for d in plan.days] == [3]


def test_a_higher_target_plans_more_reviews() -> None:
    cards = [learnt(f"c{n}", days_ago=n % 5) for n in range(20)]
    relaxed = forecast(cards, calendar(40), DEFAULTS, 0.8, learnt_today=0)
    strict = forecast(cards, calendar(40), DEFAULTS, 0.95, learnt_today=0)
    assert sum(d.reviews for d in strict.days) > sum(d.reviews for d in relaxed.days)
    assert strict.retention_planned > relaxed.retention_planned


def test_a_learning_step_comes_back_today_only_when_it_ends_before_midnight() -> None:
    def step_card(now: datetime) -> PlanCard:
        card, _ = Scheduler(enable_fuzzing=False).review_card(Card(), Rating.Good, now)  # a 10-minute step
        return PlanCard("step", card, new=False, due_now=False)

    evening = datetime(2026, 3, 2, 23, 55, tzinfo=ZONE).astimezone(UTC)  # the step ends at 00:05 tomorrow
    for now, today in ((datetime(2026, 3, 2, 15, 0, tzinfo=ZONE).astimezone(UTC), True), (evening, False)):
        cal = Calendar(today=TODAY, exam=TODAY + timedelta(days=5), zone=ZONE, now=now)
        plan = forecast([step_card(now)], cal, DEFAULTS, 0.9, learnt_today=0)
        assert plan.review_today == (["step"] if today else [])
        assert plan.missed == 0
        assert sum(d.reviews for d in plan.days) >= 1  # tomorrow's, when not today's
