"""The trash's age limit: a DBOS scheduled workflow deletes documents trashed more than
`QUIRE_TRASH_RETENTION_DAYS` ago, for good. DBOS derives each run's workflow id from its scheduled time,
so with several Quire processes on one database each tick runs once.

DBOS schedules plain functions only (not a configured instance's methods), so the workflow is a closure
over this process's library, registered under the name earlier builds used when `TrashRetention` is
built (before `DBOS.launch()`).
"""

from __future__ import annotations

import logging
from datetime import datetime

from dbos import DBOS

from backend.ingest.library import Library

log = logging.getLogger(__name__)

SCHEDULE_NAME = "quire-trash-retention"


class TrashRetention:
    def __init__(self, library: Library, retention_days: float, cron: str) -> None:
        self.library = library
        self.retention_days = retention_days
        self.cron = cron

        @DBOS.workflow(name="trash_retention_workflow")
        def trash_retention_workflow(scheduled_at: datetime, context: object) -> None:
            self.purge_expired_step()

        self._workflow = trash_retention_workflow

    @DBOS.step(name="purge_expired_step")
    def purge_expired_step(self) -> int:
        deleted = self.library.empty_trash(self.retention_days)
        if deleted:
            log.info("deleted %d documents older than the trash's age limit", deleted)
        return deleted

    def schedule(self) -> None:
        """Create (or replace, when the cron setting changed) the schedule; call after `DBOS.launch()`."""
        DBOS.apply_schedules([{"schedule_name": SCHEDULE_NAME, "workflow_fn": self._workflow,
                               "schedule": self.cron}])
