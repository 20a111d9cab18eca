"""Scope and citations are request-local: twenty concurrent streams, each scoped to its own document
and answered by a model that echoes what its tools returned, never see each other's sources."""

from __future__ import annotations

import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from tests.agent.chatting import Stream, chat
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.vault import ingest

STREAMS = 20


def echo_model(request: dict[str, Any]) -> Reply:
    """Think; search for the word in the question; then answer with the codes the search returned."""
    if request.get("think"):
        return Reply(thinking="Looking for the code.")
    last = request["messages"][-1]
    if last["role"] == "user":
        return Reply(tool_calls=[("search_knowledge_base", {"query": "zebrafish marker code"})])
    codes = sorted(set(re.findall(r"CODE-\w+", last["content"])))
    return Reply(content="Codes found: " + ", ".join(codes) + " [1]")


def test_twenty_concurrent_streams_do_not_cross_talk(quire: QuireServer, api: httpx.Client,
                                                     fake_ollama: FakeOllama) -> None:
    token = uuid.uuid4().hex[:6]
    files = {f"field-{token}-{i:02d}.md": (f"# Field notes {i}\n\nThe zebrafish marker code here is "
                                            f"CODE-{token}x{i:02d}. Zebrafish were counted at dawn.").encode()
             for i in range(STREAMS)}
    docs = ingest(api, files)
    ids = [docs[f"field-{token}-{i:02d}.md"]["id"] for i in range(STREAMS)]
    fake_ollama.respond_with(echo_model)

    def ask(i: int) -> Stream:
        with quire.client() as client:
            return chat(client, f"What is the zebrafish marker code in my notes ({i})?",
                        scope={"document_ids": [ids[i]]})

    with ThreadPoolExecutor(STREAMS) as pool:
        streams = list(pool.map(ask, range(STREAMS)))

    assert len({s.session_id for s in streams}) == STREAMS
    for i, stream in enumerate(streams):
        assert "error" not in stream.types, stream.of("error")
        assert stream.citations
        assert {c["document_id"] for c in stream.citations} == {ids[i]}
        assert stream.text == f"Codes found: CODE-{token}x{i:02d} [1]"
