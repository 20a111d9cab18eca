"""DBOS setup: configuration, launch (which recovers interrupted workflows) and the app's queues.

The services that own workflows register them as they are built (backend/app.py builds them before
`launch_dbos`), so that recovery finds every workflow function. The system database lives next to the
app database on the same server (`<db>_dbos`).
"""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa
from dbos import DBOS, DBOSConfig, Queue

from backend.config import APPLICATION_VERSION, Settings
from backend.store.db import sibling_database_url
from backend.store.liveness import lost_database, lost_system_database

log = logging.getLogger(__name__)

INGEST_QUEUE = "ingest"
DOCUMENT_QUEUE = "ingest_documents"
EMBED_QUEUE = "embed"
STUDY_QUEUE = "study"

_queues: dict[str, Queue] = {}
_engines: list[sa.Engine] = []

# For `@DBOS.step(**RETRY_WHEN_DATABASE_LOST)`: a step whose statement hit a connection the database had
# just dropped runs again (steps are idempotent); the next attempt's checkout waits until the database is
# back. Any other error fails the step at once, as before.
RETRY_WHEN_DATABASE_LOST: dict[str, Any] = {
    "retries_allowed": True, "max_attempts": 5, "interval_seconds": 1.0, "backoff_rate": 2.0,
    "should_retry": lost_database,
}
# For a step that waits on DBOS itself (other workflows' results): DBOS's own queries fail with
# SQLAlchemy's errors while the database is away.
RETRY_WHEN_SYSTEM_DATABASE_LOST: dict[str, Any] = {**RETRY_WHEN_DATABASE_LOST, "should_retry": lost_system_database}


def launch_dbos(settings: Settings, database_url: str, executor_id: str, engine: sa.Engine) -> None:
    """Launch DBOS on `engine` (`store/system_db.py`: sized, named and guarded by Quire) over `<db>_dbos`."""
    _engines.append(engine)
    config: DBOSConfig = {
        "name": "quire",
        "system_database_url": sibling_database_url(database_url, "_dbos"),
        "system_database_engine": engine,
        "application_version": APPLICATION_VERSION,
        "executor_id": executor_id,
        "log_level": "WARNING",
        "run_migrations": True,
    }
    DBOS(config=config)
    DBOS.launch()
    _queues[INGEST_QUEUE] = DBOS.register_queue(
        INGEST_QUEUE, worker_concurrency=settings.ingest_concurrency, polling_interval_sec=0.5
    )
    # A run's documents on their own queue: a run waiting for its documents must never hold the slot
    # one of them needs. Every process of the database dequeues from it, up to its own concurrency.
    _queues[DOCUMENT_QUEUE] = DBOS.register_queue(
        DOCUMENT_QUEUE, worker_concurrency=settings.ingest_concurrency, polling_interval_sec=0.5
    )
    # The backfill may sleep for a long time while Ollama is down; it must not hold an ingestion slot.
    _queues[EMBED_QUEUE] = DBOS.register_queue(EMBED_QUEUE, worker_concurrency=1, polling_interval_sec=1.0)
    _queues[STUDY_QUEUE] = DBOS.register_queue(STUDY_QUEUE, worker_concurrency=2, polling_interval_sec=0.5)


def system_database() -> sa.Engine | None:
    """The engine of DBOS's system database while DBOS runs (for `/metrics`' workflow counts)."""
    return _engines[-1] if _engines else None


def shutdown_dbos() -> None:
    DBOS.destroy(destroy_registry=False)
    _queues.clear()
    while _engines:  # DBOS leaves an engine it was given to its owner
        _engines.pop().dispose()


def ingest_queue() -> Queue:
    return _queues[INGEST_QUEUE]


def document_queue() -> Queue:
    return _queues[DOCUMENT_QUEUE]


def embed_queue() -> Queue:
    return _queues[EMBED_QUEUE]


def study_queue() -> Queue:
    return _queues[STUDY_QUEUE]
