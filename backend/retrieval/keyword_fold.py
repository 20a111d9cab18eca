"""Keeps the Postgres search mode's keyword change rows few, from every process whatever its search mode.

Once the keyword impact lists were built (migration 0018), a trigger records a row for every block
written, trashed, restored or deleted, and BM25's statistics are the build's counts plus those rows'
sums. Only a rebuild cleared them, and only the Postgres mode rebuilds: a vault that once ran in that
mode and then only in the in-memory mode gained rows with every change, forever. So every process folds
them into the build's counts every `QUIRE_KEYWORD_FOLD_S` (`keyword_impacts.fold`: one transaction,
exact, the statistics unchanged). A fold whenever any row is there, with no threshold: it costs in
proportion to the rows folded (and two `EXISTS` reads when there are none), while a threshold would
only leave more rows for every search to sum.
"""

from __future__ import annotations

import logging
import threading

from backend.store import keyword_impacts
from backend.store.db import Database, DatabaseError
from backend.store.liveness import DatabaseUnavailable

log = logging.getLogger(__name__)


class KeywordFolder:
    """A daemon thread that runs `keyword_impacts.fold` every `interval_s` until stopped."""

    def __init__(self, db: Database, interval_s: float) -> None:
        self.db = db
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="quire-keyword-fold", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                folded = keyword_impacts.fold(self.db)
            except (DatabaseError, DatabaseUnavailable):  # the database away: the next period retries
                log.warning("folding the keyword change rows failed; trying again later", exc_info=True)
                continue
            if folded is not None and folded.stats_rows + folded.df_rows:
                log.debug("folded %d block changes and %d document-frequency changes", folded.stats_rows,
                          folded.df_rows)
