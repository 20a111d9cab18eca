"""SQL for ingestion runs: their items, the scan's decisions, progress, step logs, cancelling and the
end-of-run bookkeeping. (Registering a run: `registration.py`; staged chunks: `staging.py`; the version
swap: `versions.py`; vectors: `embeddings.py`.)

Every write here is safe to repeat: DBOS runs a step at least once, so each function either
overwrites with the same values or recognises that its work is already done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg.types.json import Jsonb

from backend.store.db import Database


def load_items(db: Database, workflow_id: str) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT i.*, i.document_id::text AS document_id FROM ingest_items i"
            " WHERE workflow_id = %s ORDER BY position",
            (workflow_id,),
        ).fetchall()


def load_item(db: Database, workflow_id: str, document_id: str) -> dict[str, Any] | None:
    """The run's item joined with its document's state; None once the document was deleted for good."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT i.*, i.document_id::text AS document_id, d.status AS document_status,"
            " d.generation AS document_generation, d.filename AS document_filename,"
            " d.current_version AS document_current_version, r.cancelled"
            " FROM ingest_items i JOIN documents d ON d.id = i.document_id"
            " JOIN ingest_runs r ON r.workflow_id = i.workflow_id"
            " WHERE i.workflow_id = %s AND i.document_id = %s",
            (workflow_id, document_id),
        ).fetchone()
    return row


def record_decisions(db: Database, workflow_id: str, decisions: Sequence[tuple[str, str]]) -> None:
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


def item_is_current(item: dict[str, Any]) -> bool:
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


def update_item(db: Database, workflow_id: str, document_id: str, **fields: Any) -> bool:
    """Update a run's item; False if it had already failed (e.g. its run was cancelled): nothing changes."""
    allowed = {"decision", "state", "done", "total", "detail", "error", "warnings", "pages", "blocks", "embedded"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValueError(f"unknown ingest item fields {unknown}")
    if "warnings" in fields:
        fields["warnings"] = Jsonb(list(fields["warnings"]))
    assignments = ", ".join(f"{name} = %({name})s" for name in fields)
    with db.bookkeeping() as conn:
        cur = conn.execute(
            f"UPDATE ingest_items SET {assignments}, updated_at = now()"  # noqa: S608 - names checked above
            # A failed item is final: a step still running when its run was cancelled must not revive it.
            " WHERE workflow_id = %(wf)s AND document_id = %(doc)s AND state <> 'failed'",
            {**fields, "wf": workflow_id, "doc": document_id},
        )
    return cur.rowcount == 1


def update_run(db: Database, workflow_id: str, phase: str, done: int = 0, total: int = 0, detail: str = "") -> None:
    with db.bookkeeping() as conn:
        conn.execute(
            "UPDATE ingest_runs SET phase = %s, done = %s, total = %s, detail = %s, updated_at = now()"
            " WHERE workflow_id = %s",
            (phase, done, total, detail, workflow_id),
        )


def set_document_status(
    db: Database, document_id: str, status: str, *, error: str | None = None, warning: str | None = None
) -> None:
    with db.connection() as conn:
        conn.execute(
            "UPDATE documents SET status = %s, error = %s, updated_at = now(),"
            " warnings = CASE WHEN %s::text IS NULL OR warnings ? %s::text THEN warnings"
            "            ELSE warnings || to_jsonb(%s::text) END"
            " WHERE id = %s AND status <> 'trashed'",
            (status, error, warning, warning, warning, document_id),
        )


def run_row(db: Database, workflow_id: str) -> dict[str, Any] | None:
    with db.connection() as conn:
        return conn.execute("SELECT * FROM ingest_runs WHERE workflow_id = %s", (workflow_id,)).fetchone()


def recent_runs(db: Database, limit: int) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT r.workflow_id, r.source, r.phase, r.done, r.total, r.detail, r.created_at, r.updated_at,"
            " count(i.document_id) AS documents FROM ingest_runs r"
            " LEFT JOIN ingest_items i ON i.workflow_id = r.workflow_id"
            " GROUP BY r.workflow_id ORDER BY r.created_at DESC LIMIT %s",
            (limit,),
        ).fetchall()


def log_step_run(db: Database, workflow_id: str, step: str, key: str = "") -> None:
    with db.bookkeeping() as conn:
        conn.execute("INSERT INTO ingest_step_runs (workflow_id, step, key) VALUES (%s, %s, %s)",
                     (workflow_id, step, key))


def step_run_counts(db: Database, workflow_id: str) -> dict[str, int]:
    """How many times each step (keyed by document/batch) started executing in this run."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT step, key, count(*) AS n FROM ingest_step_runs WHERE workflow_id = %s GROUP BY step, key",
            (workflow_id,),
        ).fetchall()
    return {f"{row['step']}:{row['key']}" if row["key"] else row["step"]: row["n"] for row in rows}


def documents_in_flight(db: Database) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT d.id::text AS id, d.last_workflow_id,"
            " EXISTS (SELECT 1 FROM blocks b WHERE b.document_id = d.id AND b.is_live) AS has_live_blocks"
            " FROM documents d WHERE d.status IN ('queued', 'ingesting')"
        ).fetchall()


def abandon_document(db: Database, document_id: str, workflow_id: str | None, has_live: bool, message: str) -> None:
    """Take a document out of a run that will never finish, keeping any live version searchable."""
    with db.transaction() as conn:
        if has_live:
            conn.execute(
                "UPDATE documents SET status = 'ready', updated_at = now(), warnings = warnings || to_jsonb(%s::text)"
                " WHERE id = %s AND status IN ('queued', 'ingesting')",
                (message, document_id),
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
