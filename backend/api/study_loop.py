"""The study loop's routes under `/api/study`: practising weak spots (the passages behind recent mistakes
and lapsed cards, as a quiz), the FSRS scheduler's personal parameters, items whose source changed, and
card drafts from a passage."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from backend.api.deps import DatabaseDep, DraftingDep, StudyJobsDep
from backend.study import drafts, fsrs_tuning, mistakes
from backend.study import source_changes as changes
from backend.study.drafts import CardDraftIn, CardDraftOut
from backend.study.fsrs_tuning import SchedulerOut
from backend.study.mistakes import WeakSpotsOut, WeakSpotsRequest
from backend.study.schemas import GenerateRequest, JobOut
from backend.study.source_changes import ChangesOut, ItemRef, ResolveIn, UpdateDraftOut

router = APIRouter()


@router.post("/weak-spots/count", tags=["study: quizzes"])
def count_weak_spots(body: GenerateRequest, db: DatabaseDep) -> WeakSpotsOut:
    """How many passages a weak-spots quiz would practise (0: nothing to practise), within `scope`."""
    return mistakes.weak_spots(db, body)


@router.post("/weak-spots", status_code=status.HTTP_202_ACCEPTED, tags=["study: quizzes"])
def practise_weak_spots(body: WeakSpotsRequest, study: StudyJobsDep) -> JobOut:
    """Queue a quiz on the passages behind recent mistakes and lapsed cards (422 `no_weak_spots` if none)."""
    return mistakes.start(study, body)


@router.get("/scheduler", tags=["study: flashcards"])
def scheduler(study: StudyJobsDep) -> SchedulerOut:
    """The FSRS parameters reviews use (default or fitted to your reviews), with the fit's before/after."""
    return fsrs_tuning.status(study)


@router.post("/scheduler/optimize", status_code=status.HTTP_202_ACCEPTED, tags=["study: flashcards"])
def optimize_scheduler(study: StudyJobsDep) -> JobOut:
    """Fit the FSRS parameters to your review log (409 `not_enough_reviews`, 503 `optimizer_missing`)."""
    return fsrs_tuning.start(study)


@router.get("/changes", tags=["study: sources changed"])
def source_changes(db: DatabaseDep) -> ChangesOut:
    """Cards and quiz questions whose cited passage changed in a newer version of its document, each with
    the old and the new passage (none: removed), until the user keeps, updates or retires it."""
    return changes.list_changes(db)


@router.post("/changes/draft", tags=["study: sources changed"])
def draft_change(body: ItemRef, drafting: DraftingDep) -> UpdateDraftOut:
    """The model's rewrite of a flagged item for its new passage; nothing is saved."""
    return changes.draft_update(drafting, body)


@router.post("/changes/resolve", status_code=status.HTTP_204_NO_CONTENT, tags=["study: sources changed"])
def resolve_change(body: ResolveIn, db: DatabaseDep) -> Response:
    """Keep the item (it cites the new passage), update it (with the edit sent), or retire it."""
    changes.resolve(db, body)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/drafts/card", tags=["study: flashcards"])
def draft_card(body: CardDraftIn, drafting: DraftingDep) -> CardDraftOut:
    """The model's draft of one card (basic, typed or cloze) from a passage, to edit and then save; nothing
    is stored. 503 `model_unavailable` without a model, 502 when its answer was unusable."""
    return drafts.card_draft(drafting, body)
