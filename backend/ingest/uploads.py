"""Accepting files into the vault: validate each received file by name and content, move the accepted
ones to the pending area, register the run and start its ingestion workflow.

A rejected file is reported with its reason while the others proceed; nothing already stored is
touched until a new version has been extracted and swapped in by the workflow.
"""

from __future__ import annotations

import mimetypes
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from backend.context import AppContext
from backend.errors import QuireError
from backend.ingest import files
from backend.ingest.types import RejectedFile
from backend.ingest.validate import detect_kind, sanitise_filename
from backend.ingest.workflow import start_ingest
from backend.store import ingest as store

MAX_CATEGORY_CHARS = 60
_MIME_BY_KIND = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "csv": "text/csv",
    "md": "text/markdown",
    "txt": "text/plain",
    "html": "text/html",
}


@dataclass(frozen=True)
class Candidate:
    """A file received by the API, not yet validated."""

    filename: str
    path: Path
    size: int
    sha256: str
    too_large: bool = False


@dataclass
class UploadOutcome:
    workflow_id: str | None
    documents: list[dict[str, Any]]
    rejected: list[dict[str, str]] = field(default_factory=list)


def clean_category(raw: str | None) -> str | None:
    if raw is None:
        return None
    category = " ".join(raw.split())
    if not category:
        return None
    if len(category) > MAX_CATEGORY_CHARS or any(ord(ch) < 32 for ch in category):
        raise QuireError("invalid_category", f"A category is at most {MAX_CATEGORY_CHARS} printable characters.", 422)
    return category


def mime_for(kind: str) -> str:
    return _MIME_BY_KIND.get(kind) or mimetypes.guess_type(f"x.{kind}")[0] or "application/octet-stream"


def _accept(ctx: AppContext, candidate: Candidate) -> store.NewIngestItem:
    limit_mb = ctx.settings.max_upload_mb
    if candidate.too_large:
        raise RejectedFile("too_large", f"The file is larger than the {limit_mb} MB limit.", 413)
    name = sanitise_filename(candidate.filename)
    kind = detect_kind(candidate.path, name)
    target = files.new_pending_path(ctx.settings.docs_dir)
    os.replace(candidate.path, target)
    return store.NewIngestItem(name, str(target), candidate.sha256, candidate.size, kind, mime_for(kind))


def accept_files(ctx: AppContext, candidates: list[Candidate], category: str | None, source: str = "upload",
                 source_url: str | None = None) -> UploadOutcome:
    accepted: list[store.NewIngestItem] = []
    rejected: list[dict[str, str]] = []
    first_error: RejectedFile | None = None
    for candidate in candidates:
        try:
            item = _accept(ctx, candidate)
        except RejectedFile as exc:
            candidate.path.unlink(missing_ok=True)
            rejected.append({"filename": candidate.filename, "code": exc.code, "message": exc.message})
            first_error = first_error or exc
            continue
        if any(other.filename.lower() == item.filename.lower() for other in accepted):
            rejected.append({"filename": candidate.filename, "code": "duplicate_name",
                             "message": "Another file in this upload has the same name."})
            continue
        accepted.append(item)
    if not accepted:
        if first_error is None:
            raise QuireError("no_files", "No files were uploaded.", 400, details=rejected or None)
        raise QuireError(first_error.code, first_error.message, first_error.status, details=rejected)
    run = store.register_ingest(ctx.db, accepted, category, source, source_url)
    ctx.search.notify(run.recategorised)
    if not run.created:  # a double submit: the first run already owns its own copies of these files
        for item in accepted:
            Path(item.pending_path).unlink(missing_ok=True)
    workflow_id = start_ingest(run.workflow_id, ctx.settings.embed_batch_size)
    return UploadOutcome(workflow_id, run.documents, rejected)
