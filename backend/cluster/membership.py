"""This process's membership among the Quire processes sharing one database: claim the executor id,
heartbeat, and take over the work of processes that died.

- **Claim**: before DBOS launches (which would resume every pending workflow of its executor id), the
  process takes a session advisory lock named after its id on a connection it keeps open. A second live
  process with the same id cannot take it and refuses to start; a crashed one releases it with its
  connection, so its restart is never blocked.
- **Heartbeat**: every `Settings.heartbeat_s` (a twelfth of `QUIRE_TAKEOVER_AFTER_S`) the process refreshes
  `last_seen` and reports what it is doing (its pending workflows), shown by `GET /api/health`.
- **Takeover**: a process silent for `QUIRE_TAKEOVER_AFTER_S` is claimed by exactly one live process
  (one atomic UPDATE), which then also takes the dead one's lock (so the dead one is really gone, not
  just slow, and cannot restart mid-takeover) and hands its pending workflows back to their DBOS queues
  through DBOS's public `resume_workflows`. DBOS then runs each from its first unfinished step on
  whichever process dequeues it; finished steps are not redone.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections import Counter, defaultdict
from typing import Any

from dbos import DBOS

from backend.config import APPLICATION_VERSION
from backend.store import processes as store
from backend.store.db import Connection, DatabaseError
from backend.store.processes import ProcessMode, Registration

log = logging.getLogger(__name__)

# A restart right after a crash may find its lock still held for a moment: Postgres notices the dead
# connection quickly but not instantly; another process may also hold it briefly while taking over.
_CLAIM_PATIENCE_HEARTBEATS = 3


class DuplicateExecutorError(SystemExit):
    """Another live process already runs under this executor id."""


class Membership:
    def __init__(self, database_url: str, executor_id: str, mode: ProcessMode, *, heartbeat_s: float,
                 takeover_after_s: float, address: str | None = None) -> None:
        self.url = database_url
        self.me = Registration(executor_id, uuid.uuid4(), mode, socket.gethostname(), os.getpid(), address)
        self.heartbeat_s = heartbeat_s
        self.takeover_after_s = takeover_after_s
        self._conn: Connection | None = None
        # No takeover before this (time.monotonic()): a whole takeover window after each reconnection.
        self._judge_from = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def executor_id(self) -> str:
        return self.me.executor_id

    def claim(self) -> None:
        """Take the executor id for this process, or refuse to start if a live process has it."""
        conn = store.open_lock_connection(self.url)
        deadline = time.monotonic() + _CLAIM_PATIENCE_HEARTBEATS * self.heartbeat_s
        while not store.try_lock_executor(conn, self.executor_id):
            if time.monotonic() >= deadline:
                conn.close()
                raise DuplicateExecutorError(self._duplicate_message())
            time.sleep(0.5)
        store.register(conn, self.me)
        self._conn = conn

    def _duplicate_message(self) -> str:
        holder = ""
        with store.open_lock_connection(self.url) as conn:
            row = store.describe(conn, self.executor_id)
        if row is not None:
            holder = f" (the {row['mode']} with pid {row['pid']} on {row['hostname']})"
        return (f"Another live Quire process already uses executor id {self.executor_id!r}{holder}. "
                "Every process sharing a database needs its own id: give each its own QUIRE_DATA_DIR, "
                "or set a distinct QUIRE_EXECUTOR_ID.")

    def start(self) -> None:
        """Heartbeat and watch for dead processes; call after DBOS has launched."""
        self._thread = threading.Thread(target=self._run, name="quire-membership", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._conn is not None:
            try:
                store.mark_stopped(self._conn, self.me)
            except DatabaseError:
                log.warning("could not record this process as stopped", exc_info=True)
            self._conn.close()  # releases the executor id's lock
            self._conn = None

    def _run(self) -> None:
        while not self._stop.wait(self.heartbeat_s):
            try:
                self.beat()
                self.take_over_silent()
            except Exception:
                # Whatever failed (psycopg on our connection, or DBOS's own SQLAlchemy errors from listing or
                # resuming workflows while the database is away), the heartbeat must go on: a process whose
                # thread ended would look silent and be taken over while alive.
                log.warning("heartbeat failed; retrying with a new connection", exc_info=True)
                self._reconnect()

    def _reconnect(self) -> None:
        """After the database connection was lost: the lock went with it, so claim the id again."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        try:
            conn = store.open_lock_connection(self.url)
            if not store.try_lock_executor(conn, self.executor_id):
                conn.close()
                log.error("executor id %r was claimed by another process while the database was away",
                          self.executor_id)
                return
            store.register(conn, self.me)
            self._conn = conn
            # If the database was away, every other process missed its beats too and lost the lock that
            # shows it alive: judging them silent the moment it is back would take over processes that are
            # still running. They get a whole takeover window to beat again first.
            self._judge_from = time.monotonic() + self.takeover_after_s
        except DatabaseError:
            log.warning("database still unreachable", exc_info=True)

    def beat(self) -> None:
        if self._conn is None:
            self._reconnect()
            return
        store.heartbeat(self._conn, self.me, self._activity())

    def _activity(self) -> dict[str, Any]:
        pending = DBOS.list_workflows(status="PENDING", executor_id=self.executor_id, load_input=False,
                                      load_output=False)
        names = Counter((status.name or "workflow").rsplit(".", 1)[-1] for status in pending)
        return {"pending_workflows": len(pending), "by_workflow": dict(names)}

    def take_over_silent(self) -> list[str]:
        """Claim each silent process once and resume its pending workflows; returns the ids taken over."""
        if self._conn is None or time.monotonic() < self._judge_from:
            return []
        store.forget_old(self._conn)
        taken = []
        for dead in store.claim_silent(self._conn, self.executor_id, self.takeover_after_s):
            if not store.try_lock_executor(self._conn, dead):
                # Silent but its session is still open: hung or slow, not dead. Resuming its workflows
                # now could run them twice; give the claim back and look again later.
                store.release_claim(self._conn, dead)
                continue
            try:
                count = self._resume_workflows_of(dead)
                store.record_recovered(self._conn, dead, count)
                log.warning("took over %d pending workflows of silent process %s", count, dead)
                taken.append(dead)
            finally:
                store.unlock_executor(self._conn, dead)
        return taken

    @staticmethod
    def _resume_workflows_of(executor_id: str) -> int:
        pending = DBOS.list_workflows(status="PENDING", executor_id=executor_id, app_version=APPLICATION_VERSION,
                                      load_input=False, load_output=False)
        by_queue: dict[str | None, list[str]] = defaultdict(list)
        for status in pending:
            by_queue[status.queue_name].append(status.workflow_id)
        for queue_name, workflow_ids in by_queue.items():
            # Back onto the queue they came from, so its concurrency limits still hold.
            DBOS.resume_workflows(workflow_ids, queue_name=queue_name)
        return len(pending)
