"""Keeps this process's cache of originals (`docs/objects/`) in step with Postgres while it runs.

Originals live in Postgres; each process caches the ones it has read. When any process deletes an
original for good (a version deleted, the trash emptied), it removes its own cached copy at once, but the
other processes' copies would stay on their disks until their next start — a deleted document must not
linger in another machine's folder for days. So every process sweeps its cache every
`QUIRE_CACHE_SWEEP_S`: one directory walk and one indexed query for the names Postgres still holds
(`files.sweep_cache`, the same sweep a start runs).
"""

from __future__ import annotations

import logging
from pathlib import Path

from backend.ingest import files
from backend.periodic import Periodic
from backend.store.db import Database, DatabaseError
from backend.store.liveness import DatabaseUnavailable

log = logging.getLogger(__name__)

# A temp file this old is not a fetch in progress (one writes at disk speed) but one a crash left behind.
_PART_AGE_S = 3600.0


class CacheSweeper(Periodic):
    """Runs `files.sweep_cache` every `interval_s` until stopped."""

    thread_name = "quire-cache-sweeper"
    failure = "sweeping the originals cache"
    retry_on = (DatabaseError, DatabaseUnavailable, OSError)

    def __init__(self, db: Database, docs_dir: Path, interval_s: float) -> None:
        super().__init__(interval_s)
        self.db = db
        self.docs_dir = docs_dir

    def run_once(self) -> None:
        removed = files.sweep_cache(self.db, self.docs_dir, parts_older_than_s=_PART_AGE_S)
        if removed:
            log.info("removed %d cached originals deleted elsewhere", removed)
