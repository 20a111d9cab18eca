"""Accepting files into the vault: validate each received file by name and content, settle name
conflicts, store the accepted originals (Postgres first, then this process's cache), register the run
and start its ingestion workflow.

A refused file is reported with its reason (and recorded, so the library lists it after a reload)
while the others proceed. With `on_conflict="ask"`, a name taken by other bytes in the same category
answers 409 `name_conflict` before anything is stored. Nothing already stored is touched until a new
version has been extracted and swapped in by the workflow. `Uploads` is built once per process.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel

from backend.errors import QuireError
from backend.ingest import files
from backend.ingest.types import RejectedFile
from backend.ingest.validate import detect_kind, has_invisible, read_as, refused_name, sanitise_filename
from backend.ingest.workflow import IngestRuns
from backend.store import originals, refusals
from backend.store import registration as store
from backend.store.db import Database
from backend.store.kinds import DocKind, DocumentStatus
from backend.store.registration import OnConflict

MAX_CATEGORY_CHARS = 60


@dataclass(frozen=True)
class Candidate:
    """A file received by the API, not yet validated."""

    filename: str
    path: Path
    size: int
    sha256: str
    too_large: bool = False


@dataclass(frozen=True)
class AcceptedDocument:
    """A document an upload (or URL import, or retry) is ingesting, and how its file is read."""

    id: str
    filename: str
    status: DocumentStatus
    kind: DocKind
    read_as: str | None  # set when the content, not the name, decided the kind ("Read as a PDF: ...")


def described(documents: list[store.RunDocument]) -> list[AcceptedDocument]:
    return [AcceptedDocument(doc.id, doc.filename, doc.status, doc.kind, read_as(doc.filename, doc.kind))
            for doc in documents]


@dataclass
class UploadOutcome:
    workflow_id: str | None
    documents: list[AcceptedDocument]
    rejected: list[dict[str, str]] = field(default_factory=list)


def clean_category(raw: str | None) -> str | None:
    if raw is None:
        return None
    category = " ".join(raw.split())
    if not category:
        return None
    if len(category) > MAX_CATEGORY_CHARS or has_invisible(category):
        raise QuireError("invalid_category", f"A category is at most {MAX_CATEGORY_CHARS} printable characters.", 422)
    return category


class ExistingDocumentOut(BaseModel):
    """The document an upload's name collides with."""

    id: str
    filename: str
    category: str | None
    size_bytes: int | None
    updated_at: datetime
    status: DocumentStatus


class NameConflictOut(BaseModel):
    filename: str  # the uploaded file's name
    existing: ExistingDocumentOut


class NameConflictDetails(BaseModel):
    """`details` of a 409 `name_conflict`: one entry per uploaded file whose name is taken."""

    conflicts: list[NameConflictOut]


def conflict_error(conflicts: list[store.NameConflict]) -> QuireError:
    names = ", ".join(c.filename for c in conflicts)
    details = NameConflictDetails(conflicts=[
        NameConflictOut(filename=c.filename, existing=ExistingDocumentOut.model_validate(asdict(c.existing)))
        for c in conflicts
    ])
    return QuireError(
        "name_conflict",
        f"A different file with this name is already in this category: {names}. Replace it or keep both.",
        409,
        details=details.model_dump(mode="json"),
    )


class Uploads:
    """Accepts files into the vault: the database, this process's cache of originals (`docs_dir`), the
    per-file size limit, and the ingestion runs it starts."""

    def __init__(self, db: Database, docs_dir: Path, max_upload_mb: int, runs: IngestRuns) -> None:
        self.db = db
        self.docs_dir = docs_dir
        self.max_upload_mb = max_upload_mb
        self.runs = runs

    def _validate(self, candidate: Candidate) -> store.NewIngestItem:
        limit_mb = self.max_upload_mb
        if candidate.too_large:
            raise RejectedFile("too_large", f"The file is larger than the {limit_mb} MB limit.", 413)
        name = sanitise_filename(candidate.filename)
        kind = detect_kind(candidate.path, name)
        return store.NewIngestItem(name, candidate.sha256, candidate.size, kind, files.mime_for(kind))

    def _screen(self, candidates: list[Candidate]) -> tuple[list[tuple[store.NewIngestItem, Path]],
                                                            list[refusals.NewRefusal], RejectedFile | None]:
        accepted: list[tuple[store.NewIngestItem, Path]] = []
        refused: list[refusals.NewRefusal] = []
        first_error: RejectedFile | None = None
        for candidate in candidates:
            try:
                item = self._validate(candidate)
            except RejectedFile as exc:
                candidate.path.unlink(missing_ok=True)
                refused.append(refusals.NewRefusal(refused_name(candidate.filename), exc.code, exc.message))
                first_error = first_error or exc
                continue
            if any(other.filename.lower() == item.filename.lower() for other, _ in accepted):
                candidate.path.unlink(missing_ok=True)
                refused.append(refusals.NewRefusal(item.filename, "duplicate_name",
                                                   "Another file in this upload has the same name."))
                continue
            accepted.append((item, candidate.path))
        return accepted, refused, first_error

    def _register(self, accepted: list[tuple[store.NewIngestItem, Path]], category: str | None,
                  on_conflict: OnConflict, source: str, source_url: str | None) -> store.RegisteredRun:
        """Store the originals (each in its own transaction, committed before anything refers to it), then
        register the run; an original purged by another request in between is stored again."""
        items = [item for item, _ in accepted]
        paths = {item.sha256: path for item, path in accepted}
        pending = set(paths)
        for _ in range(3):
            for sha in pending:
                cached = files.cache_path(self.docs_dir, sha)
                source_path = paths[sha] if paths[sha].exists() else cached
                files.store_original(self.db, self.docs_dir, source_path, sha)
            try:
                return store.register_ingest(self.db, items, category, source, on_conflict=on_conflict,
                                             source_url=source_url)
            except store.OriginalsMissing as exc:
                pending = exc.shas
            except store.ConflictsFound as exc:  # another upload took the name after the first check
                files.remove_cached(self.docs_dir, originals.drop_if_unreferenced(self.db, sorted(paths)))
                raise conflict_error(exc.conflicts) from exc
        raise QuireError("busy", "The upload collided with deletions of the same files; send it again.", 409)

    def accept(self, candidates: list[Candidate], category: str | None, source: str = "upload",
               source_url: str | None = None, on_conflict: OnConflict = "ask") -> UploadOutcome:
        accepted, refused, first_error = self._screen(candidates)
        try:
            if accepted and source_url is None and on_conflict == "ask":
                conflicts = store.find_conflicts(self.db, [item for item, _ in accepted], category, on_conflict)
                if conflicts:  # nothing stored, nothing recorded: the client asks, then sends the files again
                    raise conflict_error(conflicts)
            refusals.record(self.db, refused, category)
            rejected = [{"filename": r.filename, "code": r.code, "message": r.message} for r in refused]
            if not accepted:
                if first_error is None:
                    raise QuireError("no_files", "No files were uploaded.", 400, details=rejected or None)
                raise QuireError(first_error.code, first_error.message, first_error.status, details=rejected)
            run = self._register(accepted, category, on_conflict, source, source_url)
        finally:
            for _, path in accepted:  # moved into the cache when stored; whatever is left goes
                path.unlink(missing_ok=True)
        workflow_id = self.runs.start(run.workflow_id) if run.workflow_id else None
        return UploadOutcome(workflow_id, described(run.documents), rejected)
