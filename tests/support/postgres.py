"""The throwaway Postgres for the test suite: an embedded pgserver in a temp folder, or the server
named by TEST_DATABASE_URL. Every Quire server under test gets a fresh database on it."""

from __future__ import annotations

import os
import signal
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
import psycopg
from psycopg import sql

from backend.store.db import Database, normalise_url, url_for_database
from backend.store.embedded import ensure_runtime_dir


class ThrowawayPostgres:
    def __init__(self) -> None:
        self._server = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._killed: int | None = None  # the postmaster kill_postmaster() killed
        url = os.environ.get("TEST_DATABASE_URL")
        if url:
            self.admin_url = normalise_url(url)
        else:
            ensure_runtime_dir()
            import pgserver

            # A short path keeps the Unix socket path under the OS limit.
            self._tmp = tempfile.TemporaryDirectory(prefix="qpg", dir="/tmp")
            self._server = pgserver.get_server(Path(self._tmp.name) / "pg", cleanup_mode="delete")
            self.admin_url = self._server.get_uri("postgres")
        self.created: list[str] = []

    def fresh_database(self, prefix: str = "quire_test") -> str:
        name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        self.created.append(name)
        return url_for_database(self.admin_url, name)

    @contextmanager
    def open_database(self, prefix: str = "quire_test", **pool: Any) -> Iterator[Database]:
        """Quire's connection pool on a fresh, migrated database; closed afterwards."""
        database = Database(self.fresh_database(prefix), **pool)
        database.open()
        try:
            yield database
        finally:
            database.close()

    def kill_postmaster(self) -> None:
        """SIGKILL the embedded server's postmaster (a crash); `start_again()` brings it back."""
        assert self._server is not None, "only the embedded server can be killed"
        pid = self._server.get_pid()
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        self._killed = pid

    def start_again(self) -> None:
        """Start the killed server again, once its postmaster is gone: pgserver takes a dead one that
        was not reaped yet (a zombie, for a second or two here) for a running server and starts none."""
        assert self._server is not None
        deadline = time.monotonic() + 30
        while self._killed is not None and psutil.pid_exists(self._killed):
            assert time.monotonic() < deadline, f"the killed postmaster {self._killed} never went away"
            time.sleep(0.1)
        self._killed = None
        self._server.ensure_postgres_running()

    def close(self) -> None:
        if self._server is not None:
            self._server.cleanup()
        if self._tmp is not None:
            self._tmp.cleanup()
