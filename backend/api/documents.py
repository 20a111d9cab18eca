"""Documents: upload (streamed, with name-conflict handling), import a URL, list, inspect, recategorise,
move to the trash and back, delete for good, retry a failed one, open the original."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Query, Request, status
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from backend.api.deps import LibraryDep, SettingsDep, UploadsDep, UrlImporterDep
from backend.api.upload_stream import receive_multipart
from backend.errors import ErrorCode, QuireError
from backend.ingest import files
from backend.ingest.library import LibraryDocument, OriginalFile
from backend.ingest.uploads import (
    Candidate,
    NameConflictDetails,
    UploadOutcome,
    clean_category,
    described,
)
from backend.store.documents import CategoryRow
from backend.store.kinds import DocKind, DocumentStatus, PageWarningRow
from backend.store.registration import OnConflict

router = APIRouter(prefix="/api", tags=["documents"])

_ON_CONFLICT = ("ask", "replace", "keep_both")


class DocumentOut(BaseModel):
    id: str
    filename: str
    category: str | None
    kind: DocKind | None
    mime: str | None
    size_bytes: int | None
    pages: int | None
    language: str | None = Field(None, description="The language it was read in, where the reading decided "
                                                   "one: a recording's speech (en, de)")
    status: DocumentStatus
    current_version: int  # 0 until a first version is stored
    versions: int
    trashed_at: datetime | None
    source_kind: Literal["document", "note"] = "document"  # note: written in Quire, edited there
    error: str | None
    warnings: list[str]
    page_warnings: list[PageWarningRow] = []
    source_url: str | None
    blocks: int
    embedded: int
    embedded_fraction: float
    read_as: str | None = None  # set when the content, not the name, decided the kind
    last_workflow_id: str | None
    created_at: datetime
    updated_at: datetime


class AcceptedDocument(BaseModel):
    id: str
    filename: str
    status: DocumentStatus
    kind: DocKind = Field(description="What the file is read as, decided by its content")
    read_as: str | None = Field(None, description="Set when the content, not the name, decided the kind, "
                                                  "e.g. \"Read as a Word document: its name says .doc.\"")


class RejectedUpload(BaseModel):
    filename: str
    code: ErrorCode
    message: str


class UploadAccepted(BaseModel):
    documents: list[AcceptedDocument]
    workflow_id: str | None
    rejected: list[RejectedUpload] = []


class UrlImport(BaseModel):
    url: str = Field(min_length=1, max_length=2048)
    category: str | None = Field(None, max_length=200)


class CategoryUpdate(BaseModel):
    category: str | None = Field(max_length=200)


def _accepted(outcome: UploadOutcome) -> UploadAccepted:
    return UploadAccepted.model_validate(
        {"documents": [asdict(doc) for doc in outcome.documents], "workflow_id": outcome.workflow_id,
         "rejected": outcome.rejected}
    )


_UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"multipart/form-data": {"schema": {
            "type": "object",
            "required": ["files"],
            "properties": {
                "files": {"type": "array", "items": {"type": "string", "format": "binary"}},
                "category": {"type": "string"},
                "on_conflict": {"type": "string", "enum": list(_ON_CONFLICT), "default": "ask"},
            },
        }}},
    }
}


def _on_conflict(raw: str | None) -> OnConflict:
    choice = (raw or "ask").strip().lower()
    if choice == "replace":
        return "replace"
    if choice == "keep_both":
        return "keep_both"
    if choice != "ask":
        raise QuireError("invalid_on_conflict", "on_conflict must be one of ask, replace, keep_both.", 422)
    return "ask"


class NameConflictBody(BaseModel):
    code: Literal["name_conflict"]
    message: str
    details: NameConflictDetails


class NameConflictError(BaseModel):
    """409 of an upload whose names are taken in the category by other files (nothing was stored)."""

    error: NameConflictBody


@router.post("/documents", status_code=status.HTTP_202_ACCEPTED, response_model=UploadAccepted,
             openapi_extra=_UPLOAD_BODY,
             responses={409: {"model": NameConflictError, "description": "`name_conflict` (with `on_conflict=ask`)"}})
async def upload_documents(request: Request, settings: SettingsDep, uploads: UploadsDep,
                           on_conflict: Annotated[OnConflict | None, Query()] = None) -> UploadAccepted:
    """Upload files (multipart `files`, optional `category`, `on_conflict` as a form field or query parameter).

    A name already used in the category by a different file: `ask` (default) answers 409 `name_conflict`
    with the existing documents and stores nothing; `replace` adds a new version; `keep_both` stores the
    file as `Name (2).ext`."""
    form = await receive_multipart(request, files.pending_dir(settings.docs_dir), settings.max_upload_bytes,
                                   settings.max_upload_request_bytes)
    try:
        category = clean_category(form.fields.get("category"))
        choice = _on_conflict(form.fields.get("on_conflict") or on_conflict)
        candidates = [Candidate(f.filename, f.path, f.size, f.sha256, f.too_large) for f in form.files]
        outcome = await run_in_threadpool(uploads.accept, candidates, category, on_conflict=choice)
    finally:
        form.discard()  # accepted files were moved away already; this removes only leftovers
    return _accepted(outcome)


@router.post("/documents/url", status_code=status.HTTP_202_ACCEPTED, response_model=UploadAccepted)
def import_document_url(body: UrlImport, importer: UrlImporterDep) -> UploadAccepted:
    """Fetch a public web page (or file) and ingest it like an upload."""
    return _accepted(importer.import_url(body.url, clean_category(body.category)))


@router.get("/documents", response_model=list[DocumentOut])
def list_documents(library: LibraryDep, status: DocumentStatus | None = None,
                   category: str | None = None) -> list[LibraryDocument]:
    """Documents not in the trash (`?status=trashed` lists the trash)."""
    return library.list_documents(status, category)


@router.get("/documents/{document_id}", response_model=DocumentOut)
def get_document(document_id: UUID, library: LibraryDep) -> LibraryDocument:
    return library.get_document(document_id, with_trashed=True)


@router.patch("/documents/{document_id}", response_model=DocumentOut)
def update_document(document_id: UUID, body: CategoryUpdate, library: LibraryDep) -> LibraryDocument:
    """Change a document's category (metadata only: nothing is re-extracted or re-embedded)."""
    return library.set_category(document_id, clean_category(body.category))


@router.delete("/documents/{document_id}", response_model=DocumentOut,
               responses={204: {"description": "With `permanent=true`: deleted for good"}})
def delete_document(document_id: UUID, library: LibraryDep, permanent: bool = False) -> Response | LibraryDocument:
    """Move to the trash (200 with the document); `?permanent=true` deletes a trashed document for good (204)."""
    if permanent:
        library.purge_document(document_id)
        return Response(status_code=status.HTTP_204_NO_CONTENT)
    return library.trash_document(document_id)


@router.post("/documents/{document_id}/restore", response_model=DocumentOut)
def restore_document(document_id: UUID, library: LibraryDep) -> LibraryDocument:
    """Out of the trash and searchable again, without re-ingesting (renamed `Name (n).ext` if taken)."""
    return library.restore_document(document_id)


@router.post("/documents/{document_id}/retry", status_code=status.HTTP_202_ACCEPTED, response_model=UploadAccepted)
def retry_document(document_id: UUID, library: LibraryDep) -> UploadAccepted:
    """Ingest a failed document again from its stored original."""
    run = library.retry_document(document_id)
    return UploadAccepted.model_validate({"documents": [asdict(doc) for doc in described(run.documents)],
                                          "workflow_id": run.workflow_id})


def file_response(original: OriginalFile) -> FileResponse:
    """The original, streamed: PDFs inline (for the browser's viewer), everything else as a download."""
    return FileResponse(
        original.path,
        media_type=original.mime,
        filename=original.filename,
        content_disposition_type="inline" if original.inline else "attachment",
        headers={"Content-Security-Policy": "sandbox", "Cache-Control": "private, no-cache"},
    )


@router.get("/documents/{document_id}/file", response_class=FileResponse)
def document_file(document_id: UUID, library: LibraryDep) -> FileResponse:
    """The current version's original (any Quire process on the database serves it)."""
    return file_response(library.original_file(document_id))


@router.get("/categories", response_model=list[CategoryRow])
def list_categories(library: LibraryDep) -> list[CategoryRow]:
    return library.list_categories()
