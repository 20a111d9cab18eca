"""The index change feed is read by other processes as "everything after the last number I saw", so
numbers must become visible in order: a change committed later must never carry a smaller number."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import psycopg
import pytest

from backend.store.db import Database
from backend.store.documents import record_index_change
from tests.support.postgres import ThrowawayPostgres


@pytest.fixture
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database("quire_feed", min_size=1, max_size=4, origin="test") as database:
        yield database


def _visible_max(db: Database) -> int:
    with psycopg.connect(db.url) as conn:
        return conn.execute("SELECT coalesce(max(seq), 0) FROM index_changes").fetchone()[0]


def test_a_later_change_waits_for_an_earlier_one_to_commit(db: Database) -> None:
    before = _visible_max(db)
    second_done = threading.Event()

    def second_writer() -> None:
        with db.transaction() as conn:
            record_index_change(conn, db, uuid.uuid4(), "category")
        second_done.set()

    with db.transaction() as first:
        record_index_change(first, db, uuid.uuid4(), "stored")  # drawn first, still uncommitted
        writer = threading.Thread(target=second_writer)
        writer.start()
        # The second change must not commit (and so become visible past the first) meanwhile.
        assert not second_done.wait(0.5)
        assert _visible_max(db) == before
    writer.join(5)
    assert second_done.is_set()
    with psycopg.connect(db.url) as conn:
        rows = conn.execute("SELECT seq, reason FROM index_changes WHERE seq > %s ORDER BY seq", (before,)).fetchall()
    assert [reason for _, reason in rows] == ["stored", "category"]
