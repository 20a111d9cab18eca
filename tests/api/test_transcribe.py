"""`POST /api/transcribe` on a real server with the real local Whisper model: speech made by espeak-ng,
in the containers browsers record, comes back as the words spoken (English and German); what is not a
recording, too big or too long is a clear 4xx; `/api/health` says which model answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.support.server import QuireServer
from tests.support.speech import encode, require_voice, speak

QUESTION = "What is the capital of France?"


@pytest.fixture(autouse=True)
def _voice() -> None:
    require_voice()


def post_audio(api: httpx.Client, data: bytes, name: str = "question.webm", mime: str = "audio/webm",
               **fields: str) -> httpx.Response:
    return api.post("/api/transcribe", files={"audio": (name, data, mime)}, data=fields or None, timeout=120)


def words(text: str) -> set[str]:
    return {w.strip(".,?!").lower() for w in text.split()}


@pytest.mark.parametrize("container", ["wav", "webm", "ogg", "mp4"])
def test_speech_becomes_text(api: httpx.Client, container: str) -> None:
    wav = speak(QUESTION)
    audio = wav if container == "wav" else encode(wav, container)
    response = post_audio(api, audio, f"q.{container}", f"audio/{container}")
    assert response.status_code == 200, response.text
    body = response.json()
    assert {"capital", "france"} <= words(body["text"]), body
    assert body["language"] == "en"
    assert 1.0 < body["duration_s"] < 5.0


def test_german_speech_is_transcribed_in_german(api: httpx.Client) -> None:
    body = post_audio(api, encode(speak("Was ist die Hauptstadt von Frankreich?", voice="de"), "webm")).json()
    assert body["language"] == "de"
    assert {"hauptstadt", "frankreich"} <= words(body["text"]), body


def test_health_names_the_voice_model(api: httpx.Client) -> None:
    voice = api.get("/api/health").json()["voice"]
    assert voice == {"available": True, "model": "base", "multilingual": True, "hint": None}


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    return response.json()["error"]


def test_limits_and_bad_input(server_factory: Callable[..., QuireServer]) -> None:
    quire = server_factory(QUIRE_VOICE_MAX_SECONDS="3", QUIRE_VOICE_MODEL="tiny.en")  # so at most 1 MB
    with quire.client() as api:
        long_wav = speak("This recording goes on for quite a while, much longer than three seconds allow.")
        assert error_of(post_audio(api, long_wav, "long.wav", "audio/wav"), 422)["code"] == "audio_too_long"
        big = b"\x1a\x45\xdf\xa3" + bytes(2 * 1024 * 1024)
        assert error_of(post_audio(api, big), 413)["code"] == "audio_too_large"
        assert error_of(post_audio(api, b"%PDF-1.7 not audio", "x.webm"), 415)["code"] == "unsupported_audio"
        assert error_of(post_audio(api, b"OggS" + bytes(200), "x.ogg"), 415)["code"] == "unreadable_audio"
        assert error_of(api.post("/api/transcribe", data={"language": "en"},
                                 files={"other": ("a.txt", b"x", "text/plain")}), 422)["code"] == "missing_audio"
        assert error_of(api.post("/api/transcribe", content=speak("hi"),
                                 headers={"Content-Type": "audio/wav"}), 415)["code"] == "invalid_request"
        short = speak(QUESTION)
        assert error_of(post_audio(api, short, "q.wav", "audio/wav", language="de"), 422)["code"] == \
            "unsupported_language"  # tiny.en is English-only
        english = post_audio(api, short, "q.wav", "audio/wav").json()
        assert {"capital", "france"} <= words(english["text"])
        assert api.get("/api/health").json()["voice"]["model"] == "tiny.en"
