"""Personal FSRS parameters over real HTTP, on a server of its own: with few reviews the defaults are used
and a fit is refused; on the review log of a simulated learner who forgets faster than the defaults
assume, the package's optimizer (in a sandboxed child) fits parameters that predict the log better
(before/after shown), and reviews use them from then on. Without the optimizer's packages the status and
the refusal say what to install."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import psycopg
import pytest
from fsrs import Card, Rating, Scheduler

from backend.study.fsrs_fit import optimizer_installed
from tests.support.server import QuireServer
from tests.support.study import simulated_review_log, wait_job


def test_parameters_are_fitted_to_the_review_log_once_there_are_enough(
        server_factory: Callable[..., QuireServer]) -> None:
    server = server_factory()
    with server.client() as api:
        status = api.get("/api/study/scheduler").json()
        assert (status["personalised"], status["reviews"], status["needed"]) == (False, 0, 512)
        assert status["parameters"] == status["default_parameters"]
        early = api.post("/api/study/scheduler/optimize")
        assert early.status_code == 409
        assert early.json()["error"]["code"] == "not_enough_reviews"

        deck = api.post("/api/study/decks/manual", json={"title": "Simulated"}).json()
        base = f"/api/study/decks/{deck['id']}"
        log = simulated_review_log(cards=150, days=110)
        card_ids = [api.post(f"{base}/cards", json={"front": f"Card {n}", "back": "x"}).json()["id"]
                    for n in range(150)]
        with psycopg.connect(server.database_url) as conn:  # months of reviews cannot be made in a test's time
            conn.cursor().executemany(
                "INSERT INTO card_reviews (card_id, rating, reviewed_at, state_before, due_before, due_after)"
                " VALUES (%s, %s, %s, 2, %s, %s)", [(card_ids[c], r, at, at, at) for c, r, at in log])
        status = api.get("/api/study/scheduler").json()
        assert status["reviews"] == len(log)
        assert status["spaced_reviews"] >= 512
        new_card = api.get(f"{base}/due").json()["cards"][0]

        if not optimizer_installed():
            assert status["optimizer_installed"] is False
            assert "requirements-optimizer.txt" in status["hint"]
            missing = api.post("/api/study/scheduler/optimize")
            assert missing.status_code == 503
            assert missing.json()["error"]["code"] == "optimizer_missing"
            pytest.skip("the FSRS optimizer's packages (torch, pandas) are not installed here")

        job = api.post("/api/study/scheduler/optimize")
        assert job.status_code == 202
        done = wait_job(api, job.json()["job_id"], timeout_s=600)
        assert done["status"] == "succeeded", done["error"]
        status = api.get("/api/study/scheduler").json()
        assert status["personalised"] is True
        assert status["parameters"] != status["default_parameters"]
        fit = status["fit"]
        assert (fit["reviews"], fit["cards"]) == (len(log), 150)
        assert fit["log_loss_after"] < fit["log_loss_before"]
        assert fit["rmse_after"] < fit["rmse_before"]
        # Reviews use the fitted parameters from now on: what "easy" would give a card just learnt with
        # "easy" is what they give, not what the defaults give.
        learnt = api.post(f"{base}/cards/{new_card['id']}/review", json={"rating": "easy"}).json()["card"]
        fitted_s = easy_twice(status["parameters"])
        assert abs(fitted_s - easy_twice(status["default_parameters"])) > 0.05 * fitted_s
        assert abs(learnt["intervals"]["easy"]["seconds"] - fitted_s) < 0.01 * fitted_s


def easy_twice(parameters: list[float]) -> float:
    """Seconds until a new card rated "easy", then "easy" again at once, is due."""
    now = datetime.now(UTC)
    scheduler = Scheduler(parameters=tuple(parameters), enable_fuzzing=False)
    learnt, _ = scheduler.review_card(Card(), Rating.Easy, now)
    return (scheduler.review_card(learnt, Rating.Easy, now)[0].due - now).total_seconds()
