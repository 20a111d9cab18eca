"""An audio overview in a real browser: made from the study hub over a real document of the shared corpus
(the fake model writes the script; the real Piper voice speaks it), then played: the line being heard is
highlighted and the highlight moves on as it plays, a line's citation opens the passage in the viewer, and
the audio downloads as an Ogg file; the page breaks no axe rule."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.a11y import axe_violations
from tests.e2e.conftest import ARTIFACTS
from tests.support.corpus import CORPUS
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.vault import ingest

LINES = [
    {"speaker": "A", "text": "Welcome. Today we talk about ownership in Rust.", "source_block_ids": []},
    {"speaker": "B", "text": "What happens to a value when its owner goes out of scope?", "source_block_ids": []},
    {"speaker": "A", "text": "The value is dropped, and its memory is given back.", "source_block_ids": ["P1"]},
]


@pytest.fixture(scope="module")
def book(e2e_server: QuireServer) -> dict[str, Any]:
    name = f"ownership-{uuid.uuid4().hex[:6]}.md"
    with e2e_server.client() as api:
        return ingest(api, {name: (CORPUS / "rust-book-ch04-01-ownership.md").read_bytes()})[name]


def test_an_audio_overview_is_made_played_and_followed_line_by_line(
        page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, book: dict[str, Any]) -> None:
    fake_ollama.script(Reply(content=json.dumps({"lines": LINES})))
    page.goto(e2e_server.url + "/study")
    page.get_by_role("link", name=re.compile("^New audio overview")).click()
    form = page.get_by_role("form", name="New audio overview")
    expect(form).to_contain_text("robotic")  # the German voice is labelled for what it is
    form.get_by_role("button", name="Generate audio overview").click()
    expect(page).to_have_url(re.compile(r"/study/overviews/[0-9a-f-]{36}$"), timeout=60_000)
    lines = page.get_by_test_id("overview-line")
    expect(lines).to_have_count(3)
    # Spoken on this machine: generous for Piper on a loaded 2-core machine.
    player = page.get_by_test_id("overview-audio")
    expect(player).to_be_visible(timeout=300_000)
    expect(page.get_by_text(re.compile(r"Host B: Joe, lowered"))).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "overview-ready.png"))
    assert axe_violations(page, "main") == []

    player.evaluate("audio => { audio.muted = true; }")  # real playback, silent
    lines.nth(0).get_by_role("button").click()  # play from the first line: a user's gesture
    expect(lines.nth(0)).to_have_attribute("aria-current", "true")
    expect(lines.nth(1)).to_have_attribute("aria-current", "true", timeout=60_000)
    expect(lines.nth(0)).not_to_have_attribute("aria-current", "true")
    assert float(player.evaluate("audio => audio.currentTime")) > 0
    page.screenshot(path=str(ARTIFACTS / "overview-playing.png"))

    with page.expect_download() as download:
        page.get_by_role("link", name="Download").click()
    assert download.value.suggested_filename.endswith(".ogg")
    assert Path(download.value.path()).read_bytes()[:4] == b"OggS"

    lines.nth(2).get_by_test_id("overview-citation").click()
    expect(page).to_have_url(re.compile(rf"/library/documents/{book['id']}\?block="))
    expect(page.get_by_test_id("viewer-title")).to_contain_text(book["filename"])
