"""Chat in a real browser with models that misbehave: an answer citing none of the passages is marked "not
from your documents" (live and after a reload), a model reading a long prompt says it is still reading, and
an answer the model stops halfway keeps its text and shows the passages with their citations.

The server notices a silent model after 2 s here (QUIRE_MODEL_SILENCE_S; reading a prompt is allowed more
by its size), so the stalled answer falls back within seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.a11y import axe_violations
from tests.e2e.browser import ask
from tests.e2e.conftest import ARTIFACTS
from tests.support.corpus import CORPUS
from tests.support.fake_model import Behaviour
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.vault import ingest

SERVER_ENV = {"QUIRE_MODEL_SILENCE_S": "2"}
RUST = "rust-book-ch04-01-ownership.md"
MODEL = "gemma4:e4b"  # the server's chat model; each test gives it the behaviour it needs


@pytest.fixture(scope="module")
def rust_book(e2e_server: QuireServer) -> Iterator[dict[str, Any]]:
    with e2e_server.client() as api:
        yield ingest(api, {RUST: (CORPUS / RUST).read_bytes()})[RUST]


def test_an_answer_citing_no_passage_says_it_is_not_from_your_documents(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, rust_book: dict[str, Any]
) -> None:
    fake_ollama.add_model(MODEL, Behaviour(simulate=False, thinking=False, vision=True))
    fake_ollama.respond_with(lambda request: Reply(content="Rust values can have as many owners as you like."))
    page.goto(e2e_server.url + "/chat")
    ask(page, "What are the ownership rules in Rust?")
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_attribute("data-status", "complete")
    notice = turn.get_by_test_id("ungrounded-notice")
    expect(notice).to_contain_text("Not from your documents")
    expect(notice).to_have_attribute("data-grounding", "uncited")
    expect(turn.get_by_test_id("no-reasoning")).to_contain_text("does not show its reasoning")
    # Quire searched for the question itself: the passages are there to check the answer against.
    expect(turn.get_by_test_id("tool-chip").first).to_contain_text("Searched your documents")
    expect(turn.get_by_test_id("also-searched-toggle")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "chat-ungrounded.png"), full_page=True)
    assert axe_violations(page) == []  # the notices pass axe (WCAG A/AA), in the light theme
    page.emulate_media(color_scheme="dark")
    assert axe_violations(page) == []  # and in the dark one
    page.emulate_media(color_scheme="light")
    page.reload()
    stored = page.get_by_test_id("turn")
    expect(stored.get_by_test_id("ungrounded-notice")).to_contain_text("Not from your documents")
    expect(stored.get_by_test_id("no-reasoning")).to_be_visible()


def test_a_slow_model_is_still_reading_and_a_stalled_one_falls_back_to_the_passages(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, rust_book: dict[str, Any]
) -> None:
    # Seven silent seconds before the first line: more than the 2 s silence limit, fine for reading a prompt.
    fake_ollama.add_model(MODEL, Behaviour(simulate=False, thinking=False, vision=True, first_line_s=7,
                                           stall_after_lines=2))
    fake_ollama.respond_with(lambda request: Reply(content="Each value in Rust has an owner, and", chunks=5))
    page.goto(e2e_server.url + "/chat")
    ask(page, "What are the ownership rules in Rust?")
    turn = page.get_by_test_id("turn")
    phase = turn.get_by_test_id("turn-phase")
    expect(phase).to_contain_text("The model is reading (")
    expect(phase).to_contain_text("The model is still reading (", timeout=15_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "chat-still-reading.png"), full_page=True)
    # Two lines, then silence: after 2 s the text so far stays and the passages follow, with citations.
    expect(turn).to_have_attribute("data-status", "partial", timeout=30_000)
    expect(turn).to_contain_text("Each value in Rust")
    expect(turn).to_contain_text("The model stopped before it finished, but these passages match your question")
    expect(turn.get_by_role("alert")).to_contain_text("The model stopped responding")
    expect(turn.get_by_test_id("source-card").first).to_contain_text(RUST)
    expect(turn.get_by_role("button", name="Source 1: " + RUST, exact=False).first).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "chat-stalled-fallback.png"), full_page=True)
