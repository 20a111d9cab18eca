"""The study loop's routes under `/api/study`: practising weak spots (the passages behind recent mistakes
and lapsed cards, as a quiz) and the FSRS scheduler's personal parameters."""

from __future__ import annotations

from fastapi import APIRouter, status

from backend.api.deps import ContextDep
from backend.study import fsrs_tuning, mistakes
from backend.study.fsrs_tuning import SchedulerOut
from backend.study.mistakes import WeakSpotsOut, WeakSpotsRequest
from backend.study.schemas import GenerateRequest, JobOut

router = APIRouter()


@router.post("/weak-spots/count", tags=["study: quizzes"])
def count_weak_spots(body: GenerateRequest, ctx: ContextDep) -> WeakSpotsOut:
    """How many passages a weak-spots quiz would practise (0: nothing to practise), within `scope`."""
    return mistakes.weak_spots(ctx, body)


@router.post("/weak-spots", status_code=status.HTTP_202_ACCEPTED, tags=["study: quizzes"])
def practise_weak_spots(body: WeakSpotsRequest, ctx: ContextDep) -> JobOut:
    """Queue a quiz on the passages behind recent mistakes and lapsed cards (422 `no_weak_spots` if none)."""
    return mistakes.start(ctx, body)


@router.get("/scheduler", tags=["study: flashcards"])
def scheduler(ctx: ContextDep) -> SchedulerOut:
    """The FSRS parameters reviews use (default or fitted to your reviews), with the fit's before/after."""
    return fsrs_tuning.status(ctx)


@router.post("/scheduler/optimize", status_code=status.HTTP_202_ACCEPTED, tags=["study: flashcards"])
def optimize_scheduler(ctx: ContextDep) -> JobOut:
    """Fit the FSRS parameters to your review log (409 `not_enough_reviews`, 503 `optimizer_missing`)."""
    return fsrs_tuning.start(ctx)
