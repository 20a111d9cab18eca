"""`GET /api/health` reports each part's real state, and ingestion runs can be listed and followed as
an NDJSON stream that ends when the workflow does."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

import httpx

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import RUN_WAIT_S, upload


def test_health_reports_postgres_dbos_models_and_index(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    health = api.get("/api/health").json()
    assert health["status"] == "ok"
    assert health["postgres"] == {"ok": True, "embedded": False}  # the tests' server gets a DATABASE_URL
    assert health["dbos"]["ok"]
    assert health["dbos"]["application_version"]
    chat_model = health["ollama"]["chat_model"]["name"]
    assert health["ollama"]["reachable"]
    assert health["ollama"]["chat_model"]["present"]
    assert health["ollama"]["embed_model"]["present"]
    assert health["index"]["state"] == "ready"
    assert health["hints"] == []

    saved = list(fake_ollama.models)
    fake_ollama.models[:] = [m for m in saved if m.split(":")[0] != chat_model.split(":")[0]]
    try:
        degraded = api.get("/api/health").json()
    finally:
        fake_ollama.models[:] = saved
    assert degraded["status"] == "degraded"
    assert degraded["ollama"]["chat_model"] == {"name": chat_model, "present": False}
    assert any(f"ollama pull {chat_model}" in hint for hint in degraded["hints"])


def test_a_run_is_listed_and_its_event_stream_ends_with_the_workflow(
        api: httpx.Client, unique: Callable[[str], str]) -> None:
    name = unique("stream-notes.md")
    workflow_id = upload(api, {name: b"# Streams\n\nNDJSON sends one JSON document per line."}).json()["workflow_id"]
    with api.stream("GET", f"/api/ingest/{workflow_id}/events", timeout=60) as response:
        assert response.headers["content-type"].startswith("application/x-ndjson")
        events = [json.loads(line) for line in response.iter_lines() if line.strip()]
    assert events[-1] == {"type": "end", "data": {"status": "SUCCESS"}}
    progress = [e["data"] for e in events if e["type"] == "progress"]
    assert progress
    assert progress[-1]["documents"][0]["filename"] == name
    assert progress[-1]["documents"][0]["status"] == "ready"
    assert [step["name"] for step in progress[-1]["steps"]]  # the DBOS steps, as they ran

    runs = api.get("/api/ingest", params={"limit": 5}).json()
    assert workflow_id in [run["workflow_id"] for run in runs]
    assert next(run for run in runs if run["workflow_id"] == workflow_id)["status"] == "SUCCESS"
    assert api.get("/api/ingest", params={"limit": 0}).status_code == 422


def test_passages_waiting_for_an_ollama_that_cannot_embed_say_why(
        api: httpx.Client, fake_ollama: FakeOllama, unique: Callable[[str], str]) -> None:
    # "Embedding with embeddinggemma: 0 of 21 passages" was shown while Ollama was not running at all:
    # nothing was embedding, and the line said it was.
    embed_model = api.get("/api/health").json()["ollama"]["embed_model"]["name"]
    fake_ollama.hold_embeddings()  # the passages wait for their vectors
    response = upload(api, {unique("waiting.md"): b"# Osmosis\n\nWater moves across a membrane. " * 40})
    assert response.status_code == 202, response.text
    waiting = re.compile(rf"^[\d,]+ of [\d,]+ passages wait for {re.escape(embed_model)}: (.+)$")

    def reason() -> str:
        deadline = time.monotonic() + RUN_WAIT_S  # until the note's passages are stored
        while (progress := api.get("/api/health").json()["embedder"]["progress"]) is None:
            assert time.monotonic() < deadline, "the passages never waited for vectors"
            time.sleep(0.2)
        matched = waiting.match(progress["sentence"])
        assert matched, progress["sentence"]
        return matched.group(1)

    saved = list(fake_ollama.models)
    fake_ollama.models[:] = [m for m in saved if m.split(":")[0] != embed_model.split(":")[0]]
    try:
        assert reason() == "the model is not pulled in Ollama"
    finally:
        fake_ollama.models[:] = saved
    fake_ollama.stop()
    assert reason() == "Ollama is not running"
    fake_ollama.start()
    fake_ollama.release_embeddings()
    progress = api.get("/api/health").json()["embedder"]["progress"]
    assert progress is None or progress["sentence"].startswith("Embedding with"), progress


def test_embedding_progress_gives_the_speed_measured_here_and_the_time_left(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> None:
    # Health once measured the vault's embedder wrapper instead of the model's own embedder: the speed it
    # reads is the model's, so the line said "Embedding with embeddinggemma: 8 of 40 passages" with no
    # time left, and the built-in model was named instead of "the built-in model".
    server = server_factory(QUIRE_EMBED_BATCH_SIZE="4")
    fake_ollama.embed_delay_s = 0.3
    note = "\n\n".join(f"## Part {i}\n\n" + f"Tide pools number {i} hold anemones and crabs. " * 30
                       for i in range(40))
    with server.client() as api:
        embed_model = api.get("/api/health").json()["ollama"]["embed_model"]["name"]
        assert upload(api, {"tides.md": note.encode()}).status_code == 202
        deadline = time.monotonic() + RUN_WAIT_S
        while True:
            progress = api.get("/api/health").json()["embedder"]["progress"]
            if progress and 0 < progress["embedded"] < progress["total"]:
                break
            assert time.monotonic() < deadline, f"never caught mid-embedding: {progress}"
            time.sleep(0.1)
    assert progress["model"] == embed_model
    assert progress["passages_per_s"], progress  # measured by the batches already embedded
    assert progress["passages_per_s"] > 0
    assert progress["seconds_left"] > 0
    assert re.fullmatch(rf"Embedding with {re.escape(embed_model)}: [\d,]+ of [\d,]+ passages, "
                        r"(about \d+ min|less than (2 min|a minute)) left", progress["sentence"]), progress
