"""Personal FSRS parameters: which scheduler reviews use, and fitting it to the user's own review log.

- Reviews use FSRS's default parameters until a fit exists, then the newest fit (fuzzing off either way,
  so the intervals shown before a rating are what the rating gives).
- A fit needs `ENOUGH_SPACED` reviews made a day or more after the card's previous review: below that,
  the package's optimizer returns the defaults unchanged (its mini-batch size), so asking earlier would
  only pretend. Once there are enough, every review checks whether `REFIT_EVERY` more have come since the
  last fit and queues one by itself; the user can also ask for one (`POST /api/study/scheduler/optimize`).
- The fit is a durable study job (kind `optimize`). The optimizer runs in a sandboxed child process
  (backend/sandbox.py) bounded by CPU time and memory, so its torch code neither blocks the server's
  threads nor keeps torch's memory in the server afterwards.
- The optimizer needs torch and pandas (the `fsrs[optimizer]` extra), which Quire does not install by
  default: torch is ~750 MB on disk (and pulls CUDA libraries from PyPI on Linux unless the CPU build is
  chosen). `requirements-optimizer.txt` has them; without them the status says so and what to install.
- Before/after: the default and the fitted parameters are both measured on the log they were fitted on
  (`fsrs_fit.measure`: log loss and RMSE of predicted against actual recall) and stored with the fit.
"""

from __future__ import annotations

import logging
from datetime import UTC
from typing import Any

from fsrs import Scheduler
from pydantic import BaseModel

from backend.errors import QuireError
from backend.sandbox import JobCrashed, LimitBroken, ProcessLimits, ProcessPool
from backend.store import fsrs_params as store
from backend.store.db import Connection, Database
from backend.study import fsrs_fit, jobs
from backend.study.errors import GenerationFailed
from backend.study.schemas import JobOut

log = logging.getLogger(__name__)

ENOUGH_SPACED = 512  # the optimizer's mini-batch: with fewer such reviews it returns the defaults
REFIT_EVERY = 512
FIT_LIMITS = ProcessLimits(memory_mb=3072, cpu_s=1800)
INSTALL_HINT = "Install the optimizer's packages (torch, pandas): pip install -r requirements-optimizer.txt"


# The fit in use as the API shows it: its measures, under the name the web app's generated types use. No
# docstring: it would become the schema's description and change those types.
class FitOut(store.FitMeasures):
    pass


class SchedulerOut(BaseModel):
    """Which FSRS parameters reviews use, and how far the review log is from a personal fit."""

    personalised: bool
    parameters: list[float]
    default_parameters: list[float]
    reviews: int
    spaced_reviews: int  # reviews a day or more after the card's previous one
    needed: int  # spaced reviews a fit needs
    optimizer_installed: bool
    hint: str | None
    fit: FitOut | None  # the fit in use, with its before/after measures
    job: JobOut | None  # the latest fitting job


def scheduler_for(db: Database, desired_retention: float = 0.9) -> Scheduler:
    """The scheduler reviews use: the newest personal parameters, else FSRS's defaults."""
    fitted = store.latest(db)
    if fitted is None:
        return Scheduler(desired_retention=desired_retention, enable_fuzzing=False)
    return Scheduler(parameters=tuple(fitted["parameters"]), desired_retention=desired_retention,
                     enable_fuzzing=False)


def status(study: jobs.StudyJobs) -> SchedulerOut:
    counts = store.log_counts(study.db)
    fitted = store.latest(study.db)
    installed = fsrs_fit.optimizer_installed()
    return SchedulerOut(
        personalised=fitted is not None,
        parameters=fitted["parameters"] if fitted else fsrs_fit.default_parameters(),
        default_parameters=fsrs_fit.default_parameters(), reviews=counts["reviews"],
        spaced_reviews=counts["spaced"], needed=ENOUGH_SPACED, optimizer_installed=installed,
        hint=None if installed else INSTALL_HINT, fit=fitted,  # validated as FitOut: the measures only
        job=study.latest_job("optimize", {}),
    )


def start(study: jobs.StudyJobs) -> JobOut:
    """Queue a fit: 409 `not_enough_reviews` below ENOUGH_SPACED, 503 `optimizer_missing` without torch."""
    spaced = store.log_counts(study.db)["spaced"]
    if spaced < ENOUGH_SPACED:
        raise QuireError("not_enough_reviews", f"Personal parameters need {ENOUGH_SPACED} reviews made a day or "
                         f"more after the card's previous one; there are {spaced}. Until then FSRS's defaults "
                         "are used.", 409)
    if not fsrs_fit.optimizer_installed():
        raise QuireError("optimizer_missing", f"The FSRS optimizer is not installed. {INSTALL_HINT}", 503)
    return study.submit("optimize", {}, needs_model=False)


def refit_if_due(study: jobs.StudyJobs) -> None:
    """After a review: queue a fit when REFIT_EVERY spaced reviews came since the last one (or the first
    ENOUGH_SPACED); nothing when the optimizer is not installed."""
    if not fsrs_fit.optimizer_installed():
        return
    counts = store.log_counts(study.db)
    fitted = store.latest(study.db)
    if counts["spaced"] >= ENOUGH_SPACED and (fitted is None or counts["reviews"] >= fitted["reviews"] + REFIT_EVERY):
        # The token names the log's size, so the same milestone never queues a second fit.
        study.submit("optimize", {}, token=f"auto-{counts['reviews'] // REFIT_EVERY}", needs_model=False)


def run(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    del params
    rows = store.review_log(drafting.db)
    entries = [(row["card"], row["rating"], row["reviewed_at"].astimezone(UTC)) for row in rows]  # fsrs wants UTC
    pool = ProcessPool(1, FIT_LIMITS, name="quire-fsrs")
    try:
        result = pool.run(fsrs_fit.fit, (entries,))
    except LimitBroken as exc:
        raise GenerationFailed(f"Fitting the parameters stopped: it {exc.reason}.", code="fit_failed") from exc
    except JobCrashed as exc:
        log.warning("the FSRS optimizer failed (%s)", exc.name)
        raise GenerationFailed(f"The FSRS optimizer failed ({exc.name}); the parameters in use are kept.",
                               code="fit_failed") from exc
    finally:
        pool.close()
    fitted = {"id": jobs.artifact_id(job_id), "job_id": job_id, "parameters": result["parameters"],
              "reviews": len(entries),
              "cards": len({entry[0] for entry in entries}),
              "log_loss_before": result["before"]["log_loss"], "log_loss_after": result["after"]["log_loss"],
              "rmse_before": result["before"]["rmse"], "rmse_after": result["after"]["rmse"]}

    def save(conn: Connection) -> str:
        store.insert(conn, fitted)
        return str(fitted["id"])

    return save
