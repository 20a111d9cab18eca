"""The connection pool and the migration runner.

Connections are autocommit with dict rows and pgvector types registered; `Database.transaction()`
wraps several statements in one atomic transaction. Migrations are numbered, forward-only SQL files in
`store/migrations/`, applied in order at startup under an advisory lock and recorded in
`schema_migrations`, so applying them twice (or from two processes at once) changes nothing.

Migrations are append-only: each applied one is recorded with the sha256 of its file, and a start finds
an applied migration whose file changed since stops with `MigrationChanged` naming the file (a database
migrated by an edited file would differ from one migrated by the original, silently). Vaults from before
the checksums get them recorded on their first start.

A checkout consults the liveness flag (`store/liveness.py`) first: while the server is unreachable a
request fails at once with a 503 and background work waits for it to come back, instead of either of
them sitting in the pool's queue.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg_pool
from pgvector.psycopg import register_vector
from psycopg.abc import Params, QueryNoTemplate
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import set_json_dumps
from psycopg.types.string import StrBinaryDumper, StrDumper, StrDumperUnknown
from psycopg_pool import ConnectionPool, PoolTimeout
from pydantic import TypeAdapter

from backend.store.liveness import CONNECT_TIMEOUT_S, DatabaseUnavailable, Liveness, fails_fast

log = logging.getLogger(__name__)

# What store functions take and return: code outside store/ names these, never psycopg itself (an
# import-linter contract). `ForeignKeyViolation` and `PoolClosed` are re-exported for the same reason.
Connection = psycopg.Connection[DictRow]
Cursor = psycopg.Cursor[DictRow]
ForeignKeyViolation = psycopg.errors.ForeignKeyViolation
PoolClosed = psycopg_pool.PoolClosed
DatabaseError = psycopg.Error  # any failure talking to Postgres (lost connection included)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 727_001  # arbitrary constant shared by every Quire process
# A request waits this long for a free connection of a live database; background work waits this long
# for a lost database to come back before its step fails (DBOS itself waits for as long as it takes).
REQUEST_CHECKOUT_S = 10.0
BACKGROUND_WAIT_S = 600.0
_CHECKOUT_SLICE_S = 0.25
# Sessions a process holds besides its two pools: the heartbeat's (it holds the executor id's lock), the
# liveness probe's and DBOS's LISTEN session. The rest of the QUIRE_DB_CONNECTIONS budget is split between
# this pool and DBOS's (store/system_db.py); docs/benchmarks.md has the measurements.
FIXED_SESSIONS = 3
DEFAULT_POOL_SIZE = 3


@dataclass(frozen=True)
class PoolSizes:
    app: int
    dbos: int


def pool_sizes(connections: int) -> PoolSizes:
    """Split a process's connection budget: the fixed sessions, then the app's pool and DBOS's."""
    rest = max(2, connections - FIXED_SESSIONS)
    app = (rest + 1) // 2
    return PoolSizes(app=app, dbos=rest - app)

# A pool slot that cannot reconnect gives up after this; the next checkout grows the pool again, so
# recovery does not wait out a long exponential backoff.
_RECONNECT_TIMEOUT_S = 5.0


def normalise_url(url: str) -> str:
    """Accept the `postgres://` spelling some tools use; SQLAlchemy (inside DBOS) wants `postgresql://`."""
    if url.startswith("postgres://"):
        return "postgresql://" + url[len("postgres://") :]
    return url


def url_for_database(url: str, name: str) -> str:
    """The URL of database `name` on the same server as `url`."""
    return urlunsplit(urlsplit(normalise_url(url))._replace(path=f"/{name}"))


def sibling_database_url(url: str, suffix: str) -> str:
    """The URL of a database named after `url`'s plus `suffix`, e.g. DBOS's system database."""
    return url_for_database(url, database_name(url) + suffix)


def database_name(url: str) -> str:
    return urlsplit(normalise_url(url)).path.lstrip("/") or "postgres"


def _without_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_without_nul(v) for v in value]
    return value


# Postgres text and jsonb cannot hold NUL characters; input containing them (hostile or from a broken
# file) would otherwise fail with a server error. NUL carries no meaning in text, so it is dropped.
class _TextDumper(StrDumper):
    def dump(self, obj: str) -> bytes | bytearray | memoryview | None:
        return super().dump(obj.replace("\x00", ""))


class _UnknownTextDumper(StrDumperUnknown):
    def dump(self, obj: str) -> bytes | bytearray | memoryview | None:
        return super().dump(obj.replace("\x00", ""))


class _BinaryTextDumper(StrBinaryDumper):
    def dump(self, obj: str) -> bytes | bytearray | memoryview | None:
        return super().dump(obj.replace("\x00", ""))


def configure_connection(conn: psycopg.Connection[Any]) -> None:
    register_vector(conn)
    # Same roles as psycopg's defaults: the last text dumper registered ("unknown" type, so Postgres
    # infers uuid, date, ...) is the default for str.
    conn.adapters.register_dumper(str, _TextDumper)
    conn.adapters.register_dumper(str, _BinaryTextDumper)
    conn.adapters.register_dumper(str, _UnknownTextDumper)
    set_json_dumps(lambda obj: json.dumps(_without_nul(obj), default=str), context=conn)


R = TypeVar("R")


_adapters: dict[Any, TypeAdapter[Any]] = {}


def _adapter(kind: Any) -> TypeAdapter[Any]:
    """The validator of a record type, built once (building one costs far more than using it)."""
    adapter = _adapters.get(kind)
    if adapter is None:
        adapter = _adapters[kind] = TypeAdapter(kind)
    return adapter


def rows_as(kind: type[R], rows: Iterable[DictRow]) -> list[R]:
    """Rows as the record type `kind` (a TypedDict), validated where they enter Quire: a column of another
    type or a value outside a `Literal` fails here, naming the field, not as a KeyError layers above."""
    adapter: TypeAdapter[R] = _adapter(kind)
    return [adapter.validate_python(row) for row in rows]


def row_as(kind: type[R], row: DictRow | None) -> R | None:
    """One row (or none) as `kind`, validated as `rows_as` does."""
    if row is None:
        return None
    adapter: TypeAdapter[R] = _adapter(kind)
    return adapter.validate_python(row)


def fetch_rows(db: Database, kind: type[R], query: QueryNoTemplate, params: Params | None = None) -> list[R]:
    """The rows of one statement, on a connection of its own, as `kind` (see `rows_as`)."""
    with db.connection() as conn:
        return rows_as(kind, conn.execute(query, params).fetchall())


def fetch_row(db: Database, kind: type[R], query: QueryNoTemplate, params: Params | None = None) -> R | None:
    """The first row (or none) of one statement, on a connection of its own, as `kind` (see `row_as`)."""
    return row_as(kind, first_row(db, query, params))


def first_row(db: Database, query: QueryNoTemplate, params: Params | None = None) -> DictRow | None:
    """The first row (or none) of one statement, on a connection of its own."""
    with db.connection() as conn:
        return conn.execute(query, params).fetchone()


def one_as(kind: type[R], cursor: Cursor) -> R:
    """The row of a statement that always returns one, as `kind`."""
    adapter: TypeAdapter[R] = _adapter(kind)
    return adapter.validate_python(one(cursor))


def one(cursor: Cursor) -> DictRow:
    """The row of a statement that always returns one (an aggregate, `INSERT ... RETURNING`, a row this
    transaction just wrote): typed as present, and a clear error if it is not."""
    row = cursor.fetchone()
    if row is None:
        raise LookupError("the statement returned no row")
    return row


class Database:
    """The pool. `application_name` names every session this process opens (so a live process can end a
    hung one's sessions); `guard` runs on each new connection and raises to refuse it (a fenced process,
    backend/cluster/membership.py)."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = DEFAULT_POOL_SIZE, origin: str = "",
                 application_name: str = "quire", guard: Callable[[Connection], None] | None = None) -> None:
        self.url = normalise_url(url)
        self.origin = origin  # this process's executor id, stamped on the index change feed
        self.application_name = application_name
        self._guard = guard
        self._pool: ConnectionPool[Connection] = ConnectionPool(
            self.url,
            min_size=min(min_size, max_size),
            max_size=max_size,
            kwargs={"autocommit": True, "row_factory": dict_row, "connect_timeout": CONNECT_TIMEOUT_S,
                    "application_name": application_name},
            configure=self._configure,
            open=False,
            name="quire",
            reconnect_timeout=_RECONNECT_TIMEOUT_S,
        )
        # After an outage the idle connections are dead: check them all before anyone gets one.
        self.liveness = Liveness(self.url, on_recovered=self._pool.check, application_name=application_name)

    def _configure(self, conn: Connection) -> None:
        configure_connection(conn)
        if self._guard is not None:
            self._guard(conn)

    def open(self) -> None:
        apply_migrations(self.url, application_name=self.application_name)
        self._pool.open(wait=True, timeout=30)
        self.liveness.start()

    def close(self) -> None:
        self.liveness.stop()
        self._pool.close()

    def _checkout(self) -> Connection:
        """A pooled connection; see the module docstring for what happens while the server is gone."""
        fail_fast = fails_fast()
        deadline = time.monotonic() + REQUEST_CHECKOUT_S
        while True:
            if not self.liveness.is_up():
                if fail_fast or not self.liveness.wait_up(BACKGROUND_WAIT_S):
                    raise DatabaseUnavailable()
                deadline = time.monotonic() + REQUEST_CHECKOUT_S
            try:
                return self._pool.getconn(timeout=_CHECKOUT_SLICE_S)
            except PoolTimeout:
                if fail_fast and time.monotonic() > deadline:
                    raise

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        conn = self._checkout()
        try:
            with conn:  # commits or rolls back, as the pool's own context manager does
                yield conn
        except psycopg.OperationalError:
            self.liveness.suspect()
            raise
        finally:
            self._pool.putconn(conn)

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        with self.connection() as conn, conn.transaction():
            yield conn

    @contextmanager
    def bookkeeping(self) -> Iterator[Connection]:
        """A transaction for progress and log rows: committed without waiting for the disk flush.

        An app crash loses nothing (Postgres keeps running and writes them out a moment later); only a
        crash of the database server itself could drop the last few, and those are only progress.
        """
        with self.connection() as conn, conn.transaction():
            conn.execute("SET LOCAL synchronous_commit TO off")
            yield conn

    def ping(self) -> bool:
        if not self.liveness.is_up():
            return False
        try:
            with self.connection() as conn:
                conn.execute("SELECT 1")
        except (psycopg.Error, PoolTimeout, DatabaseUnavailable):
            return False
        return True


class MigrationChanged(RuntimeError):
    """An applied migration's file is not the one that was applied: the app must not start on it."""


def migration_checksum(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pending_migrations(applied: set[str], migrations_dir: Path = MIGRATIONS_DIR) -> list[Path]:
    return [p for p in sorted(migrations_dir.glob("*.sql")) if p.stem not in applied]


def _check_applied(conn: psycopg.Connection[Any], migrations_dir: Path) -> set[str]:
    """The names of the applied migrations, after checking each one's file against its recorded checksum
    (and recording the checksums a vault from before them lacks). A recorded migration without a file
    here is one a newer Quire sharing this database applied: not an edit, so not an error."""
    applied: set[str] = set()
    for version, recorded in conn.execute("SELECT version, checksum FROM schema_migrations ORDER BY version"):
        applied.add(version)
        path = migrations_dir / f"{version}.sql"
        if not path.exists():
            continue
        actual = migration_checksum(path)
        if recorded is None:
            conn.execute("UPDATE schema_migrations SET checksum = %s WHERE version = %s AND checksum IS NULL",
                         (actual, version))
        elif recorded != actual:
            raise MigrationChanged(
                f"Migration {path} was changed after it was applied to this database (sha256 recorded "
                f"{recorded[:12]}…, file now {actual[:12]}…). Migrations are append-only: restore the file "
                "as it was and put the change in a new numbered migration.")
    return applied


def apply_migrations(url: str, migrations_dir: Path = MIGRATIONS_DIR, application_name: str = "quire") -> list[str]:
    """Check the applied migrations, then apply every one not yet recorded; returns the names applied now.
    Raises `MigrationChanged` when an applied migration's file differs from the one applied."""
    done: list[str] = []
    with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                         application_name=application_name) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            # The runner's own table is bootstrapped here, not by a migration: the checksum column must
            # exist before any migration is checked or applied.
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            conn.execute("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text")
            applied = _check_applied(conn, migrations_dir)
            for path in pending_migrations(applied, migrations_dir):
                sql = path.read_bytes()  # the checksum is of exactly what runs
                with conn.transaction():
                    conn.execute(sql)
                    conn.execute("INSERT INTO schema_migrations (version, checksum) VALUES (%s, %s)",
                                 (path.stem, hashlib.sha256(sql).hexdigest()))
                log.info("applied migration %s", path.stem)
                done.append(path.stem)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return done
