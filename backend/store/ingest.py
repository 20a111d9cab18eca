"""SQL for ingestion: registering an upload as a run with items, progress, staged chunks, the atomic
version swap into `blocks`, embedding batches and the end-of-run bookkeeping.

Every write here is safe to repeat: DBOS runs a step at least once, so each function either
overwrites with the same values or recognises that its work is already done.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from backend.ingest.types import Chunk
from backend.store.db import Database
from backend.store.documents import record_index_change


@dataclass(frozen=True)
class NewIngestItem:
    filename: str
    pending_path: str
    sha256: str
    size_bytes: int
    kind: str
    mime: str


@dataclass(frozen=True)
class RegisteredRun:
    workflow_id: str
    documents: list[dict[str, Any]]
    created: bool
    recategorised: list[str] = field(default_factory=list)


def _workflow_id(source: str, keys: list[tuple[str, int, str, str | None, str | None]]) -> str:
    """Derived from content, so a double submit of the same files maps to the same workflow."""
    digest = hashlib.sha256(json.dumps([source, *sorted(keys)]).encode()).hexdigest()
    return f"ingest-{digest[:24]}"


def _find_document(conn: psycopg.Connection, filename: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT id, status, sha256, generation, category FROM documents"
        " WHERE lower(filename) = lower(%s) AND status <> 'deleted' FOR UPDATE",
        (filename,),
    ).fetchone()
    if row is not None:
        return row
    return conn.execute(
        "SELECT id, status, sha256, generation, category FROM documents"
        " WHERE lower(filename) = lower(%s) AND status = 'deleted' ORDER BY updated_at DESC LIMIT 1 FOR UPDATE",
        (filename,),
    ).fetchone()


def register_ingest(
    db: Database,
    items: Sequence[NewIngestItem],
    category: str | None,
    source: str,
    source_url: str | None = None,
) -> RegisteredRun:
    """Create or reuse the document rows for `items` and record one ingestion run over them."""
    with db.transaction() as conn:
        found = [_find_document(conn, item.filename) for item in items]
        # A document row that does not exist yet counts as generation 1 with no live version, which is
        # exactly what the first submit creates: a double submit therefore maps to the same key.
        keys = [
            (item.filename.lower(), doc["generation"] if doc else 1, item.sha256,
             doc["sha256"] if doc else None, category)
            for item, doc in zip(items, found, strict=True)
        ]
        workflow_id = _workflow_id(source, keys)
        exists = conn.execute("SELECT 1 FROM ingest_runs WHERE workflow_id = %s", (workflow_id,)).fetchone()
        if exists:
            return RegisteredRun(workflow_id, _run_documents(conn, workflow_id), created=False)
        conn.execute("INSERT INTO ingest_runs (workflow_id, source) VALUES (%s, %s)", (workflow_id, source))
        recategorised = []
        for position, (item, doc) in enumerate(zip(items, found, strict=True)):
            document_id = _upsert_document(conn, item, doc, category, workflow_id, source_url)
            if doc and category is not None and category != doc["category"] and doc["status"] != "deleted":
                recategorised.append(str(document_id))
            conn.execute(
                "INSERT INTO ingest_items (workflow_id, document_id, position, filename, pending_path, sha256,"
                " size_bytes, kind, category, generation, prior_status, prior_sha256)"
                " SELECT %s, %s, %s, filename, %s, %s, %s, %s, category, generation, %s, %s"
                " FROM documents WHERE id = %s",
                (workflow_id, document_id, position, item.pending_path, item.sha256, item.size_bytes, item.kind,
                 doc["status"] if doc else None, doc["sha256"] if doc else None, document_id),
            )
        for document_id in recategorised:  # last: the feed lock is held to the commit
            record_index_change(conn, db, document_id, "category")
        return RegisteredRun(workflow_id, _run_documents(conn, workflow_id), created=True,
                             recategorised=recategorised)


def _upsert_document(
    conn: psycopg.Connection,
    item: NewIngestItem,
    doc: dict[str, Any] | None,
    category: str | None,
    workflow_id: str,
    source_url: str | None,
) -> uuid.UUID:
    if doc is None:
        document_id = uuid.uuid4()
        conn.execute(
            "INSERT INTO documents (id, filename, category, status, kind, mime, size_bytes, last_workflow_id,"
            " source_url) VALUES (%s, %s, %s, 'queued', %s, %s, %s, %s, %s)",
            (document_id, item.filename, category, item.kind, item.mime, item.size_bytes, workflow_id, source_url),
        )
        return document_id
    document_id = doc["id"]
    new_category = category if category is not None else doc["category"]
    conn.execute(
        "UPDATE documents SET status = 'queued', category = %s, last_workflow_id = %s, error = NULL,"
        " source_url = coalesce(%s, source_url), updated_at = now() WHERE id = %s",
        (new_category, workflow_id, source_url, document_id),
    )
    return document_id


def _run_documents(conn: psycopg.Connection, workflow_id: str) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT d.id::text AS id, d.filename, d.status FROM ingest_items i JOIN documents d ON d.id = i.document_id"
        " WHERE i.workflow_id = %s ORDER BY i.position",
        (workflow_id,),
    ).fetchall()


def load_items(db: Database, workflow_id: str) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT i.*, i.document_id::text AS document_id FROM ingest_items i"
            " WHERE workflow_id = %s ORDER BY position",
            (workflow_id,),
        ).fetchall()


def load_item(db: Database, workflow_id: str, document_id: str) -> dict[str, Any]:
    with db.connection() as conn:
        row = conn.execute(
            "SELECT i.*, i.document_id::text AS document_id, d.status AS document_status,"
            " d.generation AS document_generation, d.filename AS document_filename, r.cancelled"
            " FROM ingest_items i JOIN documents d ON d.id = i.document_id"
            " JOIN ingest_runs r ON r.workflow_id = i.workflow_id"
            " WHERE i.workflow_id = %s AND i.document_id = %s",
            (workflow_id, document_id),
        ).fetchone()
    if row is None:
        raise LookupError(f"ingest item {workflow_id}/{document_id} not found")
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
                " AND status <> 'deleted'",
                (unchanged,),
            )


def item_is_current(item: dict[str, Any]) -> bool:
    """False once the run was cancelled or the document deleted (or re-added) after it was registered."""
    return (not item["cancelled"] and item["document_status"] != "deleted"
            and item["document_generation"] == item["generation"])


def mark_cancelled(db: Database, workflow_id: str) -> None:
    with db.connection() as conn:
        conn.execute("UPDATE ingest_runs SET cancelled = true, updated_at = now() WHERE workflow_id = %s",
                     (workflow_id,))


def mark_ingesting(db: Database, workflow_id: str, document_id: str) -> bool:
    """Set a document to ingesting unless its run was cancelled meanwhile (checked in the same statement)."""
    with db.connection() as conn:
        cur = conn.execute(
            "UPDATE documents SET status = 'ingesting', updated_at = now() WHERE id = %s AND status <> 'deleted'"
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
            " WHERE id = %s AND status <> 'deleted'",
            (status, error, warning, warning, warning, document_id),
        )


def stage_chunks(db: Database, workflow_id: str, document_id: str, chunks: Sequence[Chunk]) -> None:
    with db.transaction() as conn:
        conn.execute(
            "DELETE FROM ingest_chunks WHERE workflow_id = %s AND document_id = %s", (workflow_id, document_id)
        )
        with conn.cursor().copy(
            "COPY ingest_chunks (workflow_id, document_id, ordinal, text, page, section, kind, page_label) FROM STDIN"
        ) as copy:
            for c in chunks:
                copy.write_row((workflow_id, document_id, c.ordinal, c.text, c.page, c.section, c.kind, c.page_label))


@dataclass(frozen=True)
class StoredVersion:
    blocks: int
    to_embed: int
    skipped: bool = False


class TermAnalyzer(Protocol):
    """The search index's BM25 analyser (`backend.retrieval.tokenizer.Analyzer`), as the store sees it."""

    fingerprint: str

    def term_counts(self, text: str) -> tuple[str, bytes]: ...


def store_version(
    db: Database, item: dict[str, Any], stored_path: str, embed_model: str, place_file: Callable[[], None],
    analyzer: TermAnalyzer | None = None,
) -> StoredVersion:
    """Upsert the staged chunks as blocks and make them the live version, all in one transaction.

    With `analyzer`, each new block's BM25 terms are cached with it (blocks.terms), so the index's startup
    build reads them instead of re-analysing every text.
    """
    wf, doc, sha = item["workflow_id"], item["document_id"], item["sha256"]
    with db.transaction() as conn:
        current = conn.execute(
            "SELECT d.status, d.generation, r.cancelled FROM documents d, ingest_runs r"
            " WHERE d.id = %s AND r.workflow_id = %s FOR UPDATE OF d, r",
            (doc, wf),
        ).fetchone()
        if (current is None or current["cancelled"] or current["status"] == "deleted"
                or current["generation"] != item["generation"]):
            return StoredVersion(0, 0, skipped=True)
        ordinals, terms, counts = _staged_terms(conn, wf, doc, analyzer)
        conn.execute(
            "INSERT INTO blocks (id, document_id, doc_sha256, ordinal, text, page, section, kind, terms,"
            " term_counts, terms_analyzer, page_label)"
            " SELECT md5(document_id::text || ':' || %s || ':' || ordinal)::uuid, document_id, %s, ordinal,"
            " text, page, section, kind, t.terms, t.counts, CASE WHEN t.terms IS NOT NULL THEN %s END,"
            " page_label"
            " FROM ingest_chunks LEFT JOIN unnest(%s::int[], %s::text[], %s::bytea[]) AS t (ordinal, terms, counts)"
            " USING (ordinal) WHERE workflow_id = %s AND document_id = %s"
            " ON CONFLICT (id) DO NOTHING",
            (sha, sha, analyzer.fingerprint if analyzer else None, ordinals, terms, counts, wf, doc),
        )
        _reuse_embeddings(conn, doc, sha, embed_model)
        conn.execute("UPDATE blocks SET is_live = (doc_sha256 = %s) WHERE document_id = %s", (sha, doc))
        conn.execute("DELETE FROM blocks WHERE document_id = %s AND doc_sha256 <> %s", (doc, sha))
        counts = conn.execute(
            "SELECT count(*) AS blocks, count(*) FILTER (WHERE embed_model IS DISTINCT FROM %s) AS to_embed"
            " FROM blocks WHERE document_id = %s AND is_live",
            (embed_model, doc),
        ).fetchone()
        conn.execute(
            "UPDATE documents SET sha256 = %s, stored_path = %s, size_bytes = %s, kind = %s, pages = %s,"
            " status = 'ingesting', warnings = %s, error = NULL, updated_at = now() WHERE id = %s",
            (sha, stored_path, item["size_bytes"], item["kind"], item["pages"], Jsonb(item["warnings"]), doc),
        )
        conn.execute("DELETE FROM ingest_chunks WHERE workflow_id = %s AND document_id = %s", (wf, doc))
        record_index_change(conn, db, doc, "stored")
        place_file()  # inside the transaction: if moving the file fails, the swap is rolled back
    return StoredVersion(counts["blocks"], counts["to_embed"])


def _staged_terms(conn: psycopg.Connection, workflow_id: str, document_id: str,
                  analyzer: TermAnalyzer | None) -> tuple[list[int], list[str], list[bytes]]:
    """(ordinals, terms, term counts) of the staged chunks, read in the store transaction so they match."""
    if analyzer is None:
        return [], [], []
    rows = conn.execute("SELECT ordinal, text FROM ingest_chunks WHERE workflow_id = %s AND document_id = %s",
                        (workflow_id, document_id)).fetchall()
    analysed = [analyzer.term_counts(row["text"]) for row in rows]
    return [row["ordinal"] for row in rows], [t for t, _ in analysed], [c for _, c in analysed]


def _reuse_embeddings(conn: psycopg.Connection, document_id: str, sha: str, embed_model: str) -> None:
    """Blocks whose text is unchanged from the previous version keep their vector (no re-embedding)."""
    conn.execute(
        "UPDATE blocks AS new SET embedding = old.embedding, embed_model = old.embed_model"
        " FROM blocks AS old WHERE new.document_id = %s AND new.doc_sha256 = %s AND new.embedding IS NULL"
        " AND old.document_id = new.document_id AND old.is_live AND old.doc_sha256 <> %s"
        " AND old.embed_model = %s AND md5(old.text) = md5(new.text)",
        (document_id, sha, sha, embed_model),
    )


def blocks_to_embed(
    db: Database, document_id: str, sha: str, first: int, last: int, embed_model: str
) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT id, text FROM blocks WHERE document_id = %s AND doc_sha256 = %s AND is_live"
            " AND ordinal >= %s AND ordinal < %s AND embed_model IS DISTINCT FROM %s ORDER BY ordinal",
            (document_id, sha, first, last, embed_model),
        ).fetchall()


def missing_embeddings(db: Database, embed_model: str, limit: int) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT b.id, b.text, b.document_id::text AS document_id FROM blocks b"
            " WHERE b.is_live AND b.embed_model IS DISTINCT FROM %s ORDER BY b.document_id, b.ordinal LIMIT %s",
            (embed_model, limit),
        ).fetchall()


def count_missing_embeddings(db: Database, embed_model: str) -> int:
    with db.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM blocks WHERE is_live AND embed_model IS DISTINCT FROM %s", (embed_model,)
        ).fetchone()
    return int(row["n"])


def write_embeddings(
    db: Database, ids: Sequence[uuid.UUID], vectors: np.ndarray, embed_model: str
) -> list[str]:
    """Store vectors for still-live blocks; returns the affected document ids (for the index feed)."""
    with db.transaction() as conn:
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE blocks SET embedding = %s, embed_model = %s WHERE id = %s AND is_live",
                [(vector, embed_model, block_id) for block_id, vector in zip(ids, vectors, strict=True)],
            )
        docs = conn.execute(
            "SELECT DISTINCT document_id::text AS id FROM blocks WHERE id = ANY(%s)", (list(ids),)
        ).fetchall()
        for row in docs:
            record_index_change(conn, db, row["id"], "embedded")
    return [row["id"] for row in docs]


def drop_staging(db: Database, workflow_id: str) -> None:
    with db.connection() as conn:
        conn.execute("DELETE FROM ingest_chunks WHERE workflow_id = %s", (workflow_id,))


def embedded_count(db: Database, document_id: str, embed_model: str) -> int:
    with db.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM blocks WHERE document_id = %s AND is_live AND embed_model = %s",
            (document_id, embed_model),
        ).fetchone()
    return int(row["n"])


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
