"""The engine DBOS writes its records through: a server that cannot be reached is a lost connection, which
DBOS waits out and retries (its documented behaviour for a lost database) instead of failing the write."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from backend.store.system_db import system_engine


def _engine(url: str) -> sa.Engine:
    return system_engine(url, pool_size=1, application_name="quire-test", guard=lambda: None)


def _connect_error(engine: sa.Engine) -> sa.exc.DBAPIError:
    with pytest.raises(sa.exc.DBAPIError) as raised:
        engine.connect().close()
    return raised.value


def test_a_server_that_is_not_there_is_a_lost_connection(tmp_path: Path) -> None:
    # The socket of a server being restarted refuses (psycopg: "connection is bad: … Connection refused",
    # without a SQLSTATE): a workflow's last write must wait for the server, not end the workflow's thread.
    engine = _engine(f"postgresql://postgres:@/quire?host={tmp_path}")
    try:
        error = _connect_error(engine)
    finally:
        engine.dispose()
    assert error.connection_invalidated, error
