"""A document's place in its run (`ingest_items`) survives a crash of the database server: the run decides
from it what to do with the document next. Only progress lines may be lost with the server."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from backend.store import ingest as store
from backend.store.db import Database
from tests.support.postgres import ThrowawayPostgres

pytestmark = pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")),
                                reason="kills a Postgres of its own (embedded)")


@pytest.fixture
def own_postgres() -> Iterator[ThrowawayPostgres]:
    """A server of this test's own: the suite's shared one must stay up."""
    server = ThrowawayPostgres()
    yield server
    server.close()


def _new_item(db: Database) -> tuple[str, str]:
    workflow_id, document_id = f"ingest-{uuid.uuid4().hex[:12]}", str(uuid.uuid4())
    with db.transaction() as conn:
        conn.execute("INSERT INTO documents (id, filename, status) VALUES (%s, %s, 'ingesting')",
                     (document_id, f"{document_id}.md"))
        conn.execute("INSERT INTO ingest_runs (workflow_id, source) VALUES (%s, 'upload')", (workflow_id,))
        conn.execute("INSERT INTO ingest_items (workflow_id, document_id, position, filename, pending_path, sha256,"
                     " size_bytes, kind, generation, state) VALUES (%s, %s, 0, 'notes.md', '', 'sha', 10, 'md', 1,"
                     " 'storing')", (workflow_id, document_id))
    return workflow_id, document_id


def test_a_stored_documents_state_survives_the_database_server_crashing(own_postgres: ThrowawayPostgres) -> None:
    url = own_postgres.fresh_database()
    for _ in range(3):  # a write committed without the flush is lost by nearly every such crash: three tries
        db = Database(url, min_size=1, max_size=2)
        db.open()
        try:
            workflow_id, document_id = _new_item(db)
            assert store.update_item(db, workflow_id, document_id, state="embedding", blocks=6,
                                     detail="6 passages stored, waiting for embedding")
            own_postgres.kill_postmaster()  # the moment the write is committed
        finally:
            db.close()
        own_postgres.start_again()
        db = Database(url, min_size=1, max_size=2)
        db.open()
        try:
            item = store.load_item(db, workflow_id, document_id)
        finally:
            db.close()
        assert item is not None
        assert (item["state"], item["blocks"]) == ("embedding", 6), item
