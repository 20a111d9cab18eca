"""Chat in a real browser on a real document (the Rust book's ownership chapter from shared/corpus): a
question the documents do not cover shows the "not covered" notice and no source cards (the closest
passages only on request); a covered one shows the cited source first and the rest under "Also searched"."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scripts.shared_data import CORPUS
from tests.e2e.browser import ask
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.vault import ingest

RUST = "rust-book-ch04-01-ownership.md"


@pytest.fixture(scope="module")
def rust_book(e2e_server: QuireServer) -> dict[str, Any]:
    data = (CORPUS / RUST).read_bytes()
    with e2e_server.client() as api:
        return ingest(api, {RUST: data})[RUST]


def agent(query: str, answer: Callable[[str], str]) -> Callable[[dict[str, Any]], Reply]:
    """Phase 1 reasons; after Quire's own search the agent searches for `query`, then answers with
    `answer(its result)`."""
    def reply(request: dict[str, Any]) -> Reply:
        if request.get("think"):
            return Reply(content="(discarded)", thinking="Let me look in the documents.")
        results = [m["content"] for m in request["messages"] if m["role"] == "tool"]
        if len(results) < 2:
            return Reply(tool_calls=[("search_knowledge_base", {"query": query})])
        return Reply(content=answer(results[-1]))
    return reply


def test_an_off_topic_question_says_not_covered_and_shows_no_source_cards(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, rust_book: dict[str, Any]
) -> None:
    results: list[str] = []

    def answer(result: str) -> str:
        results.append(result)
        return "Your documents do not cover the 2018 World Cup."

    fake_ollama.respond_with(agent("2018 World Cup winner", answer))
    page.goto(e2e_server.url + "/chat")
    ask(page, "Who won the 2018 World Cup?")
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_attribute("data-status", "complete")
    expect(turn.get_by_test_id("not-covered")).to_contain_text("don’t seem to cover this")
    expect(turn.get_by_test_id("source-card")).to_have_count(0)
    expect(turn.get_by_test_id("tool-chip")).to_have_count(2)
    assert "Nothing in the documents covers" in results[0]
    # The closest passages are there on request, and only then.
    turn.get_by_role("button", name="Show closest passages anyway").click()
    expect(turn.get_by_test_id("source-card").first).to_be_visible()
    assert turn.get_by_test_id("source-card").count() >= 1
    # The same after a reload, from the stored answer.
    page.reload()
    stored = page.get_by_test_id("turn")
    expect(stored.get_by_test_id("not-covered")).to_be_visible()
    expect(stored.get_by_test_id("source-card")).to_have_count(0)


def test_a_covered_question_shows_the_cited_source_first_and_the_rest_under_also_searched(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, rust_book: dict[str, Any]
) -> None:
    chosen: list[int] = []

    def answer(result: str) -> str:
        # Cite the last passage of the chapter the search returned, so the cited card is not simply [1].
        numbers = [int(n) for n in re.findall(r"^\[(\d+)\] " + re.escape(RUST), result, flags=re.MULTILINE)]
        assert len(re.findall(r"^\[\d+\] ", result, flags=re.MULTILINE)) >= 2, result
        chosen.append(numbers[-1])
        return f"Each value in Rust has an owner, and there can only be one owner at a time [{numbers[-1]}]."

    fake_ollama.respond_with(agent("ownership rules owner value scope", answer))
    page.goto(e2e_server.url + "/chat")
    ask(page, "What are the ownership rules in Rust?")
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_attribute("data-status", "complete")
    expect(turn.get_by_test_id("not-covered")).to_have_count(0)
    cards = turn.get_by_test_id("source-card")
    expect(cards).to_have_count(1)  # only the cited source is a card; the others are collapsed
    expect(cards.first).to_contain_text(RUST)
    expect(cards.first).to_contain_text(str(chosen[0]))
    toggle = turn.get_by_test_id("also-searched-toggle")
    expect(toggle).to_have_text(re.compile(r"Also searched · \d+ passages?"))
    hidden = int(re.search(r"· (\d+)", toggle.inner_text()).group(1))  # type: ignore[union-attr]
    assert hidden >= 1
    toggle.click()
    expect(cards).to_have_count(1 + hidden)
    expect(cards.first).to_contain_text(str(chosen[0]))  # the cited source stays first
    expect(turn.get_by_role("region", name="Also searched").get_by_test_id("source-card")).to_have_count(hidden)
