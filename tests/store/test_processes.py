"""Whether a process may judge the others (`store.processes.beating_steadily`): only once it has itself
beaten without a gap for a whole window, up to now. Just after a database outage its row still shows the
steady beating of before until its own heartbeat reconnects; another of its threads reaching the database
first must not take that for steadiness (it once fenced a living process, seen in
tests/cluster/test_processes.py's outage test)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from backend.store import processes as store
from backend.store.db import Connection, Database
from tests.support.postgres import ThrowawayPostgres

WINDOW_S = 3.0


@pytest.fixture
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    database = Database(postgres.fresh_database(), min_size=1, max_size=2)
    database.open()
    yield database
    database.close()


def _me() -> store.Registration:
    return store.Registration(f"test-{uuid.uuid4().hex[:8]}", uuid.uuid4(), "server", "host", os.getpid(), None)


def _rewind(conn: Connection, me: store.Registration, beating_for_s: float, silent_for_s: float) -> None:
    conn.execute("UPDATE quire_processes SET beating_since = now() - make_interval(secs => %s),"
                 " last_seen = now() - make_interval(secs => %s) WHERE executor_id = %s",
                 (beating_for_s, silent_for_s, me.executor_id))


def test_a_process_whose_heartbeat_has_not_come_back_after_an_outage_is_not_steady(db: Database) -> None:
    me = _me()
    with db.connection() as conn:
        store.register(conn, me)
        _rewind(conn, me, beating_for_s=60, silent_for_s=0.2)
        assert store.beating_steadily(conn, me, WINDOW_S, WINDOW_S)  # a minute of beats, the last just now

        _rewind(conn, me, beating_for_s=60, silent_for_s=7)  # the database was away for 7 s
        assert not store.beating_steadily(conn, me, WINDOW_S, WINDOW_S)

        assert store.heartbeat(conn, me, WINDOW_S)  # back: the first beat after the gap starts a new run
        assert not store.beating_steadily(conn, me, WINDOW_S, WINDOW_S)
        _rewind(conn, me, beating_for_s=WINDOW_S + 1, silent_for_s=0.2)
        assert store.beating_steadily(conn, me, WINDOW_S, WINDOW_S)
        assert not store.beating_steadily(conn, me, 2 * WINDOW_S, WINDOW_S)  # not yet long enough to fence
