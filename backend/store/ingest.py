"""SQL for ingestion runs: their items, the scan's decisions, progress, step logs, cancelling and the
end-of-run bookkeeping. (Registering a run: `registration.py`; staged chunks: `staging.py`; the version
swap: `versions.py`; vectors: `embeddings.py`.)

Every write here is safe to repeat: DBOS runs a step at least once, so each function either
overwrites with the same values or recognises that its work is already done.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal, Unpack

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Database, fetch_row, fetch_rows
from backend.store.kinds import DocKind, DocumentStatus, PageWarningRow

# The scan's verdict (`readded` is allowed by the column's CHECK; only runs of older releases hold it).
Decision = Literal["new", "changed", "unchanged", "readded"]
ItemState = Literal["queued", "extracting", "storing", "embedding", "ready", "skipped", "failed"]
RunPhase = Literal["queued", "scanning", "extracting", "embedding", "done"]


class IngestItemRow(TypedDict):
    """One file of a run (`ingest_items`), with its document id as text."""

    workflow_id: str
    document_id: str
    position: int
    filename: str
    pending_path: str | None
    sha256: str
    size_bytes: int
    kind: DocKind
    category: str | None
    generation: int  # the document's generation when the run was registered
    prior_status: DocumentStatus | None  # None: a new document
    prior_sha256: str | None
    target_version: int | None  # a version re-ingested in place (restore) instead of a new one
    stored_version: int | None  # set by the store step: a replay recognises its work as done
    replaced_version: int | None  # the current version the store step replaced (None: a new document)
    decision: Decision | None  # None until the scan
    state: ItemState
    done: int
    total: int
    detail: str
    error: str | None
    warnings: list[str]
    page_warnings: list[PageWarningRow]
    pages: int | None
    language: str | None  # where the reading decided one (a recording's speech)
    blocks: int | None
    embedded: int | None
    updated_at: datetime


class IngestItemWithDocument(IngestItemRow):
    """An item with what a step checks before it works on it: its document's state and the run's."""

    document_status: DocumentStatus
    document_generation: int
    document_filename: str
    document_current_version: int | None
    cancelled: bool  # the run's


class ItemUpdate(TypedDict, total=False):
    """The fields of an item a step may set (`update_item`)."""

    decision: Decision
    state: ItemState
    done: int
    total: int
    detail: str
    error: str
    warnings: list[str]
    page_warnings: list[PageWarningRow]
    pages: int | None
    language: str
    blocks: int
    embedded: int


_ITEM_FIELDS = frozenset(ItemUpdate.__annotations__)
# The fields that only show how far a step is: an update of these alone is committed without waiting for
# the disk (Database.bookkeeping). The others (state, blocks, …) decide what the run does with the document
# next, so they must survive a crash of the database server like any other write: a document's "stored,
# 6 blocks" lost that way was never marked ready, its run counting it as unchanged.
_PROGRESS_FIELDS = frozenset({"done", "total", "detail"})


class IngestRunRow(TypedDict):
    """A run (`ingest_runs`): its coarse progress and whether it was cancelled."""

    workflow_id: str
    source: str
    phase: RunPhase
    done: int
    total: int
    detail: str
    cancelled: bool
    created_at: datetime
    updated_at: datetime


class RunSummaryRow(IngestRunRow):
    """A run as `recent_runs` lists it, with its number of documents."""

    documents: int


class InFlightDocumentRow(TypedDict):
    """A document still queued or ingesting, for the reconciler."""

    id: str
    last_workflow_id: str | None
    has_live_blocks: bool


def load_items(db: Database, workflow_id: str) -> list[IngestItemRow]:
    return fetch_rows(db, IngestItemRow,
        "SELECT i.*, i.document_id::text AS document_id FROM ingest_items i"
        " WHERE workflow_id = %s ORDER BY position",
        (workflow_id,),
    )


def load_item(db: Database, workflow_id: str, document_id: str) -> IngestItemWithDocument | None:
    """The run's item joined with its document's state; None once the document was deleted for good."""
    return fetch_row(db, IngestItemWithDocument,
        "SELECT i.*, i.document_id::text AS document_id, d.status AS document_status,"
        " d.generation AS document_generation, d.filename AS document_filename,"
        " d.current_version AS document_current_version, r.cancelled"
        " FROM ingest_items i JOIN documents d ON d.id = i.document_id"
        " JOIN ingest_runs r ON r.workflow_id = i.workflow_id"
        " WHERE i.workflow_id = %s AND i.document_id = %s",
        (workflow_id, document_id),
    )


def record_decisions(db: Database, workflow_id: str, decisions: Sequence[tuple[str, Decision]]) -> None:
    """Store the scan's verdicts in one transaction; unchanged documents are skipped and ready again."""
    unchanged = [doc for doc, decision in decisions if decision == "unchanged"]
    with db.transaction() as conn:
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE ingest_items SET decision = %s, updated_at = now(),"
                " state = CASE WHEN %s = 'unchanged' THEN 'skipped' ELSE state END,"
                " detail = CASE WHEN %s = 'unchanged' THEN 'unchanged' ELSE detail END"
                " WHERE workflow_id = %s AND document_id = %s AND decision IS NULL",
                [(decision, decision, decision, workflow_id, doc) for doc, decision in decisions],
            )
        if unchanged:
            conn.execute(
                "UPDATE documents SET status = 'ready', updated_at = now() WHERE id = ANY(%s::uuid[])"
                " AND status <> 'trashed'",
                (unchanged,),
            )


def item_is_current(item: IngestItemWithDocument) -> bool:
    """False once the run was cancelled or the document trashed (or restored) after it was registered."""
    return (not item["cancelled"] and item["document_status"] != "trashed"
            and item["document_generation"] == item["generation"])


def mark_cancelled(db: Database, workflow_id: str) -> None:
    with db.connection() as conn:
        conn.execute("UPDATE ingest_runs SET cancelled = true, updated_at = now() WHERE workflow_id = %s",
                     (workflow_id,))


def mark_ingesting(db: Database, workflow_id: str, document_id: str) -> bool:
    """Set a document to ingesting unless its run was cancelled meanwhile (checked in the same statement)."""
    with db.connection() as conn:
        cur = conn.execute(
            "UPDATE documents SET status = 'ingesting', updated_at = now() WHERE id = %s AND status <> 'trashed'"
            " AND NOT (SELECT cancelled FROM ingest_runs WHERE workflow_id = %s)",
            (document_id, workflow_id),
        )
    return cur.rowcount == 1


def update_item(db: Database, workflow_id: str, document_id: str, **fields: Unpack[ItemUpdate]) -> bool:
    """Update a run's item; False if it had already failed (e.g. its run was cancelled): nothing changes."""
    unknown = set(fields) - _ITEM_FIELDS  # the names go into the SQL text: checked at run time too
    if unknown:
        raise ValueError(f"unknown ingest item fields {unknown}")
    params: dict[str, object] = {**fields, "wf": workflow_id, "doc": document_id}
    if "warnings" in fields:
        params["warnings"] = Jsonb(list(fields["warnings"]))
    if "page_warnings" in fields:
        params["page_warnings"] = Jsonb(list(fields["page_warnings"]))
    assignments = ", ".join(f"{name} = %({name})s" for name in fields)
    with db.bookkeeping() if fields.keys() <= _PROGRESS_FIELDS else db.transaction() as conn:
        cur = conn.execute(
            f"UPDATE ingest_items SET {assignments}, updated_at = now()"  # noqa: S608 - names checked above
            # A failed item is final: a step still running when its run was cancelled must not revive it.
            " WHERE workflow_id = %(wf)s AND document_id = %(doc)s AND state <> 'failed'",
            params,
        )
    return cur.rowcount == 1


def mark_ready(db: Database, workflow_id: str, document_id: str, embedded: int) -> bool:
    """The run's item and its document ready in one transaction, so the run's progress and the library never
    disagree (they did for a moment between two commits); False, and nothing changes, if the item had already
    failed (its run was cancelled)."""
    with db.transaction() as conn:
        cur = conn.execute(
            "UPDATE ingest_items SET state = 'ready', embedded = %s, done = 0, total = 0, detail = 'ready',"
            " updated_at = now() WHERE workflow_id = %s AND document_id = %s AND state <> 'failed'",
            (embedded, workflow_id, document_id),
        )
        if cur.rowcount != 1:
            return False
        conn.execute("UPDATE documents SET status = 'ready', error = NULL, updated_at = now()"
                     " WHERE id = %s AND status <> 'trashed'", (document_id,))
    return True


def update_run(db: Database, workflow_id: str, phase: RunPhase, done: int = 0, total: int = 0,
               detail: str = "") -> None:
    with db.bookkeeping() as conn:
        conn.execute(
            "UPDATE ingest_runs SET phase = %s, done = %s, total = %s, detail = %s, updated_at = now()"
            " WHERE workflow_id = %s",
            (phase, done, total, detail, workflow_id),
        )


def set_document_status(
    db: Database, document_id: str, status: DocumentStatus, *, error: str | None = None, warning: str | None = None
) -> None:
    with db.connection() as conn:
        conn.execute(
            "UPDATE documents SET status = %s, error = %s, updated_at = now(),"
            " warnings = CASE WHEN %s::text IS NULL OR warnings ? %s::text THEN warnings"
            "            ELSE warnings || to_jsonb(%s::text) END"
            " WHERE id = %s AND status <> 'trashed'",
            (status, error, warning, warning, warning, document_id),
        )


def run_row(db: Database, workflow_id: str) -> IngestRunRow | None:
    return fetch_row(db, IngestRunRow, "SELECT * FROM ingest_runs WHERE workflow_id = %s", (workflow_id,))


def recent_runs(db: Database, limit: int) -> list[RunSummaryRow]:
    return fetch_rows(db, RunSummaryRow,
        "SELECT r.*, count(i.document_id) AS documents FROM ingest_runs r"
        " LEFT JOIN ingest_items i ON i.workflow_id = r.workflow_id"
        " GROUP BY r.workflow_id ORDER BY r.created_at DESC LIMIT %s",
        (limit,),
    )


def log_step_run(db: Database, workflow_id: str, step: str, key: str = "") -> int:
    """Log that a step starts executing; returns the log row's id, for `finish_step_run`."""
    with db.bookkeeping() as conn:
        row = conn.execute("INSERT INTO ingest_step_runs (workflow_id, step, key) VALUES (%s, %s, %s) RETURNING id",
                           (workflow_id, step, key)).fetchone()
    assert row is not None
    return int(row["id"])


def finish_step_run(db: Database, run_id: int) -> None:
    with db.bookkeeping() as conn:
        conn.execute("UPDATE ingest_step_runs SET finished_at = now() WHERE id = %s", (run_id,))


class DocumentStepRow(TypedDict):
    """A document's step in a run: every execution of it (for `embed`, of each of its batches) folded."""

    document_id: str
    step: str  # extract | store | embed
    started_at: datetime
    finished_at: datetime | None  # None while a batch (or the step) has not finished
    executions: int
    parts: int  # batches, for embed


def document_step_times(db: Database, workflow_id: str) -> list[DocumentStepRow]:
    """Each document's steps in this run, from the step log: first start, last finish once every part
    (an embedding batch) has finished, and how many executions there were (more than parts: resumed)."""
    return fetch_rows(db, DocumentStepRow,
        "SELECT document_id, step, min(started_at) AS started_at,"
        " CASE WHEN count(DISTINCT key) FILTER (WHERE finished_at IS NOT NULL) = count(DISTINCT key)"
        "      THEN max(finished_at) END AS finished_at,"
        " count(*) AS executions, count(DISTINCT key) AS parts"
        " FROM (SELECT step, key, started_at, finished_at, split_part(key, '#', 1) AS document_id"
        "       FROM ingest_step_runs WHERE workflow_id = %s AND step IN ('extract', 'store', 'embed')) runs"
        " GROUP BY document_id, step ORDER BY min(started_at)",
        (workflow_id,),
    )


def step_run_counts(db: Database, workflow_id: str) -> dict[str, int]:
    """How many times each step (keyed by document/batch) started executing in this run."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT step, key, count(*) AS n FROM ingest_step_runs WHERE workflow_id = %s GROUP BY step, key",
            (workflow_id,),
        ).fetchall()
    return {f"{row['step']}:{row['key']}" if row["key"] else row["step"]: row["n"] for row in rows}


def documents_in_flight(db: Database) -> list[InFlightDocumentRow]:
    return fetch_rows(db, InFlightDocumentRow,
        "SELECT d.id::text AS id, d.last_workflow_id,"
        " EXISTS (SELECT 1 FROM blocks b WHERE b.document_id = d.id AND b.is_live) AS has_live_blocks"
        " FROM documents d WHERE d.status IN ('queued', 'ingesting')",
    )


def abandon_document(db: Database, document_id: str, workflow_id: str | None, has_live: bool, message: str) -> None:
    """Take a document out of a run that will never finish, keeping any live version searchable. The
    message is a warning on a document kept at an earlier version (this run's file was not added), and
    none on one whose live version is this run's file (stored before the run ended: it was added)."""
    with db.transaction() as conn:
        if has_live:
            conn.execute(
                "UPDATE documents d SET status = 'ready', updated_at = now(),"
                " warnings = CASE WHEN d.sha256 IS NOT DISTINCT FROM (SELECT i.sha256 FROM ingest_items i"
                "   WHERE i.workflow_id = %s AND i.document_id = d.id) THEN d.warnings"
                "   WHEN d.warnings ? %s THEN d.warnings"  # said once, however many runs ended so
                "   ELSE d.warnings || to_jsonb(%s::text) END"
                " WHERE d.id = %s AND d.status IN ('queued', 'ingesting')",
                (workflow_id, message, message, document_id),
            )
        else:
            conn.execute(
                "UPDATE documents SET status = 'failed', error = %s, updated_at = now()"
                " WHERE id = %s AND status IN ('queued', 'ingesting')",
                (message, document_id),
            )
        conn.execute(
            "UPDATE ingest_items SET state = 'failed', error = %s, updated_at = now()"
            " WHERE workflow_id = %s AND document_id = %s AND state NOT IN ('ready', 'skipped', 'failed')",
            (message, workflow_id, document_id),
        )
