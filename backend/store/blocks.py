"""SQL that feeds the in-memory index: live blocks with their document's metadata, cached BM25 terms, and
the change feed.

Vectors come as pgvector's binary send format (`vector_send`: 2-byte dimension, 2 unused bytes, then
big-endian float4s) so a whole batch decodes with one numpy call (see `decode_vectors`) instead of one
Python object per row; `terms` and `term_counts` are returned only where `terms_analyzer` matches the
caller's analyser.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from typing_extensions import TypedDict

from backend.store.db import Database, fetch_rows, one

_LIVE_BLOCKS = """
    SELECT b.id::text AS id, b.document_id::text AS document_id, d.filename, d.category, b.ordinal, b.page,
           b.section, b.kind, b.text, b.page_label, d.kind AS document_kind,
           CASE WHEN b.embed_model = %(model)s THEN vector_send(b.embedding) END AS vector,
           CASE WHEN b.terms_analyzer = %(analyzer)s THEN b.terms END AS terms,
           CASE WHEN b.terms_analyzer = %(analyzer)s THEN b.term_counts END AS term_counts
    FROM blocks b JOIN documents d ON d.id = b.document_id
    WHERE b.is_live AND d.status <> 'trashed'
"""


def iter_live_blocks(db: Database, embed_model: str, analyzer: str | None = None, batch_rows: int = 5000,
                     document_ids: Sequence[str] | None = None) -> Iterator[list[dict[str, Any]]]:
    """All live blocks (or those of `document_ids`) in batches (binary transfer), read through a cursor on
    the server: a long document's rows never sit in memory at once. `terms` only where cached by analyser
    `analyzer`."""
    only = "" if document_ids is None else " AND b.document_id = ANY(%(ids)s::uuid[])"
    with db.connection() as conn, conn.transaction():
        cursor = conn.cursor(name="live_blocks", binary=True)
        cursor.execute(_LIVE_BLOCKS + only + " ORDER BY b.document_id, b.ordinal",
                       {"model": embed_model, "analyzer": analyzer, "ids": list(document_ids or [])})
        while rows := cursor.fetchmany(batch_rows):
            yield rows


def live_blocks_of(db: Database, document_ids: Sequence[str], embed_model: str,
                   analyzer: str | None = None) -> list[dict[str, Any]]:
    """The live blocks of these documents, all at once (`iter_live_blocks`, gathered)."""
    return [row for rows in iter_live_blocks(db, embed_model, analyzer, document_ids=document_ids) for row in rows]


class BlockCopyRow(TypedDict):
    hit: str  # the block asked about
    id: str  # a live block of its document with the same text (the hit itself among them)
    document_id: str
    filename: str
    ordinal: int
    page: int | None
    section: str | None
    kind: str
    text: str
    page_label: str | None
    document_kind: str | None


def live_block_copies(db: Database, block_ids: Sequence[str]) -> list[BlockCopyRow]:
    """What search hits show of these blocks, for those still live, each with every live block of its
    document holding the very same text (migration 0020's index), in reading order: one round trip per
    batch of hits, an index lookup per hit and one per hit's text."""
    return fetch_rows(db, BlockCopyRow,
        "SELECT h.id::text AS hit, c.id::text AS id, c.document_id::text AS document_id, d.filename,"
        " c.ordinal, c.page, c.section, c.kind, c.text, c.page_label, d.kind AS document_kind"
        " FROM blocks h JOIN documents d ON d.id = h.document_id"
        " JOIN blocks c ON c.document_id = h.document_id AND md5(c.text)::uuid = md5(h.text)::uuid AND c.is_live"
        " WHERE h.id = ANY(%s::uuid[]) AND h.is_live AND d.status <> 'trashed'"
        " ORDER BY h.id, c.ordinal",
        (list(block_ids),),
    )


def decode_vectors(raw: Sequence[bytes]) -> np.ndarray:
    """(n, d) float32 from `vector` values of one dimension (as `iter_live_blocks` returns them)."""
    if not raw:
        return np.zeros((0, 0), dtype=np.float32)
    size = len(raw[0])
    if any(len(r) != size for r in raw):
        raise ValueError("vectors of different dimensions in one batch")
    # The 4-byte header is exactly one float4 slot: drop that column.
    return np.frombuffer(b"".join(raw), dtype=">f4").reshape(len(raw), size // 4)[:, 1:].astype(np.float32)


def save_terms(db: Database, analyzer: str, terms: Sequence[tuple[str, str, bytes]]) -> None:
    """Cache (block id, terms, term counts) made by analyser `analyzer` (a block id's text never changes)."""
    if not terms:
        return
    with db.transaction() as conn:
        conn.execute("CREATE TEMP TABLE block_terms (id uuid, terms text, term_counts bytea) ON COMMIT DROP")
        with conn.cursor().copy("COPY block_terms (id, terms, term_counts) FROM STDIN") as copy:
            for row in terms:
                copy.write_row(row)
        conn.execute("UPDATE blocks b SET terms = t.terms, term_counts = t.term_counts, terms_analyzer = %s"
                     " FROM block_terms t WHERE b.id = t.id", (analyzer,))


def latest_change(db: Database) -> int:
    with db.connection() as conn:
        row = one(conn.execute("SELECT coalesce(max(seq), 0) AS seq FROM index_changes"))
    return int(row["seq"])


def changes_since(db: Database, seq: int, limit: int = 10_000) -> list[dict[str, Any]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT seq, document_id::text AS document_id, origin FROM index_changes WHERE seq > %s"
            " ORDER BY seq LIMIT %s",
            (seq, limit),
        ).fetchall()
