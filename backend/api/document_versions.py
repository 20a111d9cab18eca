"""A document's versions: list, make an earlier one current, delete one, download one's original."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path
from fastapi.responses import FileResponse
from pydantic import BaseModel

from backend.api.deps import LibraryDep
from backend.api.documents import DocumentOut, file_response
from backend.ingest.library import LibraryDocument
from backend.store.versions import VersionRow

router = APIRouter(prefix="/api/documents/{document_id}/versions", tags=["documents"])

VersionNumber = Annotated[int, Path(ge=1, le=1_000_000)]


class VersionList(BaseModel):
    versions: list[VersionRow]


class VersionDeleted(BaseModel):
    deleted: int


@router.get("", response_model=VersionList)
def list_versions(document_id: UUID, library: LibraryDep) -> VersionList:
    """Newest first; `current` marks the one search and chat use."""
    rows = library.list_versions(document_id)
    return VersionList(versions=rows)


@router.post("/{version}/restore", response_model=DocumentOut)
def restore_version(document_id: UUID, version: VersionNumber, library: LibraryDep) -> LibraryDocument:
    """Make this version current; the one it replaces stays in the list."""
    return library.restore_version(document_id, version)


@router.delete("/{version}", response_model=VersionDeleted)
def delete_version(document_id: UUID, version: VersionNumber, library: LibraryDep) -> VersionDeleted:
    """Delete a version other than the current one, with its blocks and (if nothing else needs it) its file."""
    library.delete_version(document_id, version)
    return VersionDeleted(deleted=version)


@router.get("/{version}/file", response_class=FileResponse)
def version_file(document_id: UUID, version: VersionNumber, library: LibraryDep) -> FileResponse:
    return file_response(library.original_file(document_id, version))
