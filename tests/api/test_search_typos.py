"""Typo-tolerant search over HTTP on a real document (the Hochschulrahmengesetz from shared/corpus), in both
search modes: a misspelt rare word finds its passage, judged relevant, while a question about a place the
document never names stays not covered. In the Postgres mode a second process, which had read the
vocabulary before the document arrived, learns its words from the table a trigger keeps (migration 0023).
The chat's search tool (the model scripted in the stand-in) gets the passage too."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from scripts.shared_data import CORPUS
from tests.agent.chatting import chat
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.vault import ingest

pytestmark = pytest.mark.slow

HRG = CORPUS / "hochschulrahmengesetz.md"
TYPOS = ("Regelstudienzet", "Was ist die Regelstudienzet?", "Regelstudiezeit bis zum ersten Abschluss")


def _search(api: httpx.Client, query: str) -> list[dict[str, Any]]:
    response = api.get("/api/search", params={"q": query, "k": 7})
    assert response.status_code == 200, response.text
    return response.json()["hits"]


def _eventually(check: Callable[[], bool], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "the second process never saw the change"
        time.sleep(0.1)


def _finds_the_passage(api: httpx.Client, query: str) -> bool:
    """The first passage judged relevant is the law's: what a user meets, since the library lists only the
    passages judged relevant and the chat withholds the others. One judged not relevant may rank above it
    by fused score alone (the stand-in's hashed vectors put passages near a query by chance); on a tie the
    relevant one comes first (tests/retrieval/test_fuzzy.py)."""
    relevant = [hit for hit in _search(api, query) if hit["relevant"] is True]
    return bool(relevant) and "Regelstudienzeit" in relevant[0]["text"]


@pytest.mark.parametrize("backend", ["memory", "postgres"])
def test_a_misspelt_rare_word_finds_its_passage(backend: str, server_factory: Callable[..., QuireServer],
                                                fake_ollama: FakeOllama) -> None:
    first = server_factory(QUIRE_EXECUTOR_ID="typos-a", QUIRE_SEARCH_BACKEND=backend)
    second = QuireServer(first.database_url, first.data_dir, fake_ollama.url, QUIRE_EXECUTOR_ID="typos-b",
                         QUIRE_SEARCH_BACKEND=backend).start()
    try:
        with first.client() as a, second.client() as b:
            ingest(a, {"notizen.md": b"# Notizen\n\nDie Vorlesungen beginnen im Oktober."})
            # The second process has looked (its vocabulary holds the note's words): nothing is found yet.
            assert not any(h["relevant"] for h in _search(b, TYPOS[0]))
            ingest(a, {"hochschulrahmengesetz.md": HRG.read_bytes()})
            for query in TYPOS:
                assert _finds_the_passage(a, query), query
            # The other process: at once in the Postgres mode (it reads the vocabulary's new rows as it
            # searches), after its next poll of the change feed in memory (QUIRE_INDEX_POLL_S).
            if backend == "memory":
                _eventually(lambda: _finds_the_passage(b, TYPOS[0]))
            for query in TYPOS:
                assert _finds_the_passage(b, query), query
            fake_ollama.script(
                Reply(thinking="Die Frage betrifft das Hochschulrahmengesetz.", content="x"),
                Reply(tool_calls=[("search_knowledge_base", {"query": "Regelstudienzet Bachelor"})]),
                Reply(content="Drei bis vier Jahre [1]."),
            )
            stream = chat(b, "Wie lang ist die Regelstudienzet für den Bachelor?")
            (finished,) = [t for t in stream.of("tool") if t["status"] == "finished" and t.get("by") != "quire"]
            assert finished["summary"] != "nothing relevant found"
            assert any(c["relevant"] and "Regelstudienzeit" in c["text"] for c in stream.citations)
            tool_result = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "tool"]
            assert any("Regelstudienzeit" in result for result in tool_result), tool_result  # the model's search
            assert any("<passage" in result for result in tool_result), tool_result
            # "Australia" is no typo of any word here: the question is not covered.
            assert not any(h["relevant"] for h in _search(a, "Was ist die Hauptstadt von Australien?"))
            # Replaced by a version without the word, the law is found by the word it now uses, and a term
            # no live block holds is no correction (its vocabulary row stays: insert-only).
            replaced = HRG.read_text(encoding="utf-8").replace("Regelstudienzeit", "Studiendauer")
            ingest(a, {"hochschulrahmengesetz.md": replaced.encode()}, on_conflict="replace")
            _eventually(lambda: not _finds_the_passage(b, TYPOS[0]))
            _eventually(lambda: any(h["relevant"] and "Studiendauer" in h["text"] for h in _search(b, "Studiendaur")))
    finally:
        second.stop()
