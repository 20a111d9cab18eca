"""Ollama unreachable during ingestion: the run still completes with blocks stored and searchable by
keyword; once Ollama is back, the durable backfill embeds what is missing — without a new upload."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

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
