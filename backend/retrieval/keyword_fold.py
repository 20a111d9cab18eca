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

from backend.periodic import Periodic
from backend.store import keyword_impacts
from backend.store.db import Database, DatabaseError
from backend.store.liveness import DatabaseUnavailable

log = logging.getLogger(__name__)


class KeywordFolder(Periodic):
    """Runs `keyword_impacts.fold` every `interval_s` until stopped."""

    thread_name = "quire-keyword-fold"
    failure = "folding the keyword change rows"
    retry_on = (DatabaseError, DatabaseUnavailable)

    def __init__(self, db: Database, interval_s: float) -> None:
        super().__init__(interval_s)
        self.db = db

    def run_once(self) -> None:
        folded = keyword_impacts.fold(self.db)
        if folded is not None and folded.stats_rows + folded.df_rows:
            log.debug("folded %d block changes and %d document-frequency changes", folded.stats_rows,
                      folded.df_rows)
