"""Cancelling an ingestion stops it at the next step boundary and leaves no document stuck in flight."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from dbos import DBOSClient

from backend.ingest.reconcile import CANCELLED_MESSAGE
from backend.ingest.sandbox_reads import PER_RUN
from backend.store.db import sibling_database_url
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import ingest, upload, wait_until


def test_cancel_during_extraction(api: httpx.Client, unique: Callable[[str], str], tmp_path: Path) -> None:
    pages = ["Page text about fluid dynamics and turbulence. " * 30] * 800
    pdf, note = unique("fluids.pdf"), unique("later.md")
    response = upload(api, {pdf: make_pdf(tmp_path / "f.pdf", pages, fontsize=6).read_bytes(),
                            note: b"# Later\n\nA short note."})
    workflow_id = response.json()["workflow_id"]
    wait_until(api, workflow_id, lambda s: s["documents"][0]["status"] == "extracting")
    cancelled = api.post(f"/api/ingest/{workflow_id}/cancel")
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "CANCELLED"
    time.sleep(3)  # let the extraction that was in flight finish; it must not revive anything
    documents = {d["filename"]: d for d in api.get("/api/documents").json()}
    assert documents[pdf]["status"] == "failed"
    assert documents[pdf]["error"] == CANCELLED_MESSAGE
    assert documents[pdf]["blocks"] == 0
    # The note is read beside the PDF (a run's documents run side by side): stored before the cancel it
    # stays, otherwise it is cancelled too; never half-way.
    if documents[note]["status"] == "ready":
        assert documents[note]["blocks"] > 0
    else:
        assert (documents[note]["status"], documents[note]["error"]) == ("failed", CANCELLED_MESSAGE)
    # The run's own record agrees: the step that was in flight did not move its file back to "extracting".
    # Neither file finished its run (the run's last step never ran), whatever of them was kept.
    items = api.get(f"/api/ingest/{workflow_id}").json()["documents"]
    assert [(item["status"], item["error"]) for item in items] == [("failed", CANCELLED_MESSAGE)] * 2


def test_cancel_keeps_a_previous_version(api: httpx.Client, unique: Callable[[str], str], tmp_path: Path) -> None:
    name = unique("kept.pdf")
    doc_id = ingest(api, {name: make_pdf(tmp_path / "v1.pdf", ["Version one talks about osmosis."]).read_bytes()})[
        name]["id"]
    pages = ["Version two talks about diffusion at length. " * 30] * 800
    workflow_id = upload(api, {name: make_pdf(tmp_path / "v2.pdf", pages, fontsize=6).read_bytes()},
                         on_conflict="replace").json()["workflow_id"]
    wait_until(api, workflow_id, lambda s: s["documents"][0]["status"] == "extracting")
    assert api.post(f"/api/ingest/{workflow_id}/cancel").status_code == 200
    document = api.get(f"/api/documents/{doc_id}").json()
    assert document["status"] == "ready"
    assert CANCELLED_MESSAGE in document["warnings"]  # version two was not added: upload it again
    # Cancelled again: the warning is said once, not once per cancel.
    workflow_id = upload(api, {name: make_pdf(tmp_path / "v2b.pdf", pages[:-1], fontsize=6).read_bytes()},
                         on_conflict="replace").json()["workflow_id"]
    wait_until(api, workflow_id, lambda s: s["documents"][0]["status"] == "extracting")
    assert api.post(f"/api/ingest/{workflow_id}/cancel").status_code == 200
    assert api.get(f"/api/documents/{doc_id}").json()["warnings"].count(CANCELLED_MESSAGE) == 1
    hits = api.get("/api/search", params={"q": "osmosis", "mode": "sparse", "documents": doc_id}).json()["hits"]
    assert hits


def _cancel_while_embedding(api: httpx.Client, fake_ollama: FakeOllama, files: dict[str, bytes], probe: str,
                            **upload_options: str) -> str:
    """Upload `files` with the model server holding every embedding request, and cancel the run once its
    file is stored and live (found by keyword, its passages waiting for vectors); returns the document id."""
    fake_ollama.hold_embeddings()
    try:
        response = upload(api, files, **upload_options)
        workflow_id, document_id = response.json()["workflow_id"], response.json()["documents"][0]["id"]
        wait_until(api, workflow_id, lambda s: s["documents"][0]["status"] == "embedding")
        assert _found(api, probe, document_id), "the new version was not live before the cancel"
        assert api.post(f"/api/ingest/{workflow_id}/cancel").status_code == 200
    finally:
        fake_ollama.release_embeddings()
    time.sleep(2)  # the embedding request that was held is answered now; it must not revive anything
    return document_id


def _found(api: httpx.Client, query: str, document_id: str) -> bool:
    return bool(api.get("/api/search", params={"q": query, "mode": "sparse", "documents": document_id}).json()["hits"])


def test_a_file_cancelled_while_it_embeds_is_not_added(
        api: httpx.Client, fake_ollama: FakeOllama, unique: Callable[[str], str]) -> None:
    # Stored and live, its passages waiting for vectors: the cancel withdraws it as in any earlier phase,
    # instead of leaving a file the user cancelled in the library with part of its vectors.
    name = unique("stored.md")
    document_id = _cancel_while_embedding(
        api, fake_ollama, {name: b"# Tides\n\nThe moon's pull raises the tides twice a day. " * 20}, "tides moon")
    document = api.get(f"/api/documents/{document_id}").json()
    assert (document["status"], document["error"], document["blocks"]) == ("failed", CANCELLED_MESSAGE, 0), document
    assert not _found(api, "tides moon", document_id)
    assert api.get(f"/api/documents/{document_id}/versions").json()["versions"] == []


def test_a_file_cancelled_while_it_embeds_leaves_the_postgres_search_mode_too(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> None:
    # In this mode a search reads the live blocks from Postgres itself, not from an index in the process.
    server = server_factory(QUIRE_SEARCH_BACKEND="postgres")
    with server.client() as api:
        note = b"# Ebb\n\nAt ebb tide the estuary drains toward the sea. " * 20
        document_id = _cancel_while_embedding(api, fake_ollama, {"ebb.md": note}, "estuary ebb")
        assert api.get(f"/api/documents/{document_id}").json()["status"] == "failed"
        assert not _found(api, "estuary ebb", document_id)


def test_cancel_while_embedding_puts_the_previous_version_back(
        api: httpx.Client, fake_ollama: FakeOllama, unique: Callable[[str], str], tmp_path: Path) -> None:
    name = unique("edited.pdf")
    document_id = ingest(api, {name: make_pdf(tmp_path / "v1.pdf", ["Version one talks about osmosis."]).read_bytes()})[
        name]["id"]
    v2 = make_pdf(tmp_path / "v2.pdf", ["Version two talks about diffusion instead."]).read_bytes()
    assert _cancel_while_embedding(api, fake_ollama, {name: v2}, "diffusion", on_conflict="replace") == document_id
    document = api.get(f"/api/documents/{document_id}").json()
    assert (document["status"], document["current_version"]) == ("ready", 1), document
    assert CANCELLED_MESSAGE in document["warnings"]  # version two was not added: upload it again
    assert _found(api, "osmosis", document_id)
    assert not _found(api, "diffusion", document_id)
    assert [v["version"] for v in api.get(f"/api/documents/{document_id}/versions").json()["versions"]] == [1]


def test_a_cancel_the_server_did_not_finish_is_finished_at_the_next_start(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> None:
    # The run is cancelled (as DBOS records it) while its file waits for vectors, and the process ends
    # before withdrawing the file: killed here, the cancel made through DBOS's own client. The next start
    # finds the cancelled run and withdraws the file then, instead of keeping it as if it had been added.
    server = server_factory()
    fake_ollama.hold_embeddings()
    try:
        with server.client() as api:
            response = upload(api, {"currents.md": b"# Currents\n\nThe Gulf Stream carries warm water north. " * 20})
            workflow_id, document_id = response.json()["workflow_id"], response.json()["documents"][0]["id"]
            wait_until(api, workflow_id, lambda s: s["documents"][0]["status"] == "embedding")
        dbos = DBOSClient(system_database_url=sibling_database_url(server.database_url, "_dbos"))
        try:
            dbos.cancel_workflow(workflow_id)
        finally:
            dbos.destroy()
        server.kill()
    finally:
        fake_ollama.release_embeddings()
    server.start()
    with server.client() as api:
        document = api.get(f"/api/documents/{document_id}").json()
        assert (document["status"], document["error"], document["blocks"]) == ("failed", CANCELLED_MESSAGE, 0), document
        assert not _found(api, "gulf stream", document_id)


def test_cancel_unknown_run_is_404(api: httpx.Client) -> None:
    response = api.post("/api/ingest/ingest-000000000000/cancel")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_cancel_stops_reading_a_scanned_file(api: httpx.Client, unique: Callable[[str], str], tmp_path: Path) -> None:
    # OCR takes about a second a page: the extraction must stop at the next run of pages, not read all.
    name = unique("scanned-stack.pdf")
    pages = [f"Scanned page {n} about glacier flow and basal sliding." for n in range(24)]
    response = upload(api, {name: make_pdf(tmp_path / "s.pdf", pages, scanned=range(1, 25)).read_bytes()})
    assert response.status_code == 202, response.text
    workflow_id = response.json()["workflow_id"]

    def pages_read(run: dict) -> int:
        return run["documents"][0]["progress"]["done"]

    started = pages_read(wait_until(api, workflow_id, lambda s: pages_read(s) >= 1))
    assert api.post(f"/api/ingest/{workflow_id}/cancel").status_code == 200
    time.sleep(8)  # without the stop, OCR would read several more runs meanwhile and report them
    read = pages_read(api.get(f"/api/ingest/{workflow_id}").json())
    # Runs of pages are read in parallel, one per core (the sandbox pool): a run that was ending as the
    # cancel came may still report its pages; the cancel kills the rest.
    in_flight = PER_RUN * len(os.sched_getaffinity(0))
    assert read <= started + in_flight, f"{read} of {len(pages)} pages read after the cancel ({started} before)"
    assert read < len(pages)
