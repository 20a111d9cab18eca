"""Answers that say what is true, in a real browser on real files from shared/corpus: while a document of
the question's scope is still being read the answer says so instead of "not covered"; a "not covered"
answer has no clickable [n]; an answer cut off keeps what was streamed, marked incomplete, with "Continue"
(the model picks up from the cut-off text) and "Ask again"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scripts.shared_data import CORPUS
from tests.e2e.browser import ask
from tests.e2e.test_chat_relevance import agent
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import REPO_ROOT, QuireServer
from tests.support.vault import ingest, upload

RUST = "rust-book-ch04-01-ownership.md"
HANDBOOK = "doj-chapter13-trustee-handbook.docx"  # 1,076 passages: read for a good while
SHOTS = REPO_ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def rust_book(e2e_server: QuireServer) -> dict[str, Any]:
    with e2e_server.client() as api:
        return ingest(api, {RUST: (CORPUS / RUST).read_bytes()})[RUST]


def _shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"answers-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def test_a_not_covered_answer_has_no_clickable_citation(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, rust_book: dict[str, Any]
) -> None:
    fake_ollama.respond_with(agent("capital of Australia", lambda _result: "Canberra, says [1]."))
    page.goto(e2e_server.url + "/chat")
    ask(page, "What is the capital of Australia?")
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_attribute("data-status", "complete")
    expect(turn.get_by_test_id("not-covered")).to_be_visible()
    expect(turn.get_by_test_id("answer")).to_contain_text("Canberra, says [1].")
    expect(turn.locator("[data-citation]")).to_have_count(0)  # the [1] is plain text: it opens nothing
    _shot(page, "not-covered")


def test_while_a_document_is_still_being_read_the_answer_says_so(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, rust_book: dict[str, Any]
) -> None:
    results: list[str] = []

    def answer(result: str) -> str:
        results.append(result)
        return "One of your documents is still being read; ask again when it is ready."

    with e2e_server.client() as api:
        accepted = upload(api, {HANDBOOK: (CORPUS / HANDBOOK).read_bytes()})
        assert accepted.status_code == 202, accepted.text
        handbook = accepted.json()["documents"][0]["id"]
    try:
        fake_ollama.respond_with(agent("standing trustee surety bond", answer))
        page.goto(e2e_server.url + "/chat")
        ask(page, "What surety bond must a standing trustee have?")
        turn = page.get_by_test_id("turn")
        expect(turn).to_have_attribute("data-status", "complete")
        expect(turn.get_by_test_id("still-reading")).to_contain_text(
            "1 document is still being read — ask again when it is ready")
        expect(turn.get_by_test_id("not-covered")).to_have_count(0)
        assert "1 document is still being read" in results[0]
        _shot(page, "still-reading")
    finally:
        with e2e_server.client() as api:
            api.delete(f"/api/documents/{handbook}")


def test_a_cut_off_answer_keeps_its_text_and_can_be_continued(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, rust_book: dict[str, Any]
) -> None:
    words = " ".join(f"step{i}" for i in range(80))
    fake_ollama.script(Reply(thinking="Count."), Reply(content=words, chunks=80, delay_s=0.2))
    page.goto(e2e_server.url + "/chat")
    ask(page, "Count the steps slowly please")
    turn = page.get_by_test_id("turn")
    expect(turn.get_by_test_id("answer")).to_contain_text("step10")
    page.keyboard.press("Escape")  # stop: the answer is cut off here
    expect(turn).not_to_have_attribute("data-status", "streaming")
    page.wait_for_timeout(1500)  # (the server stores what was streamed when the client leaves)
    page.reload()
    stored = page.get_by_test_id("turn")
    expect(stored.get_by_test_id("incomplete-answer")).to_be_visible()
    expect(stored.get_by_test_id("answer")).to_contain_text("step10")
    expect(stored.get_by_test_id("ask-again")).to_be_visible()
    _shot(page, "incomplete")
    fake_ollama.script(Reply(thinking="Go on."), Reply(content="step79 was the last one."))
    stored.get_by_test_id("continue-answer").click()
    turns = page.get_by_test_id("turn")
    expect(turns).to_have_count(2)
    expect(turns.nth(1)).to_have_attribute("data-status", "complete")
    expect(turns.nth(1).get_by_test_id("answer")).to_contain_text("step79 was the last one.")
    sent = fake_ollama.chat_requests[-1]["messages"]
    assert any(m["role"] == "assistant" and "step10" in m.get("content", "") for m in sent)
    _shot(page, "continued")
