"""The SQLAlchemy engine DBOS uses for its system database (`<db>_dbos`), built by Quire instead of DBOS.

DBOS accepts an engine of the application's own (`system_database_engine`, a public config key). Quire
builds it for three reasons: the pool has a size chosen for many processes sharing one server (DBOS's
default is 20 per process), every session carries this instance's `application_name` (so a live process
can end a hung one's sessions), and each new connection runs the fence guard first — a process that was
fenced while it hung must not write DBOS's records either. The rest is what DBOS sets on its own engine:
the psycopg driver, no overflow, pre-ping, and an idle-in-transaction timeout.

A fourth: a connection that cannot be opened is reported to DBOS as a lost one. DBOS waits out a lost
connection and retries its write; it tells one from other errors by the driver's message ("connection
failed"), and psycopg words a refused socket "connection is bad: … Connection refused", which DBOS took
for a real error: a document workflow whose last write fell in the second the embedded Postgres was
restarting ended its thread without recording its outcome, and its run waited for it until Quire was
restarted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
import sqlalchemy as sa

from backend.store.liveness import CONNECT_TIMEOUT_S

# DBOS's own default for its sessions: a session idle inside a transaction this long is ended by Postgres.
_IDLE_IN_TRANSACTION_MS = 60_000
_POOL_TIMEOUT_S = 30


def system_engine(url: str, *, pool_size: int, application_name: str, guard: Callable[[], None]) -> sa.Engine:
    engine = sa.create_engine(
        sa.make_url(url).set(drivername="postgresql+psycopg"),
        pool_size=pool_size, max_overflow=0, pool_timeout=_POOL_TIMEOUT_S, pool_pre_ping=True,
        connect_args={"application_name": application_name, "connect_timeout": CONNECT_TIMEOUT_S},
    )

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        guard()
        with dbapi_conn.cursor() as cursor:
            cursor.execute(f"SET idle_in_transaction_session_timeout = {_IDLE_IN_TRANSACTION_MS}")
        dbapi_conn.commit()  # the pool rolls a returned connection back, which would undo a bare SET

    @sa.event.listens_for(engine, "handle_error")
    def _on_error(context: sa.engine.ExceptionContext) -> None:
        # Opening a connection failed (the driver's error, not the fence guard's): as DBOS's own check
        # intends for any failure to connect ("connection failed"), its write waits for the server.
        if context.connection is None and isinstance(context.original_exception, psycopg.OperationalError):
            context.is_disconnect = True

    return engine


@dataclass(frozen=True)
class WorkflowCount:
    status: str
    queue_name: str | None
    count: int


def workflow_counts(engine: sa.Engine) -> list[WorkflowCount]:
    """DBOS's workflows counted by status and queue, from its documented system table
    `dbos.workflow_status` (one grouped scan: listing them through DBOS would load every row)."""
    with engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT status, queue_name, count(*) FROM dbos.workflow_status GROUP BY status, queue_name")).all()
    return [WorkflowCount(str(status), queue, int(count)) for status, queue, count in rows]
