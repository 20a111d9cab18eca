"""Ingestion survives a crash of the backend, and the open page catches up by itself: the backend is
SIGKILLed while embedding, restarted, DBOS resumes the workflow, and the page — never reloaded —
reconnects to the run's event stream and shows the file ready."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleWatch, require_built_app
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer

NAME = "long-lecture-notes.md"


def _long_notes() -> bytes:
    sections = [f"## Topic {i}\n\n" + f"Topic {i} covers enzyme kinetics and reaction rate number {i}. " * 6
                for i in range(1, 13)]
    return ("# Lecture notes\n\n" + "\n\n".join(sections)).encode()


def test_ingestion_finishes_after_a_backend_crash_and_the_page_catches_up(
    page: Page, server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, console: ConsoleWatch
) -> None:
    require_built_app()
    # While the server is down the browser logs its failed reconnection attempts; those are expected.
    console.allow(r"Failed to load resource|ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|ERR_INCOMPLETE_CHUNKED_ENCODING")
    server = server_factory(QUIRE_EMBED_BATCH_SIZE="1", QUIRE_CHUNK_SIZE="200", QUIRE_CHUNK_OVERLAP="0")
    fake_ollama.embed_delay_s = 1  # one passage per second: plenty of time to crash mid-embedding

    page.goto(server.url + "/library")
    page.get_by_label("Choose files to upload").set_input_files(
        files=[{"name": NAME, "mimeType": "text/markdown", "buffer": _long_notes()}])
    item = page.locator(f'[data-testid="ingest-item"][data-filename="{NAME}"]')
    expect(item).to_contain_text("Embedding · batch", timeout=60_000)

    server.kill()
    expect(page.get_by_text("Reconnecting…")).to_be_visible(timeout=30_000)
    fake_ollama.embed_delay_s = 0.05
    server.restart()

    expect(item).to_have_attribute("data-status", "ready", timeout=120_000)
    expect(page.get_by_text("Reconnecting…")).to_have_count(0)
    row = page.locator(f'[data-testid="document-row"][data-filename="{NAME}"]')
    expect(row).to_have_attribute("data-status", "ready")
    expect(row).to_contain_text("100%")
    with server.client() as api:
        [document] = [d for d in api.get("/api/documents").json() if d["filename"] == NAME]
    assert document["status"] == "ready"
    assert document["embedded_fraction"] == 1.0
    assert server.starts == 2
