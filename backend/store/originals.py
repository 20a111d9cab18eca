"""SQL for originals: the bytes of every uploaded file, content-addressed by SHA-256, in Postgres.

Stored in 1 MiB `bytea` chunks so that every Quire process on the database can serve and re-ingest any
original (each keeps a local read-through cache, see `backend/ingest/files.py`). An original and all
its chunks are written in one transaction, so an `originals` row means the bytes are complete; writing
one that exists already changes nothing (two identical uploads in parallel: the second waits on the
first's primary key, then finds it done).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from backend.store.db import Connection, Database, first_row

CHUNK_BYTES = 1024 * 1024


def write_original(db: Database, sha256: str, source: BinaryIO, size_bytes: int) -> bool:
    """Store the bytes of `source` (whose digest the caller checked) unless stored; True if written now."""
    with db.transaction() as conn:
        created = conn.execute(
            "INSERT INTO originals (sha256, size_bytes) VALUES (%s, %s) ON CONFLICT (sha256) DO NOTHING"
            " RETURNING sha256",
            (sha256, size_bytes),
        ).fetchone()
        if created is None:
            return False
        with conn.cursor().copy("COPY original_chunks (sha256, seq, data) FROM STDIN") as copy:
            seq = 0
            while data := source.read(CHUNK_BYTES):
                copy.write_row((sha256, seq, data))
                seq += 1
    return True


def has_original(db: Database, sha256: str) -> bool:
    with db.connection() as conn:
        return conn.execute("SELECT 1 FROM originals WHERE sha256 = %s", (sha256,)).fetchone() is not None


def original_size(db: Database, sha256: str) -> int | None:
    row = first_row(db, "SELECT size_bytes FROM originals WHERE sha256 = %s", (sha256,))
    return None if row is None else int(row["size_bytes"])


def iter_chunks(db: Database, sha256: str) -> Iterator[bytes]:
    """The original's bytes in order, one chunk per query (memory stays at one chunk)."""
    seq = 0
    while True:
        row = first_row(db, "SELECT data FROM original_chunks WHERE sha256 = %s AND seq = %s", (sha256, seq))
        if row is None:
            return
        yield bytes(row["data"])
        seq += 1


# An ingest item needs its original until it is stored (then a version points at it) or skipped; a failed
# one keeps it for Retry.
_NEEDED = """
    EXISTS (SELECT 1 FROM document_versions v WHERE v.sha256 = o.sha256)
    OR EXISTS (SELECT 1 FROM ingest_items i WHERE i.sha256 = o.sha256 AND i.state NOT IN ('ready', 'skipped'))
"""


def delete_unreferenced(conn: Connection, shas: Iterable[str]) -> list[str]:
    """Within the caller's transaction: delete those of `shas` that nothing needs any more.

    The rows are locked first and the references checked in a later statement, so an upload that
    registered the same bytes meanwhile (it holds `lock_for_reference`'s share lock) is seen."""
    candidates = sorted(set(shas))
    if not candidates:
        return []
    conn.execute("SELECT sha256 FROM originals WHERE sha256 = ANY(%s) ORDER BY sha256 FOR UPDATE", (candidates,))
    rows = conn.execute(
        f"DELETE FROM originals o WHERE o.sha256 = ANY(%s) AND NOT ({_NEEDED}) RETURNING o.sha256",  # noqa: S608
        (candidates,),
    ).fetchall()
    return [row["sha256"] for row in rows]


def lock_for_reference(conn: Connection, shas: Iterable[str]) -> set[str]:
    """Within a transaction about to point at these originals: hold them against deletion until it
    commits; returns those that are missing (deleted meanwhile: the caller stores them again)."""
    wanted = sorted(set(shas))
    rows = conn.execute("SELECT sha256 FROM originals WHERE sha256 = ANY(%s) ORDER BY sha256 FOR KEY SHARE",
                        (wanted,)).fetchall()
    return set(wanted) - {row["sha256"] for row in rows}


def drop_if_unreferenced(db: Database, shas: Sequence[str]) -> list[str]:
    """Delete originals written for an upload that was then not registered (a name conflict found late)."""
    with db.transaction() as conn:
        return delete_unreferenced(conn, shas)


def sweep_orphans(db: Database, older_than_s: float) -> list[str]:
    """Delete originals nothing needs that are older than a request can take (a crash between storing the
    bytes and registering the upload leaves such orphans)."""
    with db.transaction() as conn:
        rows = conn.execute(
            f"SELECT sha256 FROM originals o WHERE created_at < now() - make_interval(secs => %s)"  # noqa: S608
            f" AND NOT ({_NEEDED})",
            (older_than_s,),
        ).fetchall()
        return delete_unreferenced(conn, [row["sha256"] for row in rows])


def known_shas(db: Database, shas: Sequence[str]) -> set[str]:
    if not shas:
        return set()
    with db.connection() as conn:
        rows = conn.execute("SELECT sha256 FROM originals WHERE sha256 = ANY(%s)", (list(shas),)).fetchall()
    return {row["sha256"] for row in rows}


def legacy_files(db: Database) -> list[tuple[str, Path]]:
    """(sha256, path) of files from before originals lived in Postgres: stored versions (`docs/<name>`)
    and files staged for a run that was still in flight when the vault was upgraded."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT DISTINCT d.sha256, d.stored_path AS path FROM documents d"
            " WHERE d.stored_path IS NOT NULL AND d.sha256 IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM originals o WHERE o.sha256 = d.sha256)"
            " UNION SELECT DISTINCT i.sha256, i.pending_path AS path FROM ingest_items i"
            " WHERE i.pending_path IS NOT NULL AND i.state NOT IN ('ready', 'skipped', 'failed')"
            " AND NOT EXISTS (SELECT 1 FROM originals o WHERE o.sha256 = i.sha256)"
        ).fetchall()
    return [(row["sha256"], Path(row["path"])) for row in rows]


def forget_legacy_path(db: Database, sha256: str) -> None:
    with db.connection() as conn:
        conn.execute("UPDATE documents SET stored_path = NULL WHERE sha256 = %s AND stored_path IS NOT NULL",
                     (sha256,))
