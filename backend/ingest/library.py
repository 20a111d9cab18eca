"""The vault's documents as the user sees them: list, inspect, recategorise, the trash (delete, restore,
delete for good, empty), versions (list, restore, delete), Retry of a failed document, refusals and
the original files.

Cached copies of deleted originals are removed only after the database transaction that deleted them
committed; any process serves any original through its read-through cache. `Library` is built once per
process over the services it uses.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

from backend.errors import NotFound, QuireError, found
from backend.ingest import files
from backend.ingest.formats import FORMATS
from backend.ingest.validate import read_as
from backend.ingest.workflow import IngestRuns
from backend.retrieval.service import SearchService
from backend.store import documents as store
from backend.store import originals, refusals, registration, versions
from backend.store.db import Database
from backend.store.kinds import DocumentStatus

log = logging.getLogger(__name__)


class LibraryDocument(store.DocumentRow):
    """A document as the library shows it: its row and the share of its live blocks that have a vector."""

    embedded_fraction: float
    read_as: str | None  # set when the content, not the name, decided the kind (validate.read_as)


def _with_fraction(row: store.DocumentRow) -> LibraryDocument:
    blocks = row["blocks"]
    return {**row, "embedded_fraction": round(row["embedded"] / blocks, 4) if blocks else 0.0,
            "read_as": read_as(row["filename"], row["kind"])}


@dataclass(frozen=True)
class StartedRun:
    workflow_id: str | None
    documents: list[registration.RunDocument]


@dataclass(frozen=True)
class OriginalFile:
    path: Path
    filename: str
    mime: str
    inline: bool


class Library:
    """The vault's documents over the database, this process's cache of originals (`docs_dir`), the index
    (told of every change) and the ingestion runs (a retry or a restored version may start one)."""

    def __init__(self, db: Database, docs_dir: Path, search: SearchService, runs: IngestRuns) -> None:
        self.db = db
        self.docs_dir = docs_dir
        self.search = search
        self.runs = runs

    @property
    def embed_model(self) -> str:
        """The model whose vectors count as a document's embedded passages: the one searches use."""
        return self.search.embed_model

    def list_documents(self, status: DocumentStatus | None, category: str | None) -> list[LibraryDocument]:
        rows = store.list_documents(self.db, self.embed_model, status=status, category=category)
        return [_with_fraction(row) for row in rows]

    def get_document(self, document_id: UUID, *, with_trashed: bool = False) -> LibraryDocument:
        row = store.get_document(self.db, document_id, self.embed_model, with_trashed=with_trashed)
        if row is None:
            raise NotFound("Document", str(document_id))
        return _with_fraction(row)

    def set_category(self, document_id: UUID, category: str | None) -> LibraryDocument:
        outcome = store.set_category(self.db, document_id, category)
        if outcome == "not_found":
            raise NotFound("Document", str(document_id))
        if outcome == "name_taken":
            raise QuireError("name_taken", "A document with this name is already in that category.", 409)
        self.search.notify([str(document_id)])
        return self.get_document(document_id)

    def trash_document(self, document_id: UUID) -> LibraryDocument:
        """Move to the trash: gone from search and chat at once; restorable without re-ingesting."""
        if store.trash_document(self.db, document_id):
            self.search.notify([str(document_id)])
        return self.get_document(document_id, with_trashed=True)  # already in the trash: the same answer

    def restore_document(self, document_id: UUID) -> LibraryDocument:
        restored = store.restore_document(self.db, document_id)
        if restored.outcome == "not_found":
            raise NotFound("Document", str(document_id))
        if restored.outcome == "not_trashed":
            raise QuireError("not_trashed", "This document is not in the trash.", 409)
        self.search.notify([str(document_id)])
        self.runs.backfill.start_if_missing()  # blocks made live again may carry an older model's vectors
        return self.get_document(document_id)

    def _forget_files(self, shas: list[str]) -> None:
        files.remove_cached(self.docs_dir, shas)

    def purge_document(self, document_id: UUID) -> None:
        outcome, shas = store.purge_document(self.db, document_id)
        if outcome == "not_found":
            raise NotFound("Document", str(document_id))
        if outcome == "not_trashed":
            raise QuireError("not_trashed", "Only a document in the trash can be deleted for good.", 409)
        self._forget_files(shas)

    def empty_trash(self, older_than_days: float | None = None) -> int:
        deleted, shas = store.empty_trash(self.db, older_than_days)
        self._forget_files(shas)
        return deleted

    def list_versions(self, document_id: UUID) -> list[versions.VersionRow]:
        return found(versions.list_versions(self.db, document_id), "Document", str(document_id))

    def restore_version(self, document_id: UUID, version: int) -> LibraryDocument:
        """Make an earlier version current: its kept blocks go live in one transaction (no ingestion);
        a version whose blocks are gone is ingested again from its original."""
        outcome = versions.restore_version(self.db, document_id, version)
        if outcome in ("no_document", "no_version"):
            raise NotFound("Version", f"{document_id}/{version}")
        if outcome == "busy":
            raise QuireError("busy", "This document is being ingested; restore a version when it is ready.", 409)
        if outcome == "needs_ingest":
            source = registration.version_source(self.db, document_id, version)
            assert source is not None
            self._reingest(document_id, source, "restore", version)
        elif outcome == "restored":
            self.search.notify([str(document_id)])
            self.runs.backfill.start_if_missing()
        return self.get_document(document_id)

    def delete_version(self, document_id: UUID, version: int) -> None:
        outcome, shas = versions.delete_version(self.db, document_id, version)
        if outcome == "no_version":
            raise NotFound("Version", f"{document_id}/{version}")
        if outcome == "current":
            raise QuireError("current_version", "The current version cannot be deleted; restore another first.", 409)
        self._forget_files(shas)

    def retry_document(self, document_id: UUID) -> StartedRun:
        """Ingest a failed document again from its stored original, under a fresh workflow id."""
        row = self.get_document(document_id)
        if row["status"] != "failed":
            raise QuireError("not_failed", "Only a failed document can be retried.", 409)
        source = registration.retry_source(self.db, document_id)
        if source is None:
            raise QuireError("original_missing", "This document's file is not stored; upload it again.", 409)
        return self._reingest(document_id, source, "retry", None)

    def _reingest(self, document_id: UUID, source: registration.RetrySource, origin: str,
                  target_version: int | None) -> StartedRun:
        try:
            run = registration.register_reingest(self.db, document_id, source, origin, target_version)
        except registration.OriginalsMissing as exc:
            raise QuireError("original_missing", "This document's file is not stored; upload it again.", 409) from exc
        except LookupError as exc:
            raise NotFound("Document", str(document_id)) from exc
        workflow_id = self.runs.start(run.workflow_id) if run.workflow_id else None
        return StartedRun(workflow_id, run.documents)

    def list_refusals(self) -> list[refusals.Refusal]:
        return refusals.open_refusals(self.db)

    def dismiss_refusal(self, refusal_id: UUID | None) -> int:
        dismissed = refusals.dismiss(self.db, refusal_id)
        if refusal_id is not None and not dismissed:
            raise NotFound("Refusal", str(refusal_id))
        return dismissed

    def original_file(self, document_id: UUID, version: int | None = None) -> OriginalFile:
        """A version's original (the current one by default), from this process's cache, fetched from
        Postgres first if this process has not seen it yet."""
        self.get_document(document_id, with_trashed=True)  # 404 for unknown documents
        found = versions.version_file(self.db, document_id, version)
        if found is None:
            if version is not None:
                raise NotFound("Version", f"{document_id}/{version}")
            raise QuireError("not_ready", "This document's file is not stored yet; try again when it is ready.", 409)
        try:
            path = files.materialise(self.db, self.docs_dir, found.sha256)
        except files.OriginalMissing as exc:
            raise QuireError("file_missing", "The original file is missing from the vault.", 404) from exc
        # PDFs open in the browser's own viewer (citations link to #page=N); everything else, HTML above all,
        # is a download so that uploaded markup never runs in Quire's origin (formats say which they are).
        inline = found.kind is not None and found.kind in FORMATS and FORMATS[found.kind].inline
        mime = "application/pdf" if inline else (found.mime or "application/octet-stream")
        if found.kind == "html":
            mime = "text/plain; charset=utf-8"
        return OriginalFile(path, found.filename, mime, inline)

    def maintain_originals(self) -> None:
        """Startup: adopt a pre-0009 vault's files, drop orphaned originals and stale cache entries."""
        files.adopt_legacy_files(self.db, self.docs_dir)
        files.sweep_cache(self.db, self.docs_dir)
        orphans = originals.sweep_orphans(self.db, older_than_s=24 * 3600)
        files.remove_cached(self.docs_dir, orphans)

    def list_categories(self) -> list[store.CategoryRow]:
        return store.list_categories(self.db)
