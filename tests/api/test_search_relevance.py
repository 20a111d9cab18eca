"""`/api/search` says which hits are relevant enough to answer from, over HTTP on a real document (the Rust
book's ownership chapter from shared/corpus), with the embedding model up and down."""

from __future__ import annotations

import uuid

import httpx

from scripts.shared_data import CORPUS
from tests.support.fake_ollama import FakeOllama
from tests.support.vault import ingest

RUST = CORPUS / "rust-book-ch04-01-ownership.md"


def test_hits_carry_relevance_in_hybrid_and_keyword_mode(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    name = f"ownership-{uuid.uuid4().hex[:6]}.md"
    doc = ingest(api, {name: RUST.read_bytes()})[name]

    def search(q: str, mode: str = "hybrid") -> list[dict[str, object]]:
        response = api.get("/api/search", params={"q": q, "k": 7, "documents": doc["id"], "mode": mode})
        assert response.status_code == 200, response.text
        return response.json()["hits"]

    for mode in ("hybrid", "sparse"):
        on_topic = search("What are the ownership rules for values and their owner?", mode)
        assert on_topic[0]["relevant"] is True
        assert 0.35 <= on_topic[0]["relevance"] <= 1.0
        off_topic = search("How much pressure should I put in my bicycle tires?", mode)
        assert all(h["relevant"] is False and h["relevance"] < 0.35 for h in off_topic)
    # The embedding model down: the keyword-only search judges the same way.
    fake_ollama.embed_failures = 1000
    degraded = api.get("/api/search", params={"q": "Who won the 2018 World Cup? The ownership of the trophy?",
                                              "k": 7, "documents": doc["id"]}).json()
    assert degraded["notice"].startswith("Keyword search only")
    assert degraded["hits"]  # "ownership" is found ...
    assert all(not h["relevant"] for h in degraded["hits"])  # ... but covers too little of the question
    assert search("What are the ownership rules for values and their owner?")[0]["relevant"] is True
