"""A recording cited in a real browser: the library's search finds a word spoken in a lecture, and its
result opens the recording's viewer with the player at the passage's second, the passage highlighted; as
the recording plays on, the highlight follows to the next passage. The lecture is espeak-ng speech with
known sentence starts (tests/support/speech.py), uploaded as MP3 and transcribed by the real server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS
from tests.support.server import QuireServer
from tests.support.speech import encode, lecture, require_voice
from tests.support.vault import ingest

# Small passages, so a two-minute lecture has several to cite and follow.
SERVER_ENV = {"QUIRE_VOICE_MODEL": "tiny.en", "QUIRE_CHUNK_SIZE": "300"}
TOPICS = [
    ["Cells are the smallest units of life.", "Every cell is wrapped in a thin membrane.",
     "The membrane decides what may enter the cell.", "Inside, the nucleus keeps the genes."],
    ["Plants make their own food from light.", "Photosynthesis happens inside the chloroplast.",
     "Light energy splits water and releases oxygen.", "The sugar made there feeds the whole plant."],
    ["Animals breathe to burn that sugar.", "The lungs take oxygen from the air.",
     "The heart pumps blood through the body.", "Blood carries oxygen to every muscle."],
]


@pytest.fixture(scope="module")
def recording(e2e_server: QuireServer) -> tuple[dict[str, Any], list[float]]:
    require_voice()
    sentences = [sentence for topic in TOPICS for sentence in topic]
    wav, starts = lecture(sentences, pause_s=1.2)
    with e2e_server.client() as api:
        document = ingest(api, {"biology-lecture.mp3": encode(wav, "mp3")}, timeout_s=600)["biology-lecture.mp3"]
    return document, starts


def _player_time(page: Page) -> float:
    return float(page.get_by_test_id("recording-player").evaluate("audio => audio.currentTime"))


def _clock(value: str) -> float:
    minutes, seconds = value.split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_cited_moment_plays_with_its_passage_highlighted_and_followed(
        page: Page, e2e_server: QuireServer, recording: tuple[dict[str, Any], list[float]]) -> None:
    document, starts = recording
    spoken_at = starts[5]  # "Photosynthesis happens inside the chloroplast."
    page.goto(e2e_server.url + "/library")
    page.get_by_label("Search documents and passages").fill("chloroplast")
    results = page.get_by_test_id("passage-results")
    hit = results.get_by_test_id("passage-group").filter(has_text="biology-lecture.mp3").get_by_test_id("passage-hit")
    expect(hit.first).to_contain_text("at ")  # the place of a recording's passage is its time
    hit.first.click()
    expect(page).to_have_url(re.compile(rf"/library/documents/{document['id']}\?block="))

    view = page.get_by_test_id("recording-view")
    cited = view.locator("[data-passage][aria-current=true]")
    expect(cited).to_contain_text("chloroplast")
    passage_start = _clock(cited.get_by_role("button").inner_text())
    assert passage_start <= spoken_at + 1, (passage_start, spoken_at)
    expect(page.get_by_test_id("recording-language")).to_contain_text("English")
    # The player stands at the cited passage's second (once it has the recording's length, it seeks).
    page.wait_for_function("start => Math.abs(document.querySelector('audio').currentTime - start) < 1",
                           arg=passage_start)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "recording-cited.png"))

    # Play on (fast, muted: real playback all the same): the highlight moves on to the next passage.
    cited = view.locator(f'[data-passage="{cited.get_attribute("data-passage")}"]')  # this one, not the current
    following = cited.locator("xpath=following-sibling::li[1]")
    following_start = _clock(following.get_by_role("button").inner_text())
    page.get_by_test_id("recording-player").evaluate("audio => { audio.muted = true; audio.playbackRate = 4; }")
    cited.get_by_role("button").click()  # "Play from m:ss", a user's gesture
    expect(following).to_have_attribute("aria-current", "true", timeout=60_000)
    expect(cited).not_to_have_attribute("aria-current", "true")
    assert _player_time(page) >= following_start
    page.screenshot(path=str(ARTIFACTS / "recording-following.png"))
