"""The sidebar's health light in a real browser: when the server goes away, the first request that fails
turns it amber at once (the health poll runs only every 30 s), and it turns green again when the server
is back."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleWatch
from tests.support.server import QuireServer
from tests.support.vault import ingest

HEALTH_POLL_S = 30


def test_light_turns_amber_at_the_first_failed_request(
    page: Page, server_factory: Callable[..., QuireServer], console: ConsoleWatch
) -> None:
    console.allow(r"Failed to load resource|ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE")
    server = server_factory()
    with server.client() as api:  # the passage search box is shown once the library holds a document
        ingest(api, {"plants.md": b"# Plants\n\nPhotosynthesis turns light into sugar."})
    page.goto(server.url + "/library")
    light = page.get_by_test_id("health-light")
    expect(light).to_have_attribute("data-state", "ready")
    expect(light).to_contain_text("All systems ready")

    server.kill()
    started = time.monotonic()
    page.get_by_label("Search documents and passages").fill("photosynthesis")  # a request that fails
    expect(light).to_have_attribute("data-state", "failing", timeout=5_000)
    expect(light).to_contain_text("Server not answering")
    assert time.monotonic() - started < HEALTH_POLL_S / 3
    # The health check it triggered fails too: the server is confirmed unreachable.
    expect(light).to_have_attribute("data-state", "offline", timeout=20_000)

    server.start()
    expect(light).to_have_attribute("data-state", "ready", timeout=30_000)
