"""Watching the other processes: report this one's work, take over the dead, fence the hung.

Every `Settings.heartbeat_s` a thread (apart from the heartbeat, so a slow takeover or a slow DBOS query
never delays a beat) reports what this process is doing and looks for processes silent for longer than
`QUIRE_TAKEOVER_AFTER_S` — only once it has itself beaten without a gap for a whole takeover window
(after a database outage every process's beats stopped, and a living process's lock is free until its
heartbeat reconnects). One atomic UPDATE lets exactly one live process claim each of them; the claimer
then decides:

- **Dead**: it can take the silent process's id lock (its session is gone). It fences it anyway (marks it
  and ends any session it still has: a process whose lock connection dropped may still have others) and
  hands its pending workflows back to their DBOS queues through DBOS's public `resume_workflows`.
- **Hung**: the lock is still held — the process is stopped, frozen or cut off, but its session lives.
  Once it has been silent for `FENCE_FACTOR` × the takeover time, and the claimer has itself beaten
  without a gap for that long (after a pause of the whole machine or of the database every process
  looks silent to every other, and none may fence another until all had time to beat again), the
  claimer fences it: marks it fenced (committed first: from then on the guard refuses every new
  connection of it), ends all its sessions with `pg_terminate_backend` (its open transactions roll
  back, its lock is released), takes the lock and resumes its workflows, exactly as for a dead one.
- **Not yet**: silent, session open, bound not reached — the claim is given back; `/api/health` says
  `degraded` and names the process meanwhile.

DBOS then runs each resumed workflow from its first unfinished step on whichever process dequeues it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, defaultdict
from contextlib import closing
from typing import TYPE_CHECKING, Any

from dbos import DBOS

from backend.config import APPLICATION_VERSION
from backend.metrics import WORK
from backend.store import processes as store
from backend.store.db import Connection, Database
from backend.store.processes import Silent

if TYPE_CHECKING:
    from backend.cluster.membership import Membership

log = logging.getLogger(__name__)

# A process silent this many times the takeover time while its session stays open is fenced. Twice: a
# process whose heartbeat thread has not reached the database for two whole takeover windows (two
# minutes by default) is not slow but stopped — the beat is one tiny UPDATE on a connection of its own.
FENCE_FACTOR = 2.0
# After ending a hung process's sessions, how long to wait for its lock to be free (Postgres releases it
# as the ended backend exits, normally within milliseconds).
_LOCK_AFTER_FENCE_S = 10.0


def fence_after_s(takeover_after_s: float) -> float:
    return FENCE_FACTOR * takeover_after_s


class Watcher:
    def __init__(self, membership: Membership, db: Database) -> None:
        self.membership = membership
        self.db = db
        self.me = membership.me
        self.takeover_after_s = membership.takeover_after_s
        self.fence_after_s = fence_after_s(membership.takeover_after_s)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="quire-takeover", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.membership.heartbeat_s):
            try:
                self.report()
                self.take_over_silent()
            except Exception:
                # Whatever failed (psycopg, or DBOS's own SQLAlchemy errors while the database is away), the
                # watch goes on at the next tick; the heartbeat has its own thread and connection.
                log.warning("watching the other processes failed; trying again", exc_info=True)

    def report(self) -> None:
        pending = DBOS.list_workflows(status="PENDING", executor_id=self.me.executor_id, load_input=False,
                                      load_output=False)
        names = Counter((status.name or "workflow").rsplit(".", 1)[-1] for status in pending)
        activity: dict[str, Any] = {"pending_workflows": len(pending), "by_workflow": dict(names),
                                    "work": WORK.snapshot()}
        with self.db.connection() as conn:
            store.report_activity(conn, self.me, activity)

    def take_over_silent(self) -> list[str]:
        """Claim each silent process once; take over the dead and the fenced. Returns the ids taken over."""
        with self.db.connection() as conn:
            store.forget_old(conn)
            # A dead process's lock is free — but so is a living one's for a moment after a database outage,
            # until its heartbeat reconnects: only a process that has beaten steadily for a whole takeover
            # window since (every living process has beaten again by then) may judge the others.
            if not store.beating_steadily(conn, self.me, self.takeover_after_s, self.takeover_after_s):
                return []
            victims = store.claim_silent(conn, self.me, self.takeover_after_s)
        taken = []
        for victim in victims:
            # A connection of its own: the victim's id lock is held on it for the takeover (a session lock
            # must not go back into the pool). The guard checks it like any other new connection.
            with closing(store.open_lock_connection(self.db.url, self.membership.session_name)) as conn:
                self.membership.guard_connection(conn)
                if self._settle(conn, victim):
                    taken.append(victim.executor_id)
        return taken

    def _settle(self, conn: Connection, victim: Silent) -> bool:
        locked = store.try_lock_executor(conn, victim.executor_id)
        if not locked and not (victim.silent_s >= self.fence_after_s
                               and store.beating_steadily(conn, self.me, self.fence_after_s, self.takeover_after_s)):
            # Silent but its session is still open: hung or slow, not proven dead, and not yet silent long
            # enough to be fenced. Give the claim back and look again at the next tick.
            store.release_claim(conn, victim, self.me)
            return False
        try:
            if not store.fence(conn, victim, self.me):
                return False  # it started again meanwhile under a new instance
            ended = store.end_sessions(conn, victim)
            locked = locked or self._lock_after_fence(conn, victim.executor_id)
            if not locked:
                log.error("fenced %s but its lock is still held; it is claimed again at the next look",
                          victim.executor_id)
                store.release_claim(conn, victim, self.me)
                return False
            count = _resume_workflows_of(victim.executor_id)
            store.record_takeover(conn, victim, self.me, ended, count)
            log.warning("took over %d pending workflows of process %s (silent %.0f s%s)", count,
                        victim.executor_id, victim.silent_s,
                        f"; fenced: {ended} sessions it still held were ended" if ended else "")
            return True
        finally:
            if locked:
                store.unlock_executor(conn, victim.executor_id)

    def _lock_after_fence(self, conn: Connection, executor_id: str) -> bool:
        deadline = time.monotonic() + _LOCK_AFTER_FENCE_S
        while not store.try_lock_executor(conn, executor_id):
            if time.monotonic() >= deadline or self._stop.is_set():
                return False
            time.sleep(0.2)
        return True


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
