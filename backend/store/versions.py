"""SQL for document versions: the store step's blocks, inserted batch by batch and not yet live, and its
atomic swap that makes a new version live; listing, restoring and deleting versions, and withdrawing one
a cancelled run made current but not ready.

Blocks are keyed by (document, content sha256), so every version keeps its blocks (and their vectors)
after it is replaced, not live. Making a version current is one transaction that flips `is_live`; only a
version whose blocks are gone needs ingesting again. No file work happens in these transactions: the
BM25 terms are analysed, and unchanged passages' vectors found, batch by batch before the swap (each
batch's insert its own short transaction, so a cancel is answered at once and a long document never holds
a lock for minutes), and originals are removed from disk by the caller afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from psycopg import Rollback
from psycopg.types.json import Jsonb

from backend.store import originals
from backend.store.db import Connection, Database, first_row
from backend.store.documents import lock_documents_blocks, record_index_change
from backend.store.ingest import IngestItemRow
from backend.store.kinds import DocKind


@dataclass(frozen=True)
class StoredVersion:
    blocks: int
    to_embed: int
    skipped: bool = False


@dataclass(frozen=True)
class AnalysedTerms:
    """BM25 terms of the staged chunks, computed before the swap's transaction (it stays short)."""

    fingerprint: str | None
    ordinals: list[int]
    terms: list[str]
    counts: list[bytes]


def _live_counts(conn: Connection, document_id: str, embed_model: str) -> StoredVersion:
    row = conn.execute(
        "SELECT count(*) AS blocks, count(*) FILTER (WHERE embed_model IS DISTINCT FROM %s) AS to_embed"
        " FROM blocks WHERE document_id = %s AND is_live",
        (embed_model, document_id),
    ).fetchone()
    assert row is not None
    return StoredVersion(int(row["blocks"]), int(row["to_embed"]))


def version_blocks_kept(db: Database, document_id: str, sha: str) -> bool:
    """Whether a version with these bytes is recorded and its blocks are kept: storing them again only
    makes those blocks (and their vectors) live."""
    with db.connection() as conn:
        return conn.execute(
            "SELECT 1 FROM document_versions v WHERE v.document_id = %s AND v.sha256 = %s"
            " AND EXISTS (SELECT 1 FROM blocks b WHERE b.document_id = v.document_id AND b.doc_sha256 = v.sha256)",
            (document_id, sha),
        ).fetchone() is not None


def insert_blocks(db: Database, workflow_id: str, document_id: str, sha: str, terms: AnalysedTerms,
                  embed_model: str) -> None:
    """Copy the staged chunks of `terms.ordinals` into blocks, not live yet, with their BM25 terms: one
    batch of a document, in its own short transaction (the swap in `store_version` makes them live). A
    chunk whose text a block of any stored version of the document holds already takes that block's vector
    (embedded by `embed_model`): an edited file's unchanged passages, and a file reverted to an older
    version, are not embedded again. Looked up here, one index probe a chunk (`blocks_embedded_text_md5`),
    not in the swap: there, one join over a long document's blocks held the swap's locks (and a cancel
    waiting on them) for minutes. Under the document's blocks lock: a delete for good that committed
    meanwhile took the staged chunks with it (nothing is inserted), one that comes later waits."""
    with db.transaction() as conn:
        lock_documents_blocks(conn, [document_id])
        conn.execute(
            "INSERT INTO blocks (id, document_id, doc_sha256, ordinal, text, page, section, kind, terms,"
            " term_counts, terms_analyzer, page_label, embedding, embed_model)"
            " SELECT md5(c.document_id::text || ':' || %(sha)s || ':' || c.ordinal)::uuid, c.document_id, %(sha)s,"
            " c.ordinal, c.text, c.page, c.section, c.kind, t.terms, t.counts,"
            " CASE WHEN t.terms IS NOT NULL THEN %(analyzer)s END, c.page_label, kept.embedding, kept.embed_model"
            " FROM unnest(%(ordinals)s::int[], %(terms)s::text[], %(counts)s::bytea[]) AS t (ordinal, terms, counts)"
            " JOIN ingest_chunks c ON c.ordinal = t.ordinal AND c.workflow_id = %(wf)s AND c.document_id = %(doc)s"
            " LEFT JOIN LATERAL (SELECT o.embedding, o.embed_model FROM blocks o WHERE o.document_id = c.document_id"
            " AND o.embedding IS NOT NULL AND md5(o.text)::uuid = md5(c.text)::uuid AND o.text = c.text"
            " AND o.embed_model = %(model)s LIMIT 1) kept ON true"
            " ON CONFLICT (id) DO NOTHING",
            {"sha": sha, "analyzer": terms.fingerprint, "ordinals": terms.ordinals, "terms": terms.terms,
             "counts": terms.counts, "wf": workflow_id, "doc": document_id, "model": embed_model},
        )


def drop_unlive_blocks(db: Database, workflow_id: str, document_id: str, sha: str) -> None:
    """Delete the not-live blocks of these bytes: called only by a store step that found no kept blocks
    for them and inserted its own, so a cancelled document (or a cancelled restore of a version whose
    blocks were gone) leaves nothing half-stored that a later store would take for kept. Unless a newer
    run ingests the same bytes into the document meanwhile (the file uploaded again right after a cancel):
    its store step inserts the very same blocks (same ids, `ON CONFLICT DO NOTHING`) and counts on them."""
    with db.transaction() as conn:
        lock_documents_blocks(conn, [document_id])
        conn.execute(
            "DELETE FROM blocks WHERE document_id = %(doc)s AND doc_sha256 = %(sha)s AND NOT is_live"
            " AND NOT EXISTS (SELECT 1 FROM documents d JOIN ingest_items i ON i.workflow_id = d.last_workflow_id"
            " AND i.document_id = d.id WHERE d.id = %(doc)s AND d.last_workflow_id <> %(wf)s"
            " AND d.status IN ('queued', 'ingesting') AND i.sha256 = %(sha)s)",
            {"doc": document_id, "sha": sha, "wf": workflow_id},
        )


def store_version(db: Database, item: IngestItemRow, embed_model: str, mime: str) -> StoredVersion:
    """Make the document's blocks of this version (inserted by `insert_blocks`, or kept from an earlier
    version with the same bytes) live as a new version (or as the version being restored), in one
    transaction. A replay after the commit finds `stored_version` set.

    Flipping `is_live` on a long document's blocks takes seconds (every block enters the live indexes:
    2.8 s for 25,000), so it comes first, before the rows a cancel writes (the run, the document, the
    item) are locked: they are locked and checked last, for the few statements that record the version.
    A cancel waits for those milliseconds, never for the flip; one that got in first rolls the flip back.
    Whatever else touches the blocks (a trash, a delete for good) waits for the whole swap: the document's
    blocks lock comes before all of it (`lock_documents_blocks`)."""
    wf, doc, sha = item["workflow_id"], item["document_id"], item["sha256"]
    outcome: StoredVersion | None = None  # None: a replay, or another execution stored it meanwhile
    with db.transaction() as conn:
        lock_documents_blocks(conn, [doc])
        if _stored_version(conn, wf, doc) is None:
            conn.execute("UPDATE blocks SET is_live = (doc_sha256 = %s) WHERE document_id = %s"
                         " AND is_live IS DISTINCT FROM (doc_sha256 = %s)", (sha, doc, sha))
            conn.execute("DELETE FROM ingest_chunks WHERE workflow_id = %s AND document_id = %s", (wf, doc))
            outcome = _record_if_wanted(conn, db, item, embed_model, mime)
            if outcome is None or outcome.skipped:
                raise Rollback()  # the flip goes too: nothing of this version becomes live
    if outcome is not None:
        return outcome
    with db.connection() as conn:
        return _live_counts(conn, doc, embed_model)


def _stored_version(conn: Connection, workflow_id: str, document_id: str) -> int | None:
    row = conn.execute("SELECT stored_version FROM ingest_items WHERE workflow_id = %s AND document_id = %s",
                       (workflow_id, document_id)).fetchone()
    return None if row is None else row["stored_version"]


def _record_if_wanted(conn: Connection, db: Database, item: IngestItemRow, embed_model: str,
                      mime: str) -> StoredVersion | None:
    """The swap's last part, under the locks a cancel or a trash takes too: the version recorded with the
    live counts, `skipped` if the document is no longer wanted, None if another execution of the step
    recorded it meanwhile (the caller rolls back the last two)."""
    wf, doc, sha = item["workflow_id"], item["document_id"], item["sha256"]
    current = conn.execute(
        "SELECT d.status, d.generation, d.current_version, r.cancelled, i.stored_version"
        " FROM documents d, ingest_runs r, ingest_items i WHERE d.id = %s AND r.workflow_id = %s"
        " AND i.workflow_id = r.workflow_id AND i.document_id = d.id FOR UPDATE OF d, r, i",
        (doc, wf),
    ).fetchone()
    if current is not None and current["stored_version"] is not None:
        return None
    if (current is None or current["cancelled"] or current["status"] == "trashed"
            or current["generation"] != item["generation"]):
        return StoredVersion(0, 0, skipped=True)
    version = _record_version(conn, item, mime)
    conn.execute(
        "UPDATE documents SET sha256 = %s, stored_path = NULL, size_bytes = %s, kind = %s, mime = %s,"
        " pages = %s, language = %s, current_version = %s, status = 'ingesting', warnings = %s,"
        " page_warnings = %s, error = NULL, updated_at = now() WHERE id = %s",
        (sha, item["size_bytes"], item["kind"], mime, item["pages"], item["language"], version,
         Jsonb(item["warnings"]), Jsonb(item["page_warnings"]), doc),
    )
    conn.execute("UPDATE ingest_items SET stored_version = %s, replaced_version = %s"
                 " WHERE workflow_id = %s AND document_id = %s", (version, current["current_version"], wf, doc))
    counts = _live_counts(conn, doc, embed_model)
    record_index_change(conn, db, doc, "stored")
    return counts


def _record_version(conn: Connection, item: IngestItemRow, mime: str) -> int:
    doc = item["document_id"]
    if item["target_version"] is not None:
        conn.execute("UPDATE document_versions SET pages = %s, language = %s, warnings = %s, page_warnings = %s"
                     " WHERE document_id = %s AND version = %s",
                     (item["pages"], item["language"], Jsonb(item["warnings"]), Jsonb(item["page_warnings"]), doc,
                      item["target_version"]))
        return int(item["target_version"])
    row = conn.execute(
        "INSERT INTO document_versions (document_id, version, sha256, filename, kind, mime, size_bytes, pages,"
        " language, warnings, page_warnings) SELECT %s, coalesce(max(version), 0) + 1, %s, %s, %s, %s, %s, %s,"
        " %s, %s, %s FROM document_versions WHERE document_id = %s RETURNING version",
        (doc, item["sha256"], item["filename"], item["kind"], mime, item["size_bytes"], item["pages"],
         item["language"], Jsonb(item["warnings"]), Jsonb(item["page_warnings"]), doc),
    ).fetchone()
    assert row is not None
    return int(row["version"])


@dataclass(frozen=True)
class VersionRow:
    version: int
    filename: str
    sha256: str
    size_bytes: int | None
    pages: int | None
    kind: DocKind | None
    created_at: datetime
    current: bool


def list_versions(db: Database, document_id: UUID) -> list[VersionRow] | None:
    """Newest first; None if the document does not exist."""
    with db.connection() as conn:
        doc = conn.execute("SELECT current_version FROM documents WHERE id = %s", (document_id,)).fetchone()
        if doc is None:
            return None
        rows = conn.execute(
            "SELECT version, filename, sha256, size_bytes, pages, kind, created_at FROM document_versions"
            " WHERE document_id = %s ORDER BY version DESC",
            (document_id,),
        ).fetchall()
    return [VersionRow(**row, current=row["version"] == doc["current_version"]) for row in rows]


@dataclass(frozen=True)
class VersionFile:
    sha256: str
    filename: str
    kind: str | None
    mime: str | None


def version_file(db: Database, document_id: UUID, version: int | None) -> VersionFile | None:
    """The original behind a version (the current one when `version` is None)."""
    row = first_row(db,
        "SELECT v.sha256, CASE WHEN %s::int IS NULL THEN d.filename ELSE v.filename END AS filename, v.kind,"
        " v.mime FROM documents d JOIN document_versions v"
        " ON v.document_id = d.id AND v.version = coalesce(%s, d.current_version) WHERE d.id = %s",
        (version, version, document_id),
    )
    return None if row is None else VersionFile(**row)


RestoreOutcome = Literal["restored", "current", "needs_ingest", "no_version", "no_document", "busy"]


def restore_version(db: Database, document_id: UUID, version: int) -> RestoreOutcome:
    """Make `version` current in one transaction: its kept blocks go live, the others stop being live."""
    with db.transaction() as conn:
        lock_documents_blocks(conn, [document_id])
        doc = conn.execute("SELECT status, current_version FROM documents WHERE id = %s AND status <> 'trashed'"
                           " FOR UPDATE", (document_id,)).fetchone()
        if doc is None:
            return "no_document"
        if doc["status"] in ("queued", "ingesting"):
            return "busy"
        row = conn.execute("SELECT * FROM document_versions WHERE document_id = %s AND version = %s",
                           (document_id, version)).fetchone()
        if row is None:
            return "no_version"
        if doc["current_version"] == version:
            return "current"
        if conn.execute("SELECT 1 FROM blocks WHERE document_id = %s AND doc_sha256 = %s LIMIT 1",
                        (document_id, row["sha256"])).fetchone() is None:
            return "needs_ingest"
        _make_current(conn, document_id, row, row["warnings"])
        record_index_change(conn, db, document_id, "stored")
    return "restored"


def _make_current(conn: Connection, document_id: UUID | str, version: dict[str, Any], warnings: list[str]) -> None:
    """Within the caller's transaction (under the document's blocks lock): the recorded `version` (its
    `document_versions` row) is the document's current one, ready, its blocks the live ones."""
    conn.execute("UPDATE blocks SET is_live = (doc_sha256 = %s) WHERE document_id = %s"
                 " AND is_live IS DISTINCT FROM (doc_sha256 = %s)", (version["sha256"], document_id, version["sha256"]))
    conn.execute(
        "UPDATE documents SET current_version = %s, sha256 = %s, kind = %s, mime = %s, size_bytes = %s,"
        " pages = %s, language = %s, warnings = %s, page_warnings = %s, status = 'ready', error = NULL,"
        " updated_at = now() WHERE id = %s",
        (version["version"], version["sha256"], version["kind"], version["mime"], version["size_bytes"],
         version["pages"], version["language"], Jsonb(warnings), Jsonb(version["page_warnings"]), document_id),
    )


DeleteOutcome = Literal["deleted", "current", "no_version"]


def delete_version(db: Database, document_id: UUID, version: int) -> tuple[DeleteOutcome, list[str]]:
    """Delete a non-current version, its blocks (unless another version has the same bytes) and its
    original (unless anything else needs it); returns the originals deleted, for the caller's cache."""
    with db.transaction() as conn:
        lock_documents_blocks(conn, [document_id])
        doc = conn.execute("SELECT current_version FROM documents WHERE id = %s FOR UPDATE",
                           (document_id,)).fetchone()
        row = conn.execute("SELECT sha256 FROM document_versions WHERE document_id = %s AND version = %s",
                           (document_id, version)).fetchone()
        if doc is None or row is None:
            return "no_version", []
        if doc["current_version"] == version:
            return "current", []
        _drop_version(conn, document_id, version, row["sha256"])
        return "deleted", originals.delete_unreferenced(conn, [row["sha256"]])


def _drop_version(conn: Connection, document_id: UUID | str, version: int, sha: str) -> None:
    """Within the caller's transaction (under the document's blocks lock): a version (not current, or being
    withdrawn), and its blocks and word boxes unless another version has the same bytes. Blocks that another
    version shares (live or not) stay, so a live block goes only when its own version is withdrawn."""
    conn.execute("DELETE FROM document_versions WHERE document_id = %s AND version = %s", (document_id, version))
    conn.execute(
        "DELETE FROM blocks b WHERE b.document_id = %s AND b.doc_sha256 = %s AND NOT EXISTS"
        " (SELECT 1 FROM document_versions v WHERE v.document_id = b.document_id AND v.sha256 = b.doc_sha256)",
        (document_id, sha),
    )
    conn.execute(
        "DELETE FROM page_words w WHERE w.document_id = %s AND w.doc_sha256 = %s AND NOT EXISTS"
        " (SELECT 1 FROM document_versions v WHERE v.document_id = w.document_id AND v.sha256 = w.doc_sha256)",
        (document_id, sha),
    )


def withdraw_unfinished(db: Database, workflow_id: str, message: str) -> list[str]:
    """After a cancel, each document this run made current but not ready yet (its passages were waiting
    for or getting their vectors) goes back to what it was before the run: the version it replaced current
    again (with `message` as a warning: this run's file was not added), or, for a document that had none,
    failed with `message`. The run's version goes, with its blocks. One transaction per document; returns
    the ids of the documents withdrawn, whose live blocks changed."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT document_id::text AS document_id FROM ingest_items WHERE workflow_id = %s"
            " AND stored_version IS NOT NULL AND state NOT IN ('ready', 'skipped', 'failed')",
            (workflow_id,),
        ).fetchall()
    return [row["document_id"] for row in rows if _withdraw(db, workflow_id, row["document_id"], message)]


def _withdraw(db: Database, workflow_id: str, document_id: str, message: str) -> bool:
    # The blocks lock first, then the item, then the document: a store step takes the blocks lock before
    # anything else, and marking a document ready takes the item before the document, so none waits in a
    # circle with this. An item marked ready meanwhile is not withdrawn: its document was complete.
    with db.transaction() as conn:
        lock_documents_blocks(conn, [document_id])
        item = conn.execute(
            "UPDATE ingest_items SET state = 'failed', error = %s, updated_at = now()"
            " WHERE workflow_id = %s AND document_id = %s AND stored_version IS NOT NULL"
            " AND state NOT IN ('ready', 'skipped', 'failed')"
            " RETURNING stored_version, replaced_version, target_version, sha256",
            (message, workflow_id, document_id),
        ).fetchone()
        document = conn.execute("SELECT status, current_version FROM documents WHERE id = %s FOR UPDATE",
                                (document_id,)).fetchone()
        # A document trashed meanwhile, or made current at another version, is left as it is now.
        if (item is None or document is None or document["status"] != "ingesting"
                or document["current_version"] != item["stored_version"]):
            return False
        # The run's blocks go first, live as they are: deleting rows leaves the indexes as they are, while
        # flipping `is_live` writes every row anew (seconds for a long document) only for it to be deleted.
        if item["target_version"] is None:
            _drop_version(conn, document_id, item["stored_version"], item["sha256"])
        else:  # a restore that re-ingested a version whose blocks were gone: they are gone again
            conn.execute("DELETE FROM blocks WHERE document_id = %s AND doc_sha256 = %s", (document_id, item["sha256"]))
        replaced = None if item["replaced_version"] is None else conn.execute(
            "SELECT * FROM document_versions WHERE document_id = %s AND version = %s",
            (document_id, item["replaced_version"]),
        ).fetchone()
        if replaced is not None:
            said = replaced["warnings"]
            _make_current(conn, document_id, replaced, said if message in said else [*said, message])
        else:
            conn.execute("UPDATE blocks SET is_live = false WHERE document_id = %s AND is_live", (document_id,))
            conn.execute(
                "UPDATE documents SET current_version = NULL, sha256 = NULL, pages = NULL, language = NULL,"
                " warnings = '[]', page_warnings = '[]', status = 'failed', error = %s, updated_at = now()"
                " WHERE id = %s",
                (message, document_id),
            )
        record_index_change(conn, db, document_id, "stored")
    return True

