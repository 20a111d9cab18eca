"""A document trashed and deleted for good while its ingestion makes the new version live (the store step's
swap: its blocks flipped live, then the document, run and item locked and checked): both finish. The
delete for good answers 204 and leaves nothing of the document; the run ends SUCCESS with the document
not stored; and a previous version's document goes the same way.

Before the swap and the trash took one lock first, the two took their row locks in opposite orders (the
swap: blocks, then the document; the delete: the document, then the blocks it cascades to) and Postgres
aborted one of them as a deadlock: a 500 for the delete, or the store step's swap (which DBOS ran again).
Passages of 200 characters make ~17,000 blocks of a 2.5-million-character Markdown file, so the swap takes
a second or two here, long enough for the trash and the delete to land in it (as in
test_cancel_long_documents.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import psycopg
import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.long_documents import prose_markdown
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import ingest, upload, wait_for_run, wait_until

pytestmark = pytest.mark.slow

CHARS = 2_500_000


@pytest.fixture(scope="module")
def server(postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[QuireServer]:
    started = QuireServer(postgres.fresh_database(), tmp_path_factory.mktemp("delete-long-documents"),
                          fake_ollama_server.url, QUIRE_CHUNK_SIZE="200", QUIRE_CHUNK_OVERLAP="20").start()
    yield started
    started.stop()


@pytest.fixture
def api(server: QuireServer, fake_ollama: FakeOllama) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def _all_inserted(staged: list[int]) -> Callable[[dict[str, Any]], bool]:
    """A wait condition: the document's every staged passage inserted (the swap comes next); `staged` gets
    the count the extract step staged ("17,123 passages"), which the last batch's "… passages stored" says."""

    def ready(snapshot: dict[str, Any]) -> bool:
        item = snapshot["documents"][0]
        words = item["progress"]["detail"].split()
        if item["status"] == "storing" and words[1:] == ["passages"]:
            staged.append(int(words[0].replace(",", "")))
        return bool(staged) and item["status"] == "storing" and words == [f"{staged[0]:,}", "passages", "stored"]

    return ready


def _rows_of(server: QuireServer, document_id: str) -> tuple[int, ...]:
    """The document's blocks, versions, run items and staged chunks still stored."""
    with psycopg.connect(server.database_url) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM blocks WHERE document_id = %(d)s),"
            " (SELECT count(*) FROM document_versions WHERE document_id = %(d)s),"
            " (SELECT count(*) FROM ingest_items WHERE document_id = %(d)s),"
            " (SELECT count(*) FROM ingest_chunks WHERE document_id = %(d)s)", {"d": document_id}).fetchone()
    assert row is not None
    return tuple(int(count) for count in row)


def _delete_for_good_in_the_swap(api: httpx.Client, server: QuireServer, data: bytes, name: str,
                                 on_conflict: str | None = None) -> None:
    response = upload(api, {name: data}, on_conflict=on_conflict)
    assert response.status_code == 202, response.text
    workflow_id, document_id = response.json()["workflow_id"], response.json()["documents"][0]["id"]
    wait_until(api, workflow_id, _all_inserted([]), timeout_s=300)
    trashed = api.delete(f"/api/documents/{document_id}")
    assert trashed.status_code == 200, trashed.text
    purged = api.delete(f"/api/documents/{document_id}", params={"permanent": "true"})
    assert purged.status_code == 204, purged.text

    snapshot = wait_for_run(api, workflow_id)
    assert snapshot["status"] == "SUCCESS", snapshot
    # Not aborted and run again either (DBOS retries a store step that lost its transaction).
    assert snapshot["executions"][f"store:{document_id}"] == 1, snapshot["executions"]
    assert api.get(f"/api/documents/{document_id}").status_code == 404
    assert _rows_of(server, document_id) == (0, 0, 0, 0)


def test_a_long_new_document_deleted_for_good_in_the_swap(api: httpx.Client, server: QuireServer) -> None:
    _delete_for_good_in_the_swap(api, server, prose_markdown(CHARS, seed=31), "purged-notes.md")


def test_a_long_new_version_deleted_for_good_in_the_swap(api: httpx.Client, server: QuireServer) -> None:
    # The previous version's live blocks are what the trash makes not live while the swap flips them.
    ingest(api, {"purged-changing-notes.md": b"# Osmosis\n\nVersion one talks about osmosis across a membrane."})
    _delete_for_good_in_the_swap(api, server, prose_markdown(CHARS, seed=37), "purged-changing-notes.md",
                                 on_conflict="replace")
    hits = api.get("/api/search", params={"q": "osmosis", "mode": "sparse"}).json()["hits"]
    assert hits == []
