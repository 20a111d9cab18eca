"""This process's membership among the Quire processes sharing one database: claim the executor id,
heartbeat, notice being fenced; the watching of the others is `takeover.py`.

- **Claim** (before the migrations, so a duplicate is refused at once): the process takes a session
  advisory lock named after its id on a connection it keeps open. A second live process with the same id
  cannot take it and refuses to start; a crashed one releases it with its connection, so its restart is
  never blocked. **Register** (after the migrations) writes the process's row.
- **Heartbeat**: a thread of its own does nothing but refresh `last_seen` every `Settings.heartbeat_s` (a
  twelfth of `QUIRE_TAKEOVER_AFTER_S`) on that same connection, and touch `<data dir>/heartbeat.json` (the
  container health check reads it). It needs no pool connection, no DBOS call and no model, so a busy
  process still beats: only a process that is stopped (SIGSTOP, a frozen VM), cut off from the database,
  or starved of the CPU for whole minutes falls silent. "Silent" means exactly that its beat stopped
  reaching the database.
- **Fenced**: a live process may fence a process that stayed silent past the fence bound while its
  session stayed open (`takeover.py`). Every session of the fenced instance is ended, and every new
  connection it opens is refused by the guard (`guard_connection`, `guard_system_database`), which checks
  the row first. The fenced process, when it runs again, is told by its next beat or its next connection,
  writes nothing more, prints one line and exits (`on_fenced`), to be started again by its supervisor.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from backend.store import processes as store
from backend.store.db import Connection, DatabaseError
from backend.store.processes import FenceNotice, ProcessMode, Registration

if TYPE_CHECKING:
    from backend.cluster.takeover import Watcher
    from backend.store.db import Database

log = logging.getLogger(__name__)

# A restart right after a crash may find its lock still held for a moment: Postgres notices the dead
# connection quickly but not instantly; another process may also hold it briefly while taking over.
_CLAIM_PATIENCE_HEARTBEATS = 3
HEARTBEAT_FILE = "heartbeat.json"
# The exit status of a fenced process: EX_TEMPFAIL, "try again later" — a supervisor starts it again.
FENCED_EXIT_CODE = 75
_EXITING = threading.Lock()  # held by the thread ending a fenced process


class DuplicateExecutorError(SystemExit):
    """Another live process already runs under this executor id."""


class Fenced(RuntimeError):
    """This process was fenced (or replaced under its id): it may not open connections any more."""


class Membership:
    def __init__(self, database_url: str, executor_id: str, mode: ProcessMode, *, heartbeat_s: float,
                 takeover_after_s: float, data_dir: Path, address: str | None = None,
                 on_fenced: Callable[[str], None] | None = None) -> None:
        self.url = database_url
        self.me = Registration(executor_id, uuid.uuid4(), mode, socket.gethostname(), os.getpid(), address)
        self.heartbeat_s = heartbeat_s
        self.takeover_after_s = takeover_after_s
        self.heartbeat_file = data_dir / HEARTBEAT_FILE
        self.on_fenced = on_fenced or exit_fenced
        self.session_name = store.session_name(self.me.instance_id)
        self._conn: Connection | None = None
        self._locked = False
        self._armed = False  # the guard checks connections once this instance's row is written
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.watcher: Watcher | None = None

    @property
    def executor_id(self) -> str:
        return self.me.executor_id

    def claim(self) -> None:
        """Take the executor id for this process, or refuse to start if a live process has it."""
        conn = store.open_lock_connection(self.url, self.session_name)
        deadline = time.monotonic() + _CLAIM_PATIENCE_HEARTBEATS * self.heartbeat_s
        while not store.try_lock_executor(conn, self.executor_id):
            if time.monotonic() >= deadline:
                conn.close()
                raise DuplicateExecutorError(self._duplicate_message())
            time.sleep(0.5)
        self._conn, self._locked = conn, True

    def _duplicate_message(self) -> str:
        holder = ""
        try:
            with store.open_lock_connection(self.url, self.session_name) as conn:
                row = store.describe(conn, self.executor_id)
        except DatabaseError:  # its table may not exist yet: the holder is starting on a fresh database too
            row = None
        if row is not None:
            holder = f" (the {row['mode']} with pid {row['pid']} on {row['hostname']})"
        return (f"Another live Quire process already uses executor id {self.executor_id!r}{holder}. "
                "Every process sharing a database needs its own id: give each its own QUIRE_DATA_DIR, "
                "or set a distinct QUIRE_EXECUTOR_ID.")

    def register(self) -> None:
        """Write this instance's row (after the migrations). An earlier instance under this id that lost its
        lock without dying (its lock connection dropped) must not work on beside this one: its sessions end."""
        assert self._conn is not None, "claim() first"
        previous = store.previous_instance(self._conn, self.executor_id)
        if previous is not None and previous != self.me.instance_id:
            ended = store.end_instance_sessions(self._conn, previous)
            if ended:
                log.warning("ended %d sessions an earlier instance of %s still had open", ended, self.executor_id)
        store.register(self._conn, self.me)
        self._armed = True

    def start(self, db: Database) -> None:
        """Heartbeat, and watch for silent processes; call after DBOS has launched."""
        from backend.cluster.takeover import Watcher  # it resumes workflows through DBOS

        self._beat_file()
        self._thread = threading.Thread(target=self._run, name="quire-heartbeat", daemon=True)
        self._thread.start()
        self.watcher = Watcher(self, db)
        self.watcher.start()

    def stop(self) -> None:
        self._stop.set()
        if self.watcher is not None:
            self.watcher.stop()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._conn is not None:
            try:
                store.mark_stopped(self._conn, self.me)
            except DatabaseError:
                log.warning("could not record this process as stopped", exc_info=True)
            self._conn.close()  # releases the executor id's lock
            self._conn = None
        self.heartbeat_file.unlink(missing_ok=True)

    def _run(self) -> None:
        while not self._stop.wait(self.heartbeat_s):
            for attempt in (1, 2):  # a lost connection is replaced at once: its end may mean a fence
                try:
                    self.beat()
                    break
                except DatabaseError as exc:
                    self._drop_connection()
                    if attempt == 2:
                        log.warning("heartbeat failed (%s); retrying", first_line(exc))

    def beat(self) -> None:
        if self._conn is None:
            self._conn = store.open_lock_connection(self.url, self.session_name)
        if not self._locked:
            self._locked = self._relock(self._conn)
        if not store.heartbeat(self._conn, self.me, self.takeover_after_s):
            self._fenced(store.fence_notice(self._conn, self.me) or FenceNotice(None, None, replaced=True))
            return
        self._beat_file()

    def _relock(self, conn: Connection) -> bool:
        """Take the id's lock again after the connection holding it was lost. The beat goes on without it
        (the row's instance id says who this is); the lock only keeps a duplicate from starting."""
        if store.try_lock_executor(conn, self.executor_id):
            return True
        if store.end_own_stale_lock(conn, self.executor_id, self.session_name):
            return store.try_lock_executor(conn, self.executor_id)
        return False

    def _drop_connection(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn, self._locked = None, False

    def _beat_file(self) -> None:
        """What `python -m backend.cluster.healthcheck` reads: written after every beat that reached Postgres."""
        record = {"executor_id": self.executor_id, "mode": self.me.mode, "pid": self.me.pid,
                  "address": self.me.address, "heartbeat_s": self.heartbeat_s, "silent_after_s": self.takeover_after_s,
                  "beat_at": time.time()}
        try:
            self.heartbeat_file.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.heartbeat_file.parent, prefix=".heartbeat-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(record, handle)
            os.replace(tmp, self.heartbeat_file)
        except OSError:  # a full or read-only disk must not stop the beat that matters, the one in Postgres
            log.warning("could not write %s", self.heartbeat_file, exc_info=True)

    def guard_connection(self, conn: Connection) -> None:
        """The pool's check of each new connection (to the app database): refuse it if fenced."""
        if self._armed:
            notice = store.fence_notice(conn, self.me)
            if notice is not None:
                self._fenced(notice)

    def guard_system_database(self) -> None:
        """The same check for a new connection of DBOS's engine, asked of the app database."""
        if self._armed:
            with store.open_lock_connection(self.url, self.session_name) as conn:
                notice = store.fence_notice(conn, self.me)
            if notice is not None:
                self._fenced(notice)

    def _fenced(self, notice: FenceNotice) -> None:
        line = fenced_line(self.me, notice)
        self.on_fenced(line)
        raise Fenced(line)


def exit_fenced(line: str) -> None:
    """End a fenced process at once, from whichever thread learnt it: nothing of it may run on (no
    shutdown hook either — each would try to write). An embedded Postgres it started keeps running for
    the others; the next start finds it.

    The line is the last thing the process prints. Other threads woke with it and find their database
    sessions ended; what they still log (a traceback can be dozens of lines, written while this thread
    waits for the handler's lock) goes to /dev/null, so the one line a supervisor shows is this one."""
    if not _EXITING.acquire(blocking=False):  # another thread is ending the process already
        threading.Event().wait()
    logging.disable(logging.CRITICAL)  # no new record from any thread
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()  # what was written before the fence was learnt stays in the log
    out = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.write(out, (line + "\n").encode())
    os._exit(FENCED_EXIT_CODE)


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def fenced_line(me: Registration, notice: FenceNotice) -> str:
    who = f"Quire {me.mode} {me.executor_id!r} (pid {me.pid})"
    if notice.replaced:
        return (f"{who} stops: another process registered under the same executor id while this one was cut "
                "off from the database. Nothing more is written by this process.")
    when = notice.fenced_at.astimezone().strftime("%H:%M:%S") if notice.fenced_at else "?"
    return (f"{who} was fenced by {notice.fenced_by!r} at {when}: it had been silent (stopped, frozen or cut off "
            "from the database) while its database session stayed open, and its unfinished work was taken over. "
            "It stops now without committing anything more; start it again to rejoin (a restart policy does).")
