"""Progress tests get an empty, migrated database each, so counts, streaks and badges start from zero."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backend.store.db import Database
from tests.support.postgres import ThrowawayPostgres


@pytest.fixture
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database("quire_progress", min_size=1, max_size=2) as database:
        yield database
