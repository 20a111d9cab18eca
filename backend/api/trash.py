"""The trash as a whole and the refusals list: files refused at upload or URL import, until dismissed."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from pydantic import BaseModel

from backend.api.deps import LibraryDep
from backend.store.refusals import Refusal

router = APIRouter(prefix="/api", tags=["documents"])


class TrashEmptied(BaseModel):
    deleted: int


class RefusalList(BaseModel):
    refusals: list[Refusal]


class RefusalsDismissed(BaseModel):
    dismissed: int


@router.delete("/trash", response_model=TrashEmptied)
def empty_trash(library: LibraryDep) -> TrashEmptied:
    """Delete every document in the trash for good, with the originals no other version needs."""
    return TrashEmptied(deleted=library.empty_trash())


@router.get("/refusals", response_model=RefusalList)
def list_refusals(library: LibraryDep) -> RefusalList:
    return RefusalList(refusals=library.list_refusals())


@router.delete("/refusals/{refusal_id}", response_model=RefusalsDismissed)
def dismiss_refusal(refusal_id: UUID, library: LibraryDep) -> RefusalsDismissed:
    return RefusalsDismissed(dismissed=library.dismiss_refusal(refusal_id))


@router.delete("/refusals", response_model=RefusalsDismissed)
def dismiss_all_refusals(library: LibraryDep) -> RefusalsDismissed:
    return RefusalsDismissed(dismissed=library.dismiss_refusal(None))
