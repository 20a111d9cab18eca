"""The embedded PostgreSQL 16 + pgvector server (the `pgserver` package), used when DATABASE_URL is unset.

Its data lives under `<data dir>/postgres`; it listens only on a Unix socket inside that folder. The
server is stopped when the last process using it exits normally (Ctrl-C or SIGTERM); after a crash the
next start finds the still-running server (or its stale pid file), carries on, and stops it on exit.

While Quire runs, a supervisor thread watches the postmaster: if it dies (killed, out of memory) the
server is started again on the same data folder and socket, after Postgres's own crash recovery, and the
pool and DBOS reconnect by themselves. Several Quire processes sharing the data folder may all try; the
first wins and the others find it running.
"""

from __future__ import annotations

import logging
import os
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

APP_DATABASE = "quire"
WATCH_INTERVAL_S = 0.5

_supervisors: list[PostmasterSupervisor] = []
_handles: list[Any] = []  # this process's pgserver handles (PostgresServer; pgserver ships no type hints)


def start_embedded_postgres(pgdata: Path) -> str:
    """Start (or attach to) the server in `pgdata`; returns the URL of the app database."""
    ensure_runtime_dir()
    import pgserver

    logging.getLogger("pgserver").setLevel(logging.WARNING)  # it logs every pg_ctl call at INFO

    pgdata.parent.mkdir(parents=True, exist_ok=True)
    _forget_dead_handles(pgdata)
    server = pgserver.get_server(pgdata, cleanup_mode="stop")
    _handles.append(server)
    admin_url = server.get_uri("postgres")
    ensure_database(admin_url, APP_DATABASE)
    _supervisors.append(PostmasterSupervisor(pgdata.resolve()).start())
    return server.get_uri(APP_DATABASE)


def close_embedded_postgres() -> None:
    """Close this process's handles on the server: pgserver stops it when the last process using it closes
    its handle. (Its own exit hook would do the same, but the process may end without exit hooks: see
    `app.end_process`.)"""
    while _handles:
        _handles.pop().cleanup()


def stop_supervising() -> None:
    """Stop restarting the server (before shutdown, when it is stopped on purpose)."""
    while _supervisors:
        _supervisors.pop().stop()


class PostmasterSupervisor:
    """Restarts the embedded server whenever its postmaster is gone."""

    def __init__(self, pgdata: Path) -> None:
        self.pgdata = pgdata
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="quire-postgres-supervisor", daemon=True)

    def start(self) -> PostmasterSupervisor:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=15)

    def _run(self) -> None:
        down_since: float | None = None
        while not self._stop.wait(WATCH_INTERVAL_S):
            if _postmaster_alive(self.pgdata):
                continue
            if down_since is None:
                down_since = time.monotonic()
                log.warning("the embedded Postgres in %s has stopped; starting it again", self.pgdata)
            self._restart()
            if _postmaster_alive(self.pgdata):
                log.warning("the embedded Postgres is running again (%.1f s)", time.monotonic() - down_since)
                down_since = None

    def _restart(self) -> None:
        """One attempt. Until the dead postmaster is reaped pgserver still sees it running and does nothing;
        the next tick tries again."""
        import pgserver

        try:
            # The handle from startup; it re-reads postmaster.pid and runs pg_ctl only if nobody else has.
            server = pgserver.get_server(self.pgdata, cleanup_mode="stop")
            # Run as root, pgserver starts Postgres as its own user and first opens up the folders above the
            # data folder for it; something may have closed them since (pytest resets its temp root to 0700).
            server.ensure_pgdata_inited()
            server.ensure_postgres_running()
        except (subprocess.SubprocessError, OSError, AssertionError) as exc:
            # Often the dead server's last processes are still exiting; the next tick tries again.
            log.warning("restarting the embedded Postgres failed, retrying: %s", exc)


def _postmaster_alive(pgdata: Path) -> bool:
    import psutil
    from pgserver.utils import PostmasterInfo

    try:
        info = PostmasterInfo.read_from_pgdata(pgdata)
    except (OSError, ValueError, AssertionError):  # being rewritten by a starting server
        return True
    if info is None or info.process is None:
        return False
    try:
        return info.process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _forget_dead_handles(pgdata: Path) -> None:
    """Drop crashed processes from pgserver's list of processes using the server.

    pgserver stops the server when the last listed process exits; a process killed without running its
    exit hooks stays listed, and the server would then never be stopped again."""
    from pgserver.utils import DiskList, process_is_running

    handles = DiskList(pgdata / ".handle_pids.json")  # the list pgserver itself keeps there
    pids = handles.get()
    alive = [pid for pid in pids if process_is_running(pid)]
    if alive != pids:
        handles.put(alive)


def ensure_runtime_dir() -> None:
    """pgserver keeps a machine-wide lock file in the XDG runtime dir, which root shells and CI lack."""
    if os.environ.get("XDG_RUNTIME_DIR"):
        return
    path = Path(tempfile.gettempdir()) / f"quire-runtime-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    os.environ["XDG_RUNTIME_DIR"] = str(path)


def ensure_database(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            log.info("created database %s", name)
