"""Is the database reachable right now? A cheap flag, kept fresh by one probe thread.

Waiting on a dead server is what hangs an app: a pool checkout waits for its timeout, DBOS retries
until the server is back. So a thread runs `SELECT 1` every half second on a connection of its own and
records when that last worked; the database counts as up while the last success is recent. HTTP
requests check the flag and fail at once with a 503 (`DatabaseUnavailable`) instead of waiting;
background work (DBOS steps, the index poller) waits for the flag to come back instead of failing.

Which of the two a caller gets is carried by a context variable that the request middleware sets, so
code below it does not need to know whether it serves a request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import psycopg
import sqlalchemy.exc
from psycopg_pool import PoolTimeout

from backend.errors import QuireError

log = logging.getLogger(__name__)

PROBE_INTERVAL_S = 0.5
# A dead server fails the probe at once; a probe older than this also means "down" (a network that stopped
# answering). Generous, so that a busy machine delaying the probe thread never fails healthy requests.
STALE_AFTER_S = 5.0
CONNECT_TIMEOUT_S = 2
# Errors that mean "the server is gone or unreachable", as opposed to a bad query.
CONNECTION_ERRORS: tuple[type[Exception], ...] = (psycopg.OperationalError, PoolTimeout)

_fail_fast: ContextVar[bool] = ContextVar("quire_db_fail_fast", default=False)


class DatabaseUnavailable(QuireError):
    def __init__(self) -> None:
        super().__init__(
            "database_unavailable",
            "The database is not reachable right now; Quire reconnects by itself, so try again in a moment. "
            "Nothing stored has been lost.",
            503,
        )


# Everything that means "the database went away under this work", for code that retries the work.
DATABASE_LOST: tuple[type[Exception], ...] = (*CONNECTION_ERRORS, DatabaseUnavailable)


def lost_database(exc: BaseException) -> bool:
    return isinstance(exc, DATABASE_LOST)


def lost_system_database(exc: BaseException) -> bool:
    """Also a lost connection of DBOS's own calls (its system database is reached through SQLAlchemy)."""
    return lost_database(exc) or isinstance(exc, sqlalchemy.exc.OperationalError | sqlalchemy.exc.InterfaceError)


@contextmanager
def failing_fast() -> Iterator[None]:
    """Within this block (and threads and tasks started from it) a dead database raises at once."""
    token = _fail_fast.set(True)
    try:
        yield
    finally:
        _fail_fast.reset(token)


def fails_fast() -> bool:
    return _fail_fast.get()


class Liveness:
    """The probe thread and the flag. `on_recovered` runs (in the probe thread) when the database
    comes back after being down, e.g. to replace the pool's dead connections."""

    def __init__(self, url: str, on_recovered: Callable[[], None], application_name: str = "quire") -> None:
        self.url = url
        self.application_name = application_name
        self.on_recovered = on_recovered
        self._last_ok = time.monotonic()
        self._up = threading.Event()
        self._up.set()
        self._stop = threading.Event()
        self._poke = threading.Event()
        self._thread: threading.Thread | None = None
        self.down_since: float | None = None

    def start(self) -> None:
        self._last_ok = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="quire-db-liveness", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._poke.set()
        self._up.set()  # release anyone waiting: the app is stopping
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def is_up(self) -> bool:
        return self._up.is_set() and time.monotonic() - self._last_ok < STALE_AFTER_S

    def suspect(self) -> None:
        """A caller saw a connection error: probe now rather than at the next tick."""
        self._poke.set()

    def wait_up(self, timeout_s: float) -> bool:
        """Block until the database is up again (or the app stops); False when `timeout_s` passed first."""
        deadline = time.monotonic() + timeout_s
        while not self.is_up():
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self._stop.is_set():
                return False
            self._up.wait(min(remaining, PROBE_INTERVAL_S))
        return True

    def _run(self) -> None:
        conn: psycopg.Connection | None = None
        while not self._stop.is_set():
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                                           application_name=self.application_name)
                conn.execute("SELECT 1")
            except psycopg.Error as exc:
                if conn is not None:
                    conn.close()
                conn = None
                self._went_down(exc)
            else:
                self._came_up()
            self._poke.wait(PROBE_INTERVAL_S)
            self._poke.clear()
        if conn is not None:
            conn.close()

    def _went_down(self, exc: Exception) -> None:
        if self._up.is_set():
            self.down_since = time.monotonic()
            log.warning("the database is unreachable (%s); requests get 503 until it is back",
                        str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
        self._up.clear()

    def _came_up(self) -> None:
        self._last_ok = time.monotonic()
        if self._up.is_set():
            return
        try:
            self.on_recovered()
        except Exception:  # the flag must still come back; the pool replaces bad connections itself
            log.exception("refreshing connections after the database came back failed")
        down_for = time.monotonic() - (self.down_since or time.monotonic())
        log.warning("the database is reachable again after %.1f s", down_for)
        self.down_since = None
        self._up.set()
