"""The embedded PostgreSQL 16 + pgvector server (the `pgserver` package), used when DATABASE_URL is unset.

Its data lives under `<data dir>/postgres`; it listens only on a Unix socket inside that folder. The
server is stopped when the last process using it exits normally (Ctrl-C or SIGTERM); after a crash the
next start finds the still-running server (or its stale pid file), carries on, and stops it on exit.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

APP_DATABASE = "quire"


def start_embedded_postgres(pgdata: Path) -> str:
    """Start (or attach to) the server in `pgdata`; returns the URL of the app database."""
    _ensure_runtime_dir()
    import pgserver

    logging.getLogger("pgserver").setLevel(logging.WARNING)  # it logs every pg_ctl call at INFO

    pgdata.parent.mkdir(parents=True, exist_ok=True)
    _forget_dead_handles(pgdata)
    server = pgserver.get_server(pgdata, cleanup_mode="stop")
    admin_url = server.get_uri("postgres")
    ensure_database(admin_url, APP_DATABASE)
    return server.get_uri(APP_DATABASE)


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


def _ensure_runtime_dir() -> None:
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
