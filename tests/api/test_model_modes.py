"""Chat and every study generator against each way real small models misbehave (tests/support/fake_model.py):
through a real server process, the real `ollama` client and real documents of `shared/corpus`. Each ends
grounded and cited, or with a clear notice — never a silent empty or ungrounded answer — and nothing Quire
sends is ever cut by the model server.

The documents are read once into one database; each mode gets its own server on that database (a model
is asked what it can do once per process) with its own chat model, and a 2-second silence limit, so a
slow first line (3 s: the prompt is read) is waited for and a stalled reply is noticed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.agent.chatting import Stream, chat
from tests.support.corpus import CORPUS
from tests.support.fake_model import MODES
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.study import wait_job
from tests.support.vault import ingest

DOCUMENTS = ("rust-book-ch04-01-ownership.md", "v8-blog-standalone-wasm.html")
QUESTION = "What are the ownership rules in Rust, and how many owners can a value have at a time?"
GROUNDED = {"uncited": "uncited", "stuck": "passages"}  # the rest cite a relevant passage


@pytest.fixture(scope="module")
def vault(postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
          tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database holding the corpus documents (read by a server with the default model); its URL."""
    database = postgres.fresh_database()
    server = QuireServer(database, tmp_path_factory.mktemp("modes-ingest"), fake_ollama_server.url).start(timeout_s=300)
    try:
        with server.client() as api:
            ingest(api, {name: (CORPUS / name).read_bytes() for name in DOCUMENTS}, timeout_s=180)
    finally:
        server.stop()
    return database


@pytest.fixture
def mode_server(vault: str, fake_ollama: FakeOllama, tmp_path: Path) -> Iterator[Callable[[str], httpx.Client]]:
    servers: list[QuireServer] = []
    clients: list[httpx.Client] = []

    def start(mode: str) -> httpx.Client:
        model = f"small-{mode.replace('_', '-')}:1b"
        fake_ollama.add_model(model, MODES[mode])
        server = QuireServer(vault, tmp_path / "data", fake_ollama.url, QUIRE_CHAT_MODEL=model,
                             QUIRE_MODEL_SILENCE_S="2").start(timeout_s=300)
        servers.append(server)
        clients.append(server.client(timeout=120))
        return clients[-1]

    yield start
    for client in clients:
        client.close()
    for server in servers:
        server.stop()


def assert_grounded_or_said(stream: Stream, mode: str) -> None:
    """Never a silent empty or ungrounded answer: cited, or a notice that says what happened."""
    assert stream.text.strip()
    grounding = stream.one("grounding")
    assert grounding["status"] == GROUNDED.get(mode, "cited"), (mode, stream.text)
    cited = {c["n"] for c in stream.citations if c["relevant"] and f"[{c['n']}]" in stream.text}
    if grounding["status"] == "cited":
        assert cited, stream.text
        assert {c["filename"] for c in stream.citations if c["n"] in cited} == {DOCUMENTS[0]}
    else:
        assert grounding["message"].startswith(("Not from your documents", "The model did not answer"))
    # A tool call written as text is run or dropped, never shown.
    assert "search_knowledge_base" not in stream.text
    assert "<tool_call>" not in stream.text


@pytest.mark.parametrize("mode", sorted(MODES))
def test_chat_in_every_mode(mode: str, mode_server: Callable[[str], httpx.Client], fake_ollama: FakeOllama) -> None:
    behaviour = MODES[mode]
    api = mode_server(mode)
    stream = chat(api, QUESTION)
    assert_grounded_or_said(stream, mode)
    model = stream.one("model")
    assert (model["tools"], model["thinking"]) == (behaviour.tools, behaviour.thinking)
    assert model["context_tokens"] == min(behaviour.context_length, 12_288)
    requests = [r for r in fake_ollama.chat_requests if r["model"] == model["name"]]
    # Every call names the model's context, and nothing sent was cut by the server.
    assert {r["options"]["num_ctx"] for r in requests} == {model["context_tokens"]}
    assert fake_ollama.truncations == []
    if not behaviour.thinking:  # no `think` asked of a model that cannot; the panel says so
        assert not any(r.get("think") for r in requests)
        assert model["reasoning"] == "unsupported"
    if not behaviour.tools:  # no tool schemas for a model without tools: Quire's own search grounds it
        assert not any(r.get("tools") for r in requests)
    if behaviour.calls in ("text", "tagged"):  # the printed call was executed as a follow-up search
        assert [t["name"] for t in stream.tools("model") if t["status"] == "finished"] == ["search_knowledge_base"]
    if behaviour.stall_after_lines is not None:  # stuck mid-answer: the text so far, then the passages
        assert stream.one("error")["code"] == "model_timeout"
        assert "The model stopped before it finished, but these passages match" in stream.text
    stored = api.get(f"/api/chat/sessions/{stream.session_id}").json()["messages"][-1]
    assert stored["grounding"] == stream.one("grounding")["status"]
    assert stored["content"] == stream.text


def generate(api: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post(path, json=body)
    assert response.status_code == 202, response.text
    return wait_job(api, response.json()["job_id"], timeout_s=180)


@pytest.mark.parametrize("mode", ["capable", "loose_schemas", "small_context", "no_tools", "stuck"])
def test_study_in_every_mode(mode: str, mode_server: Callable[[str], httpx.Client], fake_ollama: FakeOllama) -> None:
    api = mode_server(mode)
    jobs = {
        "quiz": generate(api, "/api/study/quizzes", {"count": 5, "types": ["mcq"]}),
        "deck": generate(api, "/api/study/decks", {"count": 10}),
        "workshop": generate(api, "/api/study/workshops", {"lessons": 3}),
        "mindmap": generate(api, "/api/study/mindmaps", {"depth": 2}),
    }
    assert fake_ollama.truncations == []
    for kind, job in jobs.items():
        if mode == "stuck":  # a stuck model is a failed job that says so, not a job running for ever
            assert job["status"] == "failed", (kind, job)
            assert job["error"]["code"] == "model_error"
            assert job["error"]["message"].startswith("The model stopped responding")
            continue
        assert job["status"] == "succeeded", (kind, job)
        report = job["report"]
        assert report["kept"] == report["asked"], (kind, report)
    if mode == "loose_schemas":
        quiz = jobs["quiz"]["report"]
        # Repeated and surplus options and an index past the options were repaired; the question short of
        # options was dropped and asked for again, once.
        assert set(quiz["repaired"]) >= {"repeated option removed", "surplus option removed",
                                         "answer index past the options"}
        assert quiz["dropped"]
        assert quiz["reasked"] >= 1
        assert jobs["deck"]["report"]["reasked"] >= 1
        assert "minutes brought into 5–90" in jobs["workshop"]["report"]["repaired"]
        assert "surplus branches removed" in jobs["mindmap"]["report"]["repaired"]
        questions = api.get(jobs["quiz"]["result_url"]).json()["questions"]
        assert len(questions) == 5
        assert all(len(set(q["options"])) == 4 for q in questions)
