"""SQL for the vault's embedding model: which one is active (every process reads it from here), a switch
to another one (its target, its staged vectors, its progress) and the flip that makes the target active.

While a switch runs, the target's vectors wait in `switch_vectors` and `blocks` keep the active model's, so
searches never mix two models and never lose their vectors. `flip` copies the staged vectors into `blocks`
and names the target active in one transaction, with writes to `blocks` held off meanwhile, and only when
the staged vectors cover every live block.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

import numpy as np
from typing_extensions import TypedDict

from backend.store.db import Connection, Database, one, one_as, row_as
from backend.store.embeddings import BlockText, next_blocks


class ModelNotActive(Exception):
    """A search for one model's vectors found another model active: the vault switched (`flip`) and the
    process asking has not followed yet. The flip overwrote those vectors, so the search would find none."""

    def __init__(self, asked: str, active: str) -> None:
        super().__init__(f"searched {asked}'s vectors, but the vault's embedding model is now {active}")


class EmbeddingModelRow(TypedDict):
    active: str  # as recorded with each vector, e.g. "ollama:embeddinggemma"
    configured: str
    target: str | None  # the model a switch is embedding with; None when no switch runs
    switch_id: int
    switch_started_at: datetime | None
    updated_at: datetime


def _read(conn: Connection, lock: bool = False) -> EmbeddingModelRow | None:
    if lock:
        cursor = conn.execute("SELECT active, configured, target, switch_id, switch_started_at, updated_at"
                              " FROM embedding_model FOR UPDATE")
    else:
        cursor = conn.execute("SELECT active, configured, target, switch_id, switch_started_at, updated_at"
                              " FROM embedding_model")
    return row_as(EmbeddingModelRow, cursor.fetchone())


def ensure(db: Database, configured: str) -> tuple[EmbeddingModelRow, bool]:
    """The state, created from the settings' model on a vault's first start; and whether the settings name
    another model than at the last start (the caller then switches to it). Vectors stored before this table
    existed were made with the settings' model, so a new vault's active model is that one."""
    with db.transaction() as conn:
        conn.execute("INSERT INTO embedding_model (active, configured) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                     (configured, configured))
        row = _read(conn, lock=True)
        assert row is not None
        if row["configured"] == configured:
            return row, False
        conn.execute("UPDATE embedding_model SET configured = %s, updated_at = now()", (configured,))
    return current(db), True


def current(db: Database) -> EmbeddingModelRow:
    with db.connection() as conn:
        row = _read(conn)
    if row is None:
        raise LookupError("the embedding model is not recorded yet (ensure runs at startup)")
    return row


def active_model(db: Database) -> str:
    """The active model alone: what every process polls."""
    with db.connection() as conn:
        return active_on(conn)


def active_on(conn: Connection) -> str:
    """`active_model` on a connection the caller holds (to act on the answer in the same session)."""
    return str(one(conn.execute("SELECT active FROM embedding_model"))["active"])


def recorded_active(conn: Connection) -> str | None:
    """`active_on`, or None in a database no Quire process has started on (a benchmark's or an evaluation's,
    which search vectors of their own model)."""
    row = conn.execute("SELECT active FROM embedding_model").fetchone()
    return None if row is None else str(row["active"])


def begin_switch(db: Database, target: str) -> EmbeddingModelRow:
    """Record `target` as the model to switch to, as a new switch (vectors staged for another target are
    dropped); switching to the active model ends any switch instead. Asking again for the target of the
    switch under way changes nothing."""
    with db.transaction() as conn:
        row = _read(conn, lock=True)
        assert row is not None
        if target == row["active"]:
            return _cancel(conn)
        if row["target"] == target:
            return row
        conn.execute("DELETE FROM switch_vectors WHERE model <> %s", (target,))
        return one_as(EmbeddingModelRow, conn.execute(
            "UPDATE embedding_model SET target = %s, switch_id = switch_id + 1, switch_started_at = now(),"
            " updated_at = now() RETURNING active, configured, target, switch_id, switch_started_at, updated_at",
            (target,)))


def cancel_switch(db: Database) -> EmbeddingModelRow:
    """End the switch under way, if any, and drop its staged vectors."""
    with db.transaction() as conn:
        return _cancel(conn)


def _cancel(conn: Connection) -> EmbeddingModelRow:
    conn.execute("DELETE FROM switch_vectors")
    return one_as(EmbeddingModelRow, conn.execute(
        "UPDATE embedding_model SET target = NULL, switch_started_at = NULL, updated_at = now()"
        " RETURNING active, configured, target, switch_id, switch_started_at, updated_at"))


def is_current(db: Database, switch_id: int, target: str) -> bool:
    """Whether switch `switch_id` to `target` is still the one under way."""
    with db.connection() as conn:
        return _still(conn, switch_id, target)


def _still(conn: Connection, switch_id: int, target: str) -> bool:
    """Whether switch `switch_id` to `target` is still the one under way (locks the row until commit)."""
    row = conn.execute("SELECT 1 FROM embedding_model WHERE switch_id = %s AND target = %s FOR SHARE",
                       (switch_id, target)).fetchone()
    return row is not None


_UNSTAGED = ("FROM blocks b WHERE b.is_live AND b.embed_model IS DISTINCT FROM %(target)s AND NOT EXISTS"
             " (SELECT 1 FROM switch_vectors s WHERE s.block_id = b.id AND s.model = %(target)s)")


def to_stage(db: Database, target: str, limit: int) -> list[BlockText]:
    """The next `limit` live blocks without a staged vector of `target`."""
    return next_blocks(db, _UNSTAGED, {"target": target}, limit)


def stage(db: Database, switch_id: int, target: str, ids: Sequence[uuid.UUID], vectors: np.ndarray) -> bool:
    """Stage vectors of `target` for these blocks, unless the switch was cancelled or replaced meanwhile
    (False). A replayed batch writes the same rows again."""
    with db.transaction() as conn:
        if not _still(conn, switch_id, target):
            return False
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO switch_vectors (block_id, model, embedding) VALUES (%s, %s, %s)"
                " ON CONFLICT (block_id) DO UPDATE SET model = excluded.model, embedding = excluded.embedding",
                [(block_id, target, vector) for block_id, vector in zip(ids, vectors, strict=True)],
            )
    return True


class SwitchProgress(TypedDict):
    done: int  # live blocks with a vector of the target
    total: int  # live blocks


def progress(db: Database, target: str) -> SwitchProgress:
    with db.connection() as conn:
        return one_as(SwitchProgress, conn.execute(
            "SELECT count(*) AS total, count(*) FILTER (WHERE b.embed_model = %(target)s OR EXISTS"
            " (SELECT 1 FROM switch_vectors s WHERE s.block_id = b.id AND s.model = %(target)s)) AS done"
            " FROM blocks b WHERE b.is_live", {"target": target}))


def flip(db: Database, switch_id: int, target: str) -> bool | None:
    """Make `target` the active model if its staged vectors cover every live block: copy them into
    `blocks`, drop the staged rows and the switch, in one transaction (True). None: the switch was
    cancelled or replaced; False: blocks still lack a vector of `target` (stored since the last batch).
    Writes to `blocks` wait for the transaction, so none lands between the check and the copy."""
    with db.transaction() as conn:
        if not _still(conn, switch_id, target):
            return None
        conn.execute("LOCK TABLE blocks IN SHARE ROW EXCLUSIVE MODE")
        if conn.execute("SELECT 1 " + _UNSTAGED + " LIMIT 1", {"target": target}).fetchone() is not None:
            return False
        conn.execute(
            "UPDATE blocks b SET embedding = s.embedding, embed_model = s.model FROM switch_vectors s"
            " WHERE s.block_id = b.id AND s.model = %s", (target,))
        conn.execute("DELETE FROM switch_vectors")
        conn.execute("UPDATE embedding_model SET active = %s, target = NULL, switch_started_at = NULL,"
                     " updated_at = now()", (target,))
    return True
