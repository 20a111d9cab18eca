"""Planning reviews toward an exam date from FSRS retrievability forecasts (pure: no database, no clock).

Every card in the plan's scope should be remembered with at least the target retrievability R* (90% by
default) at the exam. A card's retrievability falls with time since its last review, at a pace set by its
stability; FSRS predicts it (`Scheduler.get_card_retrievability`). So:

- A **learnt card** is due in the plan on the first day its predicted retrievability falls below R*
  (found by bisection over the days left); its review is simulated as "good" with a scheduler aiming at
  R*, and the next such day found, until the exam. A card whose retrievability would drop below R*
  between the last study day and the exam is reviewed on the last study day. A card already below R*
  when today began was **missed**: it is due today.
- **New cards** are spread evenly over the study days left (all but the last, which is kept for their
  first follow-up when there are two or more), in deck order; today's share shrinks as they are learnt.
  Cards made from mistakes are due at once, as they are everywhere else.
- Study days run from today to the day before the exam; reviews are placed at noon (now, for today),
  and the exam at 09:00, in the study time zone.

Because the plan is recomputed from the cards' current state, it adapts by itself: reviews done move
cards out of today and further out, missed ones come back as "missed" and new cards not learnt raise the
daily share. Simulated reviews use the learning- and relearning-step-free scheduler: the plan counts
days, not the minutes of a learning step.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from fsrs import Card, Rating, Scheduler, State

EXAM_TIME = time(9)
REVIEW_TIME = time(12)
MAX_REVIEWS_PER_CARD = 60


@dataclass(frozen=True)
class PlanCard:
    id: str
    card: Card
    new: bool
    due_now: bool  # new, but due at once (a mistake card)


@dataclass
class DayPlan:
    day: date
    reviews: int = 0
    new: int = 0


@dataclass
class Forecast:
    days: list[DayPlan]
    review_today: list[str]  # learnt cards due today by the plan (missed ones included)
    new_today: list[str]  # new cards to learn today (mistake cards first)
    missed: int  # learnt cards already below the target when today began
    new_left: int  # new cards not learnt yet
    retention_now: float  # mean predicted retrievability at the exam with no more study (new cards: 0)
    retention_planned: float  # the same if the plan is followed
    at_target: int = 0  # cards predicted at or above the target at the exam if the plan is followed
    total: int = 0
    reasons: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Calendar:
    today: date
    exam: date
    zone: tzinfo | None
    now: datetime

    def at(self, day: date, moment: time) -> datetime:
        local = datetime.combine(day, moment).replace(tzinfo=self.zone) if self.zone else \
            datetime.combine(day, moment).astimezone()
        return local.astimezone(UTC)

    def review_at(self, day: date) -> datetime:
        return max(self.now, self.at(day, REVIEW_TIME)) if day == self.today else self.at(day, REVIEW_TIME)

    @property
    def exam_at(self) -> datetime:
        return self.at(self.exam, EXAM_TIME)

    @property
    def study_days(self) -> list[date]:
        return [self.today + timedelta(days=i) for i in range(max(0, (self.exam - self.today).days))]


def plan_scheduler(parameters: Sequence[float], target: float) -> Scheduler:
    return Scheduler(parameters=tuple(parameters), desired_retention=target, learning_steps=(),
                     relearning_steps=(), enable_fuzzing=False)


def _first_day_below(scheduler: Scheduler, card: Card, days: list[date], start: int, cal: Calendar,
                     target: float) -> int | None:
    """Index of the first study day from `start` on whose review moment finds the card below `target`."""
    lo, hi = start, len(days)
    while lo < hi:
        mid = (lo + hi) // 2
        if scheduler.get_card_retrievability(card, cal.review_at(days[mid])) < target:
            hi = mid
        else:
            lo = mid + 1
    return lo if lo < len(days) else None


def simulate(scheduler: Scheduler, card: Card, start: int, cal: Calendar, target: float) -> tuple[list[int], Card]:
    """The study-day indexes the card is reviewed on (from `start`), and its state at the exam."""
    days, reviews = cal.study_days, list[int]()
    while len(reviews) < MAX_REVIEWS_PER_CARD and days:
        index = _first_day_below(scheduler, card, days, start, cal, target)
        if index is None:
            last = len(days) - 1
            below_at_exam = scheduler.get_card_retrievability(card, cal.exam_at) < target
            if not below_at_exam or last < start:
                break
            index = last
        reviews.append(index)
        card, _ = scheduler.review_card(card, Rating.Good, cal.review_at(days[index]))
        start = index + 1
        if start >= len(days):
            break
    return reviews, card


def _retention(scheduler: Scheduler, card: Card | None, cal: Calendar) -> float:
    return 0.0 if card is None else float(scheduler.get_card_retrievability(card, cal.exam_at))


def forecast(cards: Sequence[PlanCard], cal: Calendar, parameters: Sequence[float], target: float,
             learnt_today: int) -> Forecast:
    """The plan from today to the exam; `learnt_today`: new cards of the scope already learnt today."""
    scheduler = plan_scheduler(parameters, target)
    days = [DayPlan(d) for d in cal.study_days]
    out = Forecast(days=days, review_today=[], new_today=[], missed=0, new_left=0, retention_now=0.0,
                   retention_planned=0.0, total=len(cards))
    now_sum = planned_sum = 0.0
    day_start = cal.at(cal.today, time(0))
    day_end = cal.at(cal.today + timedelta(days=1), time(0))
    fresh = [c for c in cards if c.new and not c.due_now]
    urgent = [c for c in cards if c.new and c.due_now]
    for plan_card in (c for c in cards if not c.new):
        card = plan_card.card
        now_sum += _retention(scheduler, card, cal)
        learning = card.state != State.Review
        if days:  # missed: a learning step overdue, or already below the target when today began
            missed = card.due < day_start if learning else scheduler.get_card_retrievability(card, day_start) < target
            out.missed += int(missed)
        reviews, final = simulate(scheduler, card, 0, cal, target)
        # A card in a learning step comes back today whatever its retrievability: due before today ends,
        # not only by the review time (after noon that was "now", and a step due in ten minutes was lost).
        if learning and days and (not reviews or reviews[0] != 0) and card.due < day_end:
            reviews = [0, *reviews]
        for index in reviews:
            days[index].reviews += 1
        if reviews and reviews[0] == 0:
            out.review_today.append(plan_card.id)
        planned_sum += _retention(scheduler, final, cal)
        out.at_target += int(_retention(scheduler, final, cal) >= target - 1e-9)
    planned_sum += _place_new(scheduler, urgent, fresh, out, cal, target, learnt_today)
    out.new_left = len(fresh) + len(urgent)
    if cards:
        out.retention_now = round(now_sum / len(cards), 4)
        out.retention_planned = round(planned_sum / len(cards), 4)
    return out


def _place_new(scheduler: Scheduler, urgent: Sequence[PlanCard], fresh: Sequence[PlanCard], out: Forecast,
               cal: Calendar, target: float, learnt_today: int) -> float:
    """Spread new cards over the study days (mistake cards today); returns their planned retention sum."""
    days = out.days
    if not days:
        return 0.0
    intro_days = max(1, len(days) - 1) if len(days) > 1 else 1
    per_day = math.ceil((len(fresh) + learnt_today) / intro_days) if fresh else 0
    today_share = max(0, per_day - learnt_today)
    out.new_today = [c.id for c in urgent] + [c.id for c in fresh[:today_share]]
    # The study-day index each new card is learnt on, in order.
    schedule = [0] * len(out.new_today)
    rest = len(fresh) - today_share if len(fresh) > today_share else 0
    for index in range(1, intro_days):
        taken = min(per_day, rest)
        schedule += [index] * taken
        rest -= taken
    schedule += [intro_days - 1] * rest
    total = 0.0
    for index in schedule:
        days[index].new += 1
        learnt, _ = scheduler.review_card(Card(card_id=1), Rating.Good, cal.review_at(days[index].day))
        reviews, final = simulate(scheduler, learnt, index + 1, cal, target)
        for later in reviews:
            days[later].reviews += 1
        retention = _retention(scheduler, final, cal)
        total += retention
        out.at_target += int(retention >= target - 1e-9)
    return total
