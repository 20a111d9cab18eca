"""Fitting FSRS parameters to a review log with the `fsrs` package's own `Optimizer`, and measuring how
well a set of parameters predicts that log. Runs in a sandboxed child process (see `fsrs_tuning.py`):
the optimizer is torch code that holds a core for seconds to minutes and needs a few hundred MB.

The measure is the one the optimizer minimises, computed with the public `Scheduler` alone: every
card's reviews are replayed in order, and each review a day or more after the previous one is scored
by the retrievability the parameters predicted for it against whether it was recalled (any rating but
"again"): the mean log loss and the root mean square error. Same-day reviews (learning steps) are
replayed but not scored, as in the optimizer.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from fsrs import Card, Rating, ReviewLog, Scheduler

LogEntry = tuple[int, int, datetime]  # card number, rating 1–4, when
_EPS = 1e-6


def optimizer_installed() -> bool:
    """The optimizer's extra packages (torch, pandas) are importable in this environment."""
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "pandas"))


def default_parameters() -> list[float]:
    return [float(p) for p in Scheduler().parameters]


def scored_reviews(log: Sequence[LogEntry], parameters: Sequence[float]) -> list[tuple[float, int]]:
    """(predicted retrievability, recalled) for every review a day or more after the card's last one."""
    scheduler = Scheduler(parameters=tuple(parameters), enable_fuzzing=False)
    cards: dict[int, Card] = {}
    scored: list[tuple[float, int]] = []
    for card_id, rating, at in sorted(log, key=lambda entry: (entry[2], entry[0])):
        card = cards.get(card_id) or Card(card_id=card_id, due=at)
        if card.last_review is not None and (at - card.last_review).days > 0:
            predicted = float(scheduler.get_card_retrievability(card, at))
            scored.append((predicted, 0 if rating == Rating.Again else 1))
        cards[card_id], _ = scheduler.review_card(card, Rating(rating), at)
    return scored


def measure(log: Sequence[LogEntry], parameters: Sequence[float]) -> dict[str, float]:
    """Mean log loss and RMSE of the parameters' predictions on the log (lower is better)."""
    scored = scored_reviews(log, parameters)
    if not scored:
        return {"log_loss": 0.0, "rmse": 0.0}
    loss = -sum(y * math.log(max(p, _EPS)) + (1 - y) * math.log(max(1 - p, _EPS)) for p, y in scored) / len(scored)
    rmse = math.sqrt(sum((y - p) ** 2 for p, y in scored) / len(scored))
    return {"log_loss": round(loss, 6), "rmse": round(rmse, 6)}


def fit(log: Sequence[LogEntry], report: Callable[[Any], None]) -> dict[str, Any]:
    """Optimal parameters for the log (the package's optimizer, one thread) and both sets' measures."""
    import torch
    from fsrs import Optimizer

    torch.set_num_threads(1)
    report("fitting")
    reviews = [ReviewLog(card_id=card, rating=Rating(rating), review_datetime=at, review_duration=None)
               for card, rating, at in log]
    parameters = [float(p) for p in Optimizer(reviews).compute_optimal_parameters()]
    report("measuring")
    return {"parameters": parameters, "before": measure(log, default_parameters()), "after": measure(log, parameters)}
