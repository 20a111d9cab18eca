"""SQL for block vectors: which live blocks still need one, writing them, and counting."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from backend.store.db import Database, first_row
from backend.store.documents import lock_documents_blocks, record_index_change


@dataclass(frozen=True)
class BlockText:
    id: uuid.UUID
    text: str
    document_id: str


def blocks_to_embed(
    db: Database, document_id: str, sha: str, first: int, last: int, embed_model: str
) -> list[BlockText]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT id, text, document_id::text AS document_id FROM blocks WHERE document_id = %s"
            " AND doc_sha256 = %s AND is_live AND ordinal >= %s AND ordinal < %s"
            " AND embed_model IS DISTINCT FROM %s ORDER BY ordinal",
            (document_id, sha, first, last, embed_model),
        ).fetchall()
    return [BlockText(**row) for row in rows]


# Live blocks without a vector of the model whose document no ingestion run is working on: a run in
# flight (on any process, or resumed after a takeover) embeds its own blocks, and a backfill that took
# them too only duplicated its model calls. The run starts a backfill when it ends with any left over.
_MISSING = ("FROM blocks b WHERE b.is_live AND b.embed_model IS DISTINCT FROM %(model)s AND NOT EXISTS"
            " (SELECT 1 FROM documents d WHERE d.id = b.document_id AND d.status IN ('queued', 'ingesting'))")


def next_blocks(db: Database, blocks: str, params: dict[str, Any], limit: int) -> list[BlockText]:
    """The first `limit` of `blocks` (a `FROM blocks b WHERE ...` clause with named `params`) in reading
    order: the next batch of a job that works through blocks until none is left."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT b.id, b.text, b.document_id::text AS document_id " + blocks
            + " ORDER BY b.document_id, b.ordinal LIMIT %(limit)s", {**params, "limit": limit},
        ).fetchall()
    return [BlockText(**row) for row in rows]


def missing_embeddings(db: Database, embed_model: str, limit: int) -> list[BlockText]:
    """The next `limit` blocks the backfill should embed (see `_MISSING`)."""
    return next_blocks(db, _MISSING, {"model": embed_model}, limit)


def any_missing_embeddings(db: Database, embed_model: str) -> bool:
    """Whether the backfill has any block to embed (see `_MISSING`); stops at the first one found."""
    row = first_row(db, "SELECT EXISTS (SELECT 1 " + _MISSING + ") AS missing", {"model": embed_model})
    return bool(row and row["missing"])


def write_embeddings(
    db: Database, ids: Sequence[uuid.UUID], vectors: np.ndarray, embed_model: str
) -> list[str]:
    """Store vectors for still-live blocks; returns the affected document ids (for the index feed)."""
    with db.transaction() as conn:
        docs = [row["id"] for row in conn.execute(
            "SELECT DISTINCT document_id::text AS id FROM blocks WHERE id = ANY(%s)", (list(ids),)).fetchall()]
        lock_documents_blocks(conn, docs)  # before the blocks, as a version's swap takes it
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE blocks SET embedding = %s, embed_model = %s WHERE id = %s AND is_live",
                [(vector, embed_model, block_id) for block_id, vector in zip(ids, vectors, strict=True)],
            )
        for document_id in docs:
            record_index_change(conn, db, document_id, "embedded")
    return docs


def embedded_count(db: Database, document_id: str, embed_model: str) -> int:
    row = first_row(db,
        "SELECT count(*) AS n FROM blocks WHERE document_id = %s AND is_live AND embed_model = %s",
        (document_id, embed_model),
    )
    return int(row["n"]) if row else 0


@dataclass(frozen=True)
class Backlog:
    """Live passages without a vector of the model: how many, of how many documents, the oldest's age."""

    waiting: int
    documents: int
    oldest: datetime | None


def backlog(db: Database, embed_model: str) -> Backlog:
    row = first_row(db,
        "SELECT count(*) AS waiting, count(DISTINCT document_id) AS documents, min(created_at) AS oldest"
        " FROM blocks WHERE is_live AND embed_model IS DISTINCT FROM %s",
        (embed_model,),
    )
    return Backlog(int(row["waiting"]), int(row["documents"]), row["oldest"]) if row else Backlog(0, 0, None)


def stored_since(db: Database, embed_model: str, since: datetime) -> tuple[int, int]:
    """(live passages stored since `since`, how many of them have a vector of the model)."""
    row = first_row(db,
        "SELECT count(*) AS total, count(*) FILTER (WHERE embed_model = %s) AS embedded"
        " FROM blocks WHERE is_live AND created_at >= %s",
        (embed_model, since),
    )
    return (int(row["total"]), int(row["embedded"])) if row else (0, 0)
