"""Progress tests get an empty, migrated database each, so counts, streaks and badges start from zero."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backend.progress.events import Activity
from backend.progress.sessions import Rules
from backend.store.db import Database
from tests.support.postgres import ThrowawayPostgres


@pytest.fixture
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database("quire_progress", min_size=1, max_size=2) as database:
        yield database


@pytest.fixture
def activity(db: Database) -> Activity:
    """Study activity recorded under the default rules (a 15-minute idle gap, the server's time zone)."""
    return Activity(db, Rules())
