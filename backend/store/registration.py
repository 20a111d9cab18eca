"""SQL that turns accepted files into an ingestion run: which document each file belongs to (identity),
name conflicts, and the run with its items — all in one transaction.

Identity: a document is its id. An upload targets the document of the same name in the same category
(not in the trash); a URL import targets the document with the same `source_url`. Same bytes as the
document's current or in-flight version: change detection (unchanged) or attaching to the run already
ingesting them; as a failed document's last try: ingested again. Different bytes: a conflict, settled by
`on_conflict` (ask → `ConflictsFound`).

The workflow id is derived from what the request would do, so identical requests racing each other
insert the same `ingest_runs` row: `ON CONFLICT DO NOTHING` lets one win and the others attach to it.
A run whose documents have moved on (finished, trashed) is never attached to; the next attempt number
gives a fresh id.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePath
from typing import Literal

import psycopg

from backend.store import originals
from backend.store.db import Connection, Database, first_row
from backend.store.kinds import DocKind, DocumentStatus

OnConflict = Literal["ask", "replace", "keep_both"]
_MAX_ATTEMPTS = 1000
_RACE_RETRIES = 5


@dataclass(frozen=True)
class NewIngestItem:
    filename: str
    sha256: str
    size_bytes: int
    kind: DocKind
    mime: str


@dataclass(frozen=True)
class ExistingDocument:
    id: str
    filename: str
    category: str | None
    size_bytes: int | None
    updated_at: datetime
    status: DocumentStatus


@dataclass(frozen=True)
class NameConflict:
    filename: str
    existing: ExistingDocument


class OriginalsMissing(Exception):
    """Originals the request points at were deleted meanwhile (their last document purged): store them again."""

    def __init__(self, shas: set[str]) -> None:
        super().__init__(", ".join(sorted(shas)))
        self.shas = shas


class ConflictsFound(Exception):
    def __init__(self, conflicts: list[NameConflict]) -> None:
        super().__init__(f"{len(conflicts)} name conflicts")
        self.conflicts = conflicts


@dataclass(frozen=True)
class RunDocument:
    id: str
    filename: str
    status: DocumentStatus
    kind: DocKind  # what the file is read as (by content; the name may say otherwise)


@dataclass(frozen=True)
class RegisteredRun:
    workflow_id: str | None
    documents: list[RunDocument]
    created: bool


@dataclass(frozen=True)
class _Doc:
    id: uuid.UUID
    filename: str
    category: str | None
    status: DocumentStatus
    sha256: str | None
    current_version: int | None
    generation: int
    size_bytes: int | None
    updated_at: datetime
    last_workflow_id: str | None
    inflight_sha: str | None
    failed_sha: str | None  # the bytes a failed document's last run tried (cancelled, or unreadable)


@dataclass(frozen=True)
class _Target:
    item: NewIngestItem
    doc: _Doc | None  # None: a new document named `filename`
    filename: str
    target_version: int | None = None

    def key(self, category: str | None) -> list[object]:
        if self.doc is None:
            return ["new", (category or "").lower(), self.filename.lower(), self.item.sha256]
        return ["doc", str(self.doc.id), self.doc.current_version, self.doc.generation, self.item.sha256,
                self.target_version]


_DOC_COLUMNS = ("id, filename, category, status, sha256, current_version, generation, size_bytes, updated_at,"
                " last_workflow_id")


def _doc(conn: Connection, where: str, params: tuple[object, ...], lock: bool) -> _Doc | None:
    row = conn.execute(
        f"SELECT {_DOC_COLUMNS} FROM documents WHERE {where} AND status <> 'trashed'"  # noqa: S608 - fixed text
        f" ORDER BY updated_at DESC LIMIT 1{' FOR UPDATE' if lock else ''}",
        params,
    ).fetchone()
    if row is None:
        return None
    tried = None
    if row["status"] in ("queued", "ingesting", "failed") and row["last_workflow_id"]:
        # A separate statement: after waiting for the row lock it sees what the other transaction wrote.
        found = conn.execute(
            "SELECT sha256 FROM ingest_items WHERE workflow_id = %s AND document_id = %s",
            (row["last_workflow_id"], row["id"]),
        ).fetchone()
        tried = found["sha256"] if found else None
    failed = row["status"] == "failed"
    return _Doc(**row, inflight_sha=None if failed else tried, failed_sha=tried if failed else None)


def _by_name(conn: Connection, category: str | None, filename: str, lock: bool) -> _Doc | None:
    return _doc(conn, "coalesce(lower(category), '') = coalesce(lower(%s), '') AND lower(filename) = lower(%s)",
                (category, filename), lock)


def _by_url(conn: Connection, url: str, lock: bool) -> _Doc | None:
    return _doc(conn, "source_url = %s", (url,), lock)


def free_name(conn: Connection, category: str | None, filename: str) -> str:
    """`filename`, or `stem (n).ext` with the first n ≥ 2 not taken in the category."""
    taken = {
        row["name"] for row in conn.execute(
            "SELECT lower(filename) AS name FROM documents WHERE status <> 'trashed'"
            " AND coalesce(lower(category), '') = coalesce(lower(%s), '')",
            (category,),
        ).fetchall()
    }
    if filename.lower() not in taken:
        return filename
    path = PurePath(filename)
    stem, suffix = (path.stem, path.suffix) if path.stem else (filename, "")
    for n in range(2, 100_000):
        candidate = f"{stem} ({n}){suffix}"
        if candidate.lower() not in taken:
            return candidate
    raise RuntimeError("no free name")  # 100,000 documents of one name in one category


def _existing(doc: _Doc) -> ExistingDocument:
    return ExistingDocument(str(doc.id), doc.filename, doc.category, doc.size_bytes, doc.updated_at, doc.status)


def _resolve(conn: Connection, items: Sequence[NewIngestItem], category: str | None,
             on_conflict: OnConflict, source_url: str | None, lock: bool) -> tuple[list[_Target], list[NameConflict]]:
    targets: list[_Target] = []
    conflicts: list[NameConflict] = []
    for item in items:
        if source_url is not None:  # URL imports: keyed by URL, whatever the page's title says now
            doc = _by_url(conn, source_url, lock)
            if doc is None:
                targets.append(_Target(item, None, free_name(conn, category, item.filename)))
            else:
                targets.append(_Target(item, doc, doc.filename))
            continue
        doc = _by_name(conn, category, item.filename, lock)
        # A failed document's own file (its run cancelled, say) uploaded again is no conflict: it holds no
        # other bytes (a document with a version goes back to ready when a newer upload fails).
        if doc is None or item.sha256 in (doc.sha256, doc.inflight_sha, doc.failed_sha) or on_conflict == "replace":
            targets.append(_Target(item, doc, doc.filename if doc else item.filename))
        elif on_conflict == "keep_both":
            targets.append(_Target(item, None, free_name(conn, category, item.filename)))
        else:
            conflicts.append(NameConflict(item.filename, _existing(doc)))
    return targets, conflicts


def find_conflicts(db: Database, items: Sequence[NewIngestItem], category: str | None,
                   on_conflict: OnConflict) -> list[NameConflict]:
    """The conflicts `register_ingest` would raise, checked before any bytes are stored."""
    with db.connection() as conn:
        return _resolve(conn, items, category, on_conflict, None, lock=False)[1]


def _workflow_id(source: str, category: str | None, targets: Sequence[_Target], attempt: int) -> str:
    keys = sorted(json.dumps(t.key(category)) for t in targets)
    digest = hashlib.sha256(json.dumps([source, keys, attempt]).encode()).hexdigest()
    return f"ingest-{digest[:24]}"


def _attachable(conn: Connection, workflow_id: str) -> bool:
    """An existing run with this id is the one to join only while it is still ingesting its documents."""
    row = conn.execute(
        "SELECT count(*) AS items, count(*) FILTER (WHERE d.last_workflow_id = r.workflow_id"
        " AND d.status IN ('queued', 'ingesting')) AS current, bool_or(r.cancelled) AS cancelled"
        " FROM ingest_runs r JOIN ingest_items i ON i.workflow_id = r.workflow_id"
        " JOIN documents d ON d.id = i.document_id WHERE r.workflow_id = %s",
        (workflow_id,),
    ).fetchone()
    return row is not None and row["items"] > 0 and row["items"] == row["current"] and not row["cancelled"]


def run_documents(conn: Connection, workflow_id: str) -> list[RunDocument]:
    rows = conn.execute(
        "SELECT d.id::text AS id, d.filename, d.status, i.kind FROM ingest_items i"
        " JOIN documents d ON d.id = i.document_id"
        " WHERE i.workflow_id = %s ORDER BY i.position",
        (workflow_id,),
    ).fetchall()
    return [RunDocument(**row) for row in rows]


def _claim_run(conn: Connection, source: str, category: str | None,
               targets: Sequence[_Target]) -> tuple[str, bool]:
    """(workflow id, created): insert the run row, or find the identical run to attach to."""
    for attempt in range(1, _MAX_ATTEMPTS):
        workflow_id = _workflow_id(source, category, targets, attempt)
        inserted = conn.execute(
            "INSERT INTO ingest_runs (workflow_id, source) VALUES (%s, %s) ON CONFLICT (workflow_id) DO NOTHING"
            " RETURNING workflow_id",
            (workflow_id, source),
        ).fetchone()
        if inserted is not None:
            return workflow_id, True
        if _attachable(conn, workflow_id):
            return workflow_id, False
    raise RuntimeError("no free workflow id")


def _add_item(conn: Connection, workflow_id: str, position: int, target: _Target, category: str | None,
              source_url: str | None) -> uuid.UUID:
    item, doc = target.item, target.doc
    if doc is None:
        document_id = uuid.uuid4()
        conn.execute(
            "INSERT INTO documents (id, filename, category, status, kind, mime, size_bytes, last_workflow_id,"
            " source_url) VALUES (%s, %s, %s, 'queued', %s, %s, %s, %s, %s)",
            (document_id, target.filename, category, item.kind, item.mime, item.size_bytes, workflow_id, source_url),
        )
    else:
        document_id = doc.id
        conn.execute(
            "UPDATE documents SET status = 'queued', last_workflow_id = %s, error = NULL,"
            " source_url = coalesce(%s, source_url), updated_at = now() WHERE id = %s",
            (workflow_id, source_url, document_id),
        )
    conn.execute(
        "INSERT INTO ingest_items (workflow_id, document_id, position, filename, sha256, size_bytes, kind, category,"
        " generation, prior_status, prior_sha256, target_version)"
        " SELECT %s, id, %s, filename, %s, %s, %s, category, generation, %s, %s, %s FROM documents WHERE id = %s",
        (workflow_id, position, item.sha256, item.size_bytes, item.kind, doc.status if doc else None,
         doc.sha256 if doc else None, target.target_version, document_id),
    )
    return document_id


def _register_once(db: Database, items: Sequence[NewIngestItem], category: str | None, on_conflict: OnConflict,
                   source: str, source_url: str | None) -> RegisteredRun:
    with db.transaction() as conn:
        targets, conflicts = _resolve(conn, items, category, on_conflict, source_url, lock=True)
        if conflicts:
            raise ConflictsFound(conflicts)
        return _register_targets(conn, targets, category, source, source_url)


def _register_targets(conn: Connection, targets: list[_Target], category: str | None, source: str,
                      source_url: str | None) -> RegisteredRun:
    # Files whose identical bytes are being ingested into the same document already: that run has them.
    busy = [t for t in targets if t.doc is not None and t.doc.inflight_sha == t.item.sha256]
    fresh = [t for t in targets if t not in busy]
    if not fresh:
        runs = {t.doc.last_workflow_id for t in busy if t.doc is not None}
        only = runs.pop() if len(runs) == 1 else None
        documents = run_documents(conn, only) if only else [
            RunDocument(str(t.doc.id), t.doc.filename, t.doc.status, t.item.kind) for t in busy if t.doc is not None]
        return RegisteredRun(only, documents, created=False)
    missing = originals.lock_for_reference(conn, [t.item.sha256 for t in fresh])
    if missing:
        raise OriginalsMissing(missing)
    workflow_id, created = _claim_run(conn, source, category, fresh)
    if created:
        for position, target in enumerate(fresh):
            _add_item(conn, workflow_id, position, target, category, source_url)
    documents = run_documents(conn, workflow_id)
    listed = {doc.id for doc in documents}
    documents += [RunDocument(str(t.doc.id), t.doc.filename, t.doc.status, t.item.kind) for t in busy
                  if t.doc is not None and str(t.doc.id) not in listed]
    return RegisteredRun(workflow_id, documents, created)


def register_ingest(db: Database, items: Sequence[NewIngestItem], category: str | None, source: str, *,
                    on_conflict: OnConflict = "ask", source_url: str | None = None) -> RegisteredRun:
    """Create or reuse the document rows for `items` and record one ingestion run over them.

    Raises `ConflictsFound` (nothing written) when `on_conflict` is "ask" and a name is taken by other bytes.
    Two different files racing for one free name: the loser's insert violates the unique name index; it is
    retried once the winner committed, and then sees the winner's document."""
    for attempt in range(_RACE_RETRIES):
        try:
            return _register_once(db, items, category, on_conflict, source, source_url)
        except (psycopg.errors.UniqueViolation, psycopg.errors.DeadlockDetected):
            # two uploads locking the same documents in another order: Postgres aborts one; it tries again
            if attempt == _RACE_RETRIES - 1:
                raise
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class RetrySource:
    """What a re-ingestion of an existing document starts from: a stored original."""

    sha256: str
    size_bytes: int
    kind: DocKind
    mime: str
    filename: str


def retry_source(db: Database, document_id: uuid.UUID) -> RetrySource | None:
    """The file of a document's latest ingestion attempt (what Retry ingests again)."""
    row = first_row(db,
        "SELECT i.sha256, i.size_bytes, i.kind, d.filename, d.mime FROM documents d JOIN ingest_items i"
        " ON i.document_id = d.id WHERE d.id = %s"
        " ORDER BY (i.workflow_id = d.last_workflow_id) DESC, i.updated_at DESC LIMIT 1",
        (document_id,),
    )
    if row is None:
        return None
    return RetrySource(row["sha256"], row["size_bytes"], row["kind"], row["mime"] or "", row["filename"])


def version_source(db: Database, document_id: uuid.UUID, version: int) -> RetrySource | None:
    row = first_row(db,
        "SELECT sha256, size_bytes, kind, mime, filename FROM document_versions"
        " WHERE document_id = %s AND version = %s",
        (document_id, version),
    )
    if row is None:
        return None
    return RetrySource(row["sha256"], row["size_bytes"] or 0, row["kind"], row["mime"] or "", row["filename"])


def register_reingest(db: Database, document_id: uuid.UUID, source: RetrySource, origin: str,
                      target_version: int | None) -> RegisteredRun:
    """A run that ingests `source` into the existing document again (retry, or restoring a version whose
    blocks are gone). Identical requests racing each other attach to one run."""
    with db.transaction() as conn:
        doc = _doc(conn, "id = %s", (document_id,), lock=True)
        if doc is None:
            raise LookupError(str(document_id))
        item = NewIngestItem(doc.filename, source.sha256, source.size_bytes, source.kind, source.mime)
        target = _Target(item, doc, doc.filename, target_version)
        if doc.inflight_sha == source.sha256 and doc.last_workflow_id:
            return RegisteredRun(doc.last_workflow_id, run_documents(conn, doc.last_workflow_id), created=False)
        return _register_targets(conn, [target], doc.category, origin, None)
