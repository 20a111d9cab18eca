"""Recordings as documents, through the upload API of a real server: every container a recorder or browser
makes is recognised by its bytes, transcribed on the machine into passages that carry their time span, found
by search at the right second, played from its original with range requests; unusable audio is refused with
a clear 4xx."""

from __future__ import annotations

import io
import json
import re
import wave
from collections.abc import Callable

import httpx
import pytest

from tests.agent.chatting import chat
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.speech import encode, lecture, require_voice, speak
from tests.support.study import card, generate, quiz_reply
from tests.support.vault import ingest, upload, wait_for_run

SENTENCES = ["The mitochondria is the powerhouse of the cell.",
             "Photosynthesis turns sunlight into sugar inside the chloroplast.",
             "The Krebs cycle releases energy from food."]
CONTAINERS = ["wav", "mp3", "m4a", "aac", "flac", "ogg", "webm", "mp4", "mov"]


@pytest.fixture(scope="module")
def spoken() -> tuple[bytes, list[float]]:
    require_voice()
    return lecture(SENTENCES, pause_s=2.5)


def _seconds(section: str) -> tuple[int, int]:
    start, end = section.split("\u2013")
    clock = [[int(part) for part in value.split(":")] for value in (start, end)]
    return tuple(sum(p * 60 ** i for i, p in enumerate(reversed(c))) for c in clock)  # type: ignore[return-value]


@pytest.mark.parametrize("container", CONTAINERS)
def test_each_container_is_transcribed_with_words_at_their_time(
        api: httpx.Client, unique: Callable[[str], str], spoken: tuple[bytes, list[float]], container: str) -> None:
    wav, starts = spoken
    name = unique(f"lecture.{container}")
    document = ingest(api, {name: wav if container == "wav" else encode(wav, container)}, timeout_s=240)[name]
    stored = next(doc for doc in api.get("/api/documents").json() if doc["id"] == document["id"])
    assert (stored["status"], stored["kind"], stored["language"]) == ("ready", "audio", "en"), stored
    assert abs(stored["pages"] - (starts[-1] + 5)) < 4  # its length in seconds
    for word, start in (("mitochondria", starts[0]), ("chloroplast", starts[1]), ("energy", starts[2])):
        hits = api.get("/api/search", params={"q": word, "k": 5, "mode": "sparse",
                                              "documents": document["id"]}).json()["hits"]
        assert hits, word
        hit = hits[0]
        assert word.lower() in hit["text"].lower(), hit
        first, last = _seconds(hit["section"])
        assert first <= start + 1, (word, start, hit["section"])
        assert last >= start, (word, start, hit["section"])


def test_a_recording_is_played_from_any_second(api: httpx.Client, unique: Callable[[str], str],
                                               spoken: tuple[bytes, list[float]]) -> None:
    name = unique("seek.mp3")
    data = encode(spoken[0], "mp3")
    document = ingest(api, {name: data}, timeout_s=240)[name]
    whole = api.get(f"/api/documents/{document['id']}/file")
    assert whole.status_code == 200
    assert whole.content == data
    assert whole.headers["accept-ranges"] == "bytes"
    part = api.get(f"/api/documents/{document['id']}/file", headers={"Range": "bytes=1000-1999"})
    assert part.status_code == 206, part.text
    assert part.content == data[1000:2000]
    assert part.headers["content-range"] == f"bytes 1000-1999/{len(data)}"
    outline = api.get(f"/api/documents/{document['id']}/outline").json()
    assert outline["kind"] == "audio"


@pytest.mark.slow  # Whisper hears a German lecture: about 24 s (the fast tier stays under 5 min)
def test_german_is_heard_as_german(api: httpx.Client, unique: Callable[[str], str]) -> None:
    """Two sentences (seven seconds of speech) are too little for Whisper's own language detection, which
    hears this as English; Quire reads them in each of the user's languages and keeps the fluent one."""
    require_voice()
    wav, _starts = lecture(["Die Zelle ist die kleinste Einheit des Lebens.", "Das Herz pumpt Blut durch den Körper."],
                           voice="de")
    name = unique("vorlesung.m4a")
    document = ingest(api, {name: encode(wav, "m4a")}, timeout_s=240)[name]
    stored = api.get(f"/api/documents/{document['id']}").json()
    assert (stored["kind"], stored["language"]) == ("audio", "de"), stored
    assert api.get(f"/api/documents/{document['id']}/outline").json()["language"] == "de"
    for word in ("Einheit", "Körper"):
        hits = api.get("/api/search", params={"q": word, "k": 5, "mode": "sparse",
                                              "documents": document["id"]}).json()["hits"]
        assert hits, word
        assert word.lower() in hits[0]["text"].lower(), (word, hits)


def test_unusable_audio_is_refused_with_a_clear_4xx(api: httpx.Client, unique: Callable[[str], str]) -> None:
    require_voice()
    refused = upload(api, {unique("broken.ogg"): b"OggS" + bytes(300), unique("sound.mp3"): b"these are words",
                           unique("empty-track.wav"): speak("x")[:44]})
    assert refused.status_code in (413, 415, 422), refused.text
    codes = {item["code"] for item in refused.json()["error"]["details"]}
    assert codes <= {"unreadable_audio", "content_mismatch"}, refused.json()
    assert "unreadable_audio" in codes, refused.json()


def test_silence_is_said_to_hold_no_speech(api: httpx.Client, unique: Callable[[str], str]) -> None:
    require_voice()
    out = io.BytesIO()
    with wave.open(out, "wb") as target:
        target.setnchannels(1)
        target.setsampwidth(2)
        target.setframerate(16000)
        target.writeframes(bytes(16000 * 2 * 60))
    name = unique("silence.wav")
    response = upload(api, {name: out.getvalue()})
    assert response.status_code == 202, response.text
    wait_for_run(api, response.json()["workflow_id"], timeout_s=240)
    (document,) = response.json()["documents"]
    stored = next(doc for doc in api.get("/api/documents").json() if doc["id"] == document["id"])
    assert stored["status"] == "failed", stored
    assert "No speech" in stored["error"], stored


def test_a_recording_is_a_source_like_any_other(api: httpx.Client, fake_ollama: FakeOllama,
                                                unique: Callable[[str], str],
                                                spoken: tuple[bytes, list[float]]) -> None:
    """Chat cites it "at m:ss" (to the model and in the citation's section), and quizzes and flashcards are
    generated from its passages and grounded on them, through the server with the fake model."""
    wav, starts = spoken
    name = unique("cell-lecture.ogg")
    document = ingest(api, {name: encode(wav, "ogg")}, timeout_s=240)[name]
    fake_ollama.script(
        Reply(thinking="Search the lecture.", content="x"),
        Reply(tool_calls=[("search_knowledge_base", {"query": "chloroplast photosynthesis sugar"})]),
        Reply(content="Photosynthesis happens in the chloroplast [1]."),
    )
    stream = chat(api, "Where does photosynthesis happen?", scope={"document_ids": [document["id"]]})
    cited = [c for c in stream.citations if c["document_id"] == document["id"]]
    assert cited, stream.citations
    assert cited[0]["kind"] == "audio"
    first, _last = _seconds(cited[0]["section"])
    assert first <= starts[1] + 1
    # Every search's result the model read (Quire's own search of the question comes first, then the model's).
    told = "\n".join(m["content"] for m in fake_ollama.chat_requests[2]["messages"] if m["role"] == "tool")
    assert re.search(rf"{re.escape(name)}, at \d+:\d\d", told), told

    scope = {"document_ids": [document["id"]]}
    quiz = api.get(generate(api, fake_ollama, "/api/study/quizzes", {"scope": scope, "count": 5},
                            quiz_reply(5))["result_url"]).json()
    assert quiz["question_count"] >= 1
    assert {source["document_id"] for q in quiz["questions"] for source in q["sources"]} == {document["id"]}
    assert "chloroplast" in fake_ollama.chat_requests[-1]["messages"][0]["content"].lower()
    deck = api.get(generate(api, fake_ollama, "/api/study/decks", {"scope": scope, "count": 10},
                            json.dumps({"cards": [card(n) for n in range(1, 11)]}))["result_url"]).json()
    assert deck["card_count"] == 10
    assert {source["filename"] for c in deck["cards"] for source in c["sources"]} == {name}
