"""`POST /api/chat` and `/api/chat/sessions` over HTTP: validation as JSON errors before the stream,
sessions, memory figures kept with the answers, the model-down fallback, model errors mid-answer,
disconnects, attachments (also reused when an answer is regenerated), activity."""

from __future__ import annotations

import base64
import io
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pymupdf
import pytest
from PIL import Image

from tests.agent.chatting import Library, chat, library, user_messages
from tests.support.corpus import CORPUS
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.vault import ingest


@pytest.fixture
def lib(quire: QuireServer, api: httpx.Client) -> Library:
    return library(quire.url, api)


def png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "blue").save(buffer, format="PNG")
    return buffer.getvalue()


def attachment(name: str, data: bytes, mime: str = "") -> dict[str, str]:
    return {"name": name, "mime_type": mime, "data": base64.b64encode(data).decode()}


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    return response.json()["error"]


def wait_for_answer(api: httpx.Client, session_id: str, done: Any, timeout_s: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        answer = api.get(f"/api/chat/sessions/{session_id}").json()["messages"][-1]
        if done(answer) or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


def test_bad_input_is_a_json_error_before_any_stream(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    post = lambda **body: api.post("/api/chat", json=body)  # noqa: E731
    assert error_of(post(message="   "), 422)["code"] == "empty_message"
    assert error_of(post(message="x" * 20_001), 422)["code"] == "message_too_long"
    assert error_of(post(), 422)["code"] == "invalid_request"
    unknown = "00000000-0000-4000-8000-000000000000"
    assert error_of(post(message="q", session_id=unknown), 404)["code"] == "not_found"
    assert error_of(post(message="q", session_id="not-a-uuid"), 422)["code"] == "invalid_request"
    assert error_of(post(message="q", scope={"document_ids": [unknown]}), 404)["code"] == "unknown_documents"
    assert error_of(post(message="q", scope={"document_ids": ["nope"]}), 422)["code"] == "invalid_document_id"
    assert error_of(post(message="q", rewind_to_message_id=unknown), 422)["code"] == "rewind_without_session"
    assert error_of(post(message="q", reuse_attachments=True), 422)["code"] == "reuse_without_rewind"
    session = chat(api, "hello").session_id
    assert error_of(post(message="q", session_id=session, rewind_to_message_id=unknown), 404)["code"] == "not_found"
    assert error_of(post(message="q", attachments=[attachment("a.exe", b"MZ")]), 415)["code"] == \
        "unsupported_attachment"
    assert error_of(post(message="q", attachments=[attachment("a.png", b"%PDF-1.4")]), 415)["code"] == \
        "content_mismatch"
    assert error_of(post(message="q", attachments=[{"name": "a.png", "data": "@@@"}]), 422)["code"] == \
        "invalid_attachment"
    assert error_of(post(message="q", attachments=[attachment(f"{i}.png", png()) for i in range(6)]), 422)
    huge = attachment("big.png", b"\x89PNG\r\n\x1a\n" + bytes(10 * 1024 * 1024))
    assert error_of(post(message="q", attachments=[huge]), 413)["code"] == "attachment_too_large"
    # None of these reached the model, and the bad requests stored nothing in the session.
    assert len(fake_ollama.chat_requests) == 1
    assert len(api.get(f"/api/chat/sessions/{session}").json()["messages"]) == 2


def test_sessions_list_get_rename_delete(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    question = "What are   the three stages of cell respiration, and where in the cell do they each take place?"
    stream = chat(api, question)
    sid = stream.session_id
    listed = {s["id"]: s for s in api.get("/api/chat/sessions").json()}
    assert listed[sid]["title"] == "What are the three stages of cell respiration, and where in…"
    assert listed[sid]["turns"] == 1
    assert listed[sid]["title_is_custom"] is False

    chat(api, "And glycolysis?", session_id=sid)
    session = api.get(f"/api/chat/sessions/{sid}").json()
    said = [m for m in session["messages"] if m["role"] != "tool" and not m["tool_calls"]]  # not the searches
    assert [(m["turn"], m["role"]) for m in said] == [(1, "user"), (1, "assistant"), (2, "user"), (2, "assistant")]
    assert session["messages"][0]["content"] == question
    assert session["turns"] == 2

    renamed = api.patch(f"/api/chat/sessions/{sid}", json={"title": "  Respiration  "})
    assert renamed.status_code == 200
    assert renamed.json()["title"] == "Respiration"
    assert renamed.json()["title_is_custom"] is True
    assert error_of(api.patch(f"/api/chat/sessions/{sid}", json={"title": " "}), 422)["code"] == "empty_title"
    # A rewind of the first turn derives titles again only for sessions the user did not name.
    chat(api, "Something else entirely", session_id=sid, rewind_to_message_id=session["messages"][0]["id"])
    assert api.get(f"/api/chat/sessions/{sid}").json()["title"] == "Respiration"

    assert api.delete(f"/api/chat/sessions/{sid}").status_code == 204
    assert error_of(api.get(f"/api/chat/sessions/{sid}"), 404)["code"] == "not_found"
    assert error_of(api.delete(f"/api/chat/sessions/{sid}"), 404)["code"] == "not_found"
    assert sid not in {s["id"] for s in api.get("/api/chat/sessions").json()}


def test_memory_figures_are_kept_with_each_answer(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    first = chat(api, "What is osmosis?")
    second = chat(api, "And diffusion?", session_id=first.session_id)
    messages = api.get(f"/api/chat/sessions/{first.session_id}").json()["messages"]
    answers = [m for m in messages if m["role"] == "assistant" and not m["tool_calls"]]
    assert [m["memory"] for m in answers] == [first.one("memory"), second.one("memory")]
    assert all(m["memory"] is None for m in messages if m not in answers)
    assert first.one("memory")["context_tokens"] == 12_288  # the fake model's 32k, capped
    assert second.one("memory")["turns_kept"] == 1
    assert second.one("memory")["used_chars"] > first.one("memory")["used_chars"]


@contextmanager
def ollama_down(fake: FakeOllama) -> Iterator[None]:
    """Stop the fake and bring it back on the same port (the shared server keeps talking to that port)."""
    port = int(fake.url.rsplit(":", 1)[1])
    fake.stop()
    try:
        yield
    finally:
        fake.start(port)


def test_model_down_still_answers_with_passages(api: httpx.Client, fake_ollama: FakeOllama, lib: Library) -> None:
    with ollama_down(fake_ollama):
        # Every word of the question is in the respiration note: whether a word the vault lacks ("make")
        # vetoes it depends on what the session's other tests have put in the shared vault (idf), which
        # is the relevance gate's concern (tests/retrieval/test_relevance.py), not this fallback's.
        stream = chat(api, "How do mitochondria produce ATP?", scope=lib.scope("respiration", "enzymes"))
    kinds = stream.types
    assert kinds[0] == "start"
    assert kinds[-4:] == ["text", "grounding", "error", "done"]
    assert "memory" not in kinds
    assert stream.grounding == "passages"
    citations = stream.citations
    assert citations
    assert {c["document_id"] for c in citations} <= {lib.id("respiration"), lib.id("enzymes")}
    assert stream.text.startswith("The model isn't available, but these passages match your question:")
    assert f"[1] **{citations[0]['filename']}" in stream.text
    error = stream.one("error")
    assert error["code"] == "model_unavailable"
    assert error["retryable"] is True
    assert "ollama serve" in error["message"]
    answer = api.get(f"/api/chat/sessions/{stream.session_id}").json()["messages"][-1]
    assert answer["status"] == "error"
    assert answer["citations"] == citations
    assert answer["content"] == stream.text
    assert answer["memory"] is None  # nothing was sent to a model, and the stream had no memory line


def test_model_not_pulled_says_what_to_pull(api: httpx.Client, fake_ollama: FakeOllama, lib: Library) -> None:
    fake_ollama.models = ["embeddinggemma:latest"]
    stream = chat(api, "What is the induced fit model?", scope=lib.scope("enzymes"))
    assert "ollama pull gemma4:e4b" in stream.one("error")["message"]
    assert stream.citations
    greeting = chat(api, "hello")
    assert greeting.types[-3:] == ["text", "error", "done"]
    assert "memory" not in greeting.types
    assert "grounding" not in greeting.types  # small talk searched nothing
    assert "isn't available" in greeting.text


def test_model_error_mid_answer_keeps_the_partial_answer(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply(thinking="Answer directly."),
        Reply(content="Osmosis is the movement of water across a membrane", chunks=5, error_after_chunks=2),
    )
    stream = chat(api, "What is osmosis?")
    assert stream.types[-4:] == ["grounding", "memory", "error", "done"]
    assert stream.one("error")["code"] == "model_error"
    # The text the model wrote stays; the passages found for the question follow it.
    partial, _, passages = stream.text.partition("\n\n---\n\n")
    assert partial
    assert "Osmosis is the movement of water across a membrane".startswith(partial)
    assert len(partial) < len("Osmosis is the movement of water across a membrane")
    assert passages.startswith("The model stopped before it finished")
    answer = api.get(f"/api/chat/sessions/{stream.session_id}").json()["messages"][-1]
    assert (answer["status"], answer["content"]) == ("partial", stream.text)
    assert answer["error"]["code"] == "model_error"


def test_disconnect_cancels_the_model_call_and_keeps_the_partial_answer(api: httpx.Client,
                                                                       fake_ollama: FakeOllama) -> None:
    full = " ".join(f"word{i}" for i in range(60))
    fake_ollama.script(Reply(content=full, chunks=60, delay_s=0.1))
    with api.stream("POST", "/api/chat", json={"message": "hi"}) as response:
        lines = response.iter_lines()
        start = json.loads(next(lines))["data"]
        texts = 0
        for line in lines:
            texts += json.loads(line)["type"] == "text"
            if texts == 3:
                break
    # The stream was closed after three text pieces of sixty. The answer is stored as partial at once;
    # had the model call carried on, it would only appear, complete, after the whole reply.
    answer = wait_for_answer(api, start["session_id"], lambda a: a["content"])
    assert answer["status"] == "partial"
    assert answer["content"]
    assert full.startswith(answer["content"])
    assert answer["content"] != full


def test_attachments_reach_the_model(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    image = png()
    fake_ollama.script(Reply(thinking="An image and a file."), Reply(content="I see a blue square."))
    stream = chat(api, "What is in the picture, and what do my notes say?", attachments=[
        attachment("square.png", image, "image/png"),
        attachment("notes.txt", b"The exam is on Friday.", "text/plain"),
    ])
    thinking, answering = fake_ollama.chat_requests
    for request in (thinking, answering):
        user = [m for m in request["messages"] if m["role"] == "user"][-1]
        assert user["images"] == [base64.b64encode(image).decode()]
        assert user["content"] == ('<attached_file name="notes.txt">\nThe exam is on Friday.\n</attached_file>\n\n'
                                   "What is in the picture, and what do my notes say?")
    question = api.get(f"/api/chat/sessions/{stream.session_id}").json()["messages"][0]
    assert question["content"] == "What is in the picture, and what do my notes say?"
    assert [(a["name"], a["kind"]) for a in question["attachments"]] == [("square.png", "image"),
                                                                         ("notes.txt", "document")]
    # The next turn still sends the image and the file with the question they came with.
    fake_ollama.script(Reply(thinking="Follow-up."), Reply(content="Blue."))
    chat(api, "Which colour was it?", session_id=stream.session_id)
    first_question = fake_ollama.chat_requests[-1]["messages"][1]
    assert first_question["images"] == [base64.b64encode(image).decode()]
    assert "The exam is on Friday." in user_messages(fake_ollama.chat_requests[-1])[0]


def test_regenerating_an_answer_sends_the_same_attachments_again(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    image = png()
    stream = chat(api, "What is in the picture, and what do my notes say?", attachments=[
        attachment("square.png", image, "image/png"),
        attachment("notes.txt", b"The exam is on Friday.", "text/plain"),
    ])
    asked = [m for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "user"][-1]

    fake_ollama.chat_requests.clear()
    regenerated = chat(api, "What is in the picture, and what do my notes say?", session_id=stream.session_id,
                       rewind_to_message_id=stream.message_id, reuse_attachments=True)
    thinking, answering = fake_ollama.chat_requests
    for request in (thinking, answering):
        user = [m for m in request["messages"] if m["role"] == "user"][-1]
        assert user["images"] == [base64.b64encode(image).decode()]
        assert user["content"] == asked["content"]
        assert "The exam is on Friday." in user["content"]
    messages = api.get(f"/api/chat/sessions/{stream.session_id}").json()["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant"]  # with Quire's search
    assert messages[0]["id"] == regenerated.user_message_id
    assert [a["name"] for a in messages[0]["attachments"]] == ["square.png", "notes.txt"]

    # The carried-over image is stored with the new question: a later turn still replays it.
    chat(api, "Which colour was it?", session_id=stream.session_id)
    assert fake_ollama.chat_requests[-1]["messages"][1]["images"] == [base64.b64encode(image).decode()]

    # Editing with the attachments kept, plus a new file: the reused ones come first.
    chat(api, "Compare both files", session_id=stream.session_id, rewind_to_message_id=regenerated.user_message_id,
         reuse_attachments=True, attachments=[attachment("plan.md", b"# Plan\n\nRevise on Thursday.")])
    user = [m for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "user"][-1]
    assert user["images"] == [base64.b64encode(image).decode()]
    assert user["content"].index("The exam is on Friday.") < user["content"].index("Revise on Thursday.")
    assert user["content"].endswith("Compare both files")
    question = api.get(f"/api/chat/sessions/{stream.session_id}").json()["messages"][0]
    assert [a["name"] for a in question["attachments"]] == ["square.png", "notes.txt", "plan.md"]

    # Without reuse_attachments an edit asks without them, as before.
    chat(api, "Just the question", session_id=stream.session_id, rewind_to_message_id=question["id"])
    user = [m for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "user"][-1]
    assert "images" not in user
    assert user["content"] == "Just the question"
    assert api.get(f"/api/chat/sessions/{stream.session_id}").json()["messages"][0]["attachments"] == []


def test_each_question_counts_as_study_activity(quire: QuireServer, api: httpx.Client,
                                                fake_ollama: FakeOllama) -> None:
    stream = chat(api, "hello")
    chat(api, "thanks", session_id=stream.session_id)

    def recorded() -> int:
        with psycopg.connect(quire.database_url) as conn:
            (count,) = conn.execute("SELECT count(*) FROM activity_events WHERE kind = 'chat_message'"
                                    " AND ref = %s", (stream.session_id,)).fetchone()
        return count

    # Recorded right after `done` (off the answer's path), so it may land a moment after the stream ends.
    deadline = time.monotonic() + 5
    while recorded() < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert recorded() == 2


def test_an_answer_the_database_refuses_still_ends_the_stream(quire: QuireServer, api: httpx.Client,
                                                              fake_ollama: FakeOllama) -> None:
    # A real database failure at the final write: a constraint the finished answer violates.
    with psycopg.connect(quire.database_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE chat_messages ADD CONSTRAINT test_short CHECK (length(content) < 40) NOT VALID")
    try:
        fake_ollama.script(Reply(thinking="Hm."), Reply(content="An answer far too long for the constraint above."))
        stream = chat(api, "Explain it")
    finally:
        with psycopg.connect(quire.database_url, autocommit=True) as conn:
            conn.execute("ALTER TABLE chat_messages DROP CONSTRAINT test_short")
    assert stream.text == "An answer far too long for the constraint above."
    error = stream.one("error")
    assert (error["code"], error["retryable"]) == ("storage_error", True)


def test_citations_carry_the_document_kind_and_the_printed_page_label(
        api: httpx.Client, fake_ollama: FakeOllama, unique: Callable[[str], str], tmp_path: Path) -> None:
    body = "Glaciers carve cirques and leave moraines; the preface explains how to read this glossary. " * 4
    plain = make_pdf(tmp_path / "plain.pdf", [body, body])
    with pymupdf.open(plain) as document:
        document.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1}])
        document.save(tmp_path / "labelled.pdf")
    name = unique("glossary.pdf")
    doc_id = ingest(api, {name: (tmp_path / "labelled.pdf").read_bytes()})[name]["id"]
    with ollama_down(fake_ollama):
        stream = chat(api, "How do glaciers carve cirques?", scope={"document_ids": [doc_id]})
    assert stream.citations
    assert {(c["kind"], c["page"], c["page_label"]) for c in stream.citations} <= {("pdf", 1, "i"), ("pdf", 2, "ii")}
    assert "(printed i" in stream.text  # the fallback answer names where each passage was found


def test_the_passages_that_cover_the_question_come_first(server_factory: Callable[..., QuireServer]) -> None:
    """The fused ranking may put a passage sharing the question's common words above the one that answers it:
    the Rust chapter says "data" often, the penguin table never says "penguin" (only its file name does).
    The judgement keeps the first from answering; the model must read and cite the table first. A server
    of its own: which passage the judgement lets through depends on the vault's word statistics."""
    server = server_factory()
    with server.client() as api:
        ingest(api, {name: (CORPUS / name).read_bytes()
                     for name in ("palmer-penguins.csv", "rust-book-ch04-01-ownership.md")})
        hits = api.get("/api/search", params={"q": "How many penguin species are in the data?", "k": 7}).json()["hits"]
        assert not hits[0]["relevant"], [(h["filename"], h["relevant"]) for h in hits]  # the case this is about
        stream = chat(api, "How many penguin species are in the data?")
    assert stream.citations, stream.types
    assert stream.citations[0]["filename"] == "palmer-penguins.csv", stream.citations
