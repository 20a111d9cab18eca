"""Ollama unreachable during ingestion: the run still completes with blocks stored and searchable by
keyword; once Ollama is back, the durable backfill embeds what is missing — without a new upload."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from dbos import DBOSClient

from backend.store.db import sibling_database_url
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

pytestmark = pytest.mark.slow


def test_ingestion_without_ollama_then_backfill(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    server = server_factory()
    fake_ollama.stop()
    with server.client() as api:
        response = upload(api, {"tides.md": b"# Tides\n\nSpring tides happen when sun and moon align."})
        snapshot = wait_for_run(api, response.json()["workflow_id"], timeout_s=90)
        assert snapshot["status"] == "SUCCESS"
        document = api.get(f"/api/documents/{snapshot['documents'][0]['id']}").json()
        assert document["status"] == "ready"
        assert document["blocks"] == 1
        assert document["embedded"] == 0
        hits = api.get("/api/search", params={"q": "spring tides"}).json()
        assert [h["document_id"] for h in hits["hits"]] == [document["id"]]
        assert "Keyword search only" in hits["notice"]

        fake_ollama.start()
        deadline = time.monotonic() + 60
        while api.get(f"/api/documents/{document['id']}").json()["embedded"] == 0:
            assert time.monotonic() < deadline, "the backfill did not embed the block"
            time.sleep(0.5)
        dense = api.get("/api/search", params={"q": "spring tides sun moon", "mode": "dense"}).json()["hits"]
        assert dense[0]["document_id"] == document["id"]


def test_stopping_while_the_backfill_waits_for_ollama_is_prompt(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    # The backfill waits 120 s before asking an unreachable Ollama again; stopping Quire must cut that
    # wait short (it used to sit it out, then fail in the workflow's thread), and the next start resumes.
    server = server_factory(QUIRE_EMBED_RETRY_S="120")
    fake_ollama.stop()
    with server.client() as api:
        response = upload(api, {"tides.md": b"# Tides\n\nSpring tides happen when sun and moon align."})
        document_id = wait_for_run(api, response.json()["workflow_id"], timeout_s=90)["documents"][0]["id"]
    dbos = DBOSClient(system_database_url=sibling_database_url(server.database_url, "_dbos"))
    try:
        backfill = _waiting_backfill(dbos)
        started = time.monotonic()
        server.stop()
        stopped_in = time.monotonic() - started
        assert server.process is not None
        assert server.process.returncode is not None
        assert stopped_in < 15, f"stopping took {stopped_in:.1f} s"
        assert dbos.retrieve_workflow(backfill).get_status().status == "SUCCESS"
    finally:
        dbos.destroy()
    assert "Exception encountered in background workflow" not in server.log_tail(400)

    fake_ollama.start()
    server.start()
    with server.client() as api:
        deadline = time.monotonic() + 60
        while api.get(f"/api/documents/{document_id}").json()["embedded"] == 0:
            assert time.monotonic() < deadline, "the next start did not backfill the block"
            time.sleep(0.5)


def _waiting_backfill(dbos: DBOSClient, timeout_s: float = 60) -> str:
    """The id of the backfill workflow once it has tried the model server and begun to wait."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for workflow in dbos.list_workflows(name="embed_backfill_workflow", status="PENDING"):
            steps = [step["function_name"] for step in dbos.list_workflow_steps(workflow.workflow_id)]
            if "DBOS.sleep" in steps:  # how DBOS records the deadline of a wait
                return workflow.workflow_id
        time.sleep(0.2)
    raise AssertionError("no backfill began to wait for the model server")
