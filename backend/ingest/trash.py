"""The trash's age limit: a DBOS scheduled workflow deletes documents trashed more than
`QUIRE_TRASH_RETENTION_DAYS` ago, for good. DBOS derives each run's workflow id from its scheduled time,
so with several Quire processes on one database each tick runs once."""

from __future__ import annotations

import logging
from datetime import datetime

from dbos import DBOS

from backend.config import Settings
from backend.context import get_context
from backend.ingest import library

log = logging.getLogger(__name__)

SCHEDULE_NAME = "quire-trash-retention"


@DBOS.step()
def purge_expired_step() -> int:
    ctx = get_context()
    deleted = library.empty_trash(ctx, ctx.settings.trash_retention_days)
    if deleted:
        log.info("deleted %d documents older than the trash's age limit", deleted)
    return deleted


@DBOS.workflow()
def trash_retention_workflow(scheduled_at: datetime, context: object) -> None:
    purge_expired_step()


def schedule_trash_retention(settings: Settings) -> None:
    """Create (or replace, when the cron setting changed) the schedule; call after `DBOS.launch()`."""
    DBOS.apply_schedules([{"schedule_name": SCHEDULE_NAME, "workflow_fn": trash_retention_workflow,
                           "schedule": settings.trash_sweep_cron}])
