"""A spoken question in a real browser: Chromium's fake microphone plays an espeak-ng recording, the
composer's mic records it with MediaRecorder, and the transcription (by the server's local Whisper
model) lands in the message box, after what was already typed, for the user to check and send."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Playwright, expect

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.server import QuireServer
from tests.support.speech import require_voice, speak

SPOKEN = "What is the capital of France?"


@pytest.fixture(scope="module")
def spoken_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_voice()
    path = tmp_path_factory.mktemp("voice") / "question.wav"
    speak(SPOKEN, path=path)
    return path


@pytest.fixture(scope="module")
def voice_browser(playwright_instance: Playwright, spoken_wav: Path) -> Iterator[Browser]:
    """Chromium whose microphone is the recording (played once), with the permission prompt pre-granted."""
    browser = playwright_instance.chromium.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={spoken_wav}%noloop",
    ])
    yield browser
    browser.close()


def test_mic_puts_the_spoken_question_in_the_composer(voice_browser: Browser, e2e_server: QuireServer) -> None:
    context = voice_browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if isinstance(m, ConsoleMessage) and m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(e2e_server.url + "/chat")
        box = page.get_by_role("textbox", name="Message")
        box.fill("Quick one:")
        page.get_by_role("button", name="Ask by voice").click()
        stop = page.get_by_role("button", name="Stop recording")
        expect(stop).to_be_visible()
        page.wait_for_timeout(3500)  # the recording is ~2.5 s long
        stop.click()
        expect(box).to_have_value(
            re.compile(r"^Quick one: .*capital.*France", re.IGNORECASE), timeout=90_000)
        expect(page.get_by_role("button", name="Ask by voice")).to_be_enabled()  # the mic is free again
        assert not errors, errors
    finally:
        context.close()
