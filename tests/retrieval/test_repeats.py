"""A text a document repeats is one search result, over HTTP on real servers of both search modes (in-memory
and Postgres): no two hits of one document carry the same normalised text, the hit is shown at the text's
first place with the others in `also_at`, k distinct hits still come back (the search asks deeper when the
copies fill the candidate lists), and the same text in two documents stays two results.

The documents: the U.S. Trustee handbook of shared/corpus (as distributed, its text stands in the file four
times), and a PDF that prints one paragraph on 45 pages, more often than the candidate lists are long."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from backend.agent.tools import SEARCH_K
from tests.agent.chatting import chat
from tests.mcp.clients import data, http_session
from tests.support.corpus import CORPUS, normalise
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import ingest

HANDBOOK = CORPUS / "doj-chapter13-trustee-handbook.docx"
PROBE = "The maximum annual compensation of a standing trustee"  # from a passage the handbook repeats
REPEATED = ("The glacier moraine holds boulders, gravel and sand left behind by the retreating glacier; "
            "the moraine marks where the glacier ice stood longest. ")
COPIES = 45  # pages holding REPEATED: more than the candidate depth for k = 10 (40)
OTHERS = 12  # pages that name the glacier once, each in its own words


@pytest.fixture(scope="module", params=["memory", "postgres"])
def backend_server(request: pytest.FixtureRequest, postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[QuireServer]:
    """A server of each search mode, shared by this module's tests (each keeps to its own documents)."""
    server = QuireServer(postgres.fresh_database(), tmp_path_factory.mktemp("quire-repeats"), fake_ollama_server.url,
                         QUIRE_SEARCH_BACKEND=request.param).start()
    yield server
    server.stop()


def block(api: httpx.Client, document_id: str, block_id: str) -> dict[str, Any]:
    """A live block of the document as the viewer reads it (text and ordinal)."""
    window = api.get(f"/api/documents/{document_id}/blocks", params={"around": block_id, "limit": 1}).json()
    assert window["target"] == block_id, window
    return next(b for b in window["blocks"] if b["id"] == block_id)


def search(api: httpx.Client, q: str, k: int, document_ids: list[str], mode: str = "hybrid") -> list[dict[str, Any]]:
    response = api.get("/api/search", params={"q": q, "k": k, "documents": ",".join(document_ids), "mode": mode})
    assert response.status_code == 200, response.text
    return response.json()["hits"]


def assert_distinct(hits: list[dict[str, Any]]) -> None:
    texts = [(hit["document_id"], normalise(hit["text"])) for hit in hits]
    assert len(set(texts)) == len(texts), "two hits of one document carry the same text"
    places = [hit["block_id"] for hit in hits] + [a["block_id"] for hit in hits for a in hit["also_at"]]
    assert len(set(places)) == len(places), "a place is given twice"


@pytest.fixture(scope="module")
def handbook(backend_server: QuireServer) -> dict[str, Any]:
    """The handbook, ingested once per server."""
    name = f"handbook-{uuid.uuid4().hex[:6]}.docx"
    with backend_server.client() as api:
        return ingest(api, {name: HANDBOOK.read_bytes()}, timeout_s=300)[name]


def test_the_handbook_repeats_no_passage_in_results(backend_server: QuireServer, handbook: dict[str, Any]) -> None:
    doc = handbook
    with backend_server.client() as api:
        for mode in ("hybrid", "sparse"):
            hits = search(api, PROBE, 10, [doc["id"]], mode)
            assert len(hits) == 10  # the handbook has hundreds of distinct passages: k is filled
            assert_distinct(hits)
            holding = [hit for hit in hits if normalise(PROBE) in normalise(hit["text"])]
            assert len(holding) == 1, "the probe's passage appears once"
            assert holding[0]["also_at"], "its other places are given"
            # Each place given is a live passage of the document with the same text, after the one shown.
            shown = block(api, doc["id"], holding[0]["block_id"])
            places = [block(api, doc["id"], a["block_id"]) for a in holding[0]["also_at"]]
            assert all(normalise(p["text"]) == normalise(shown["text"]) for p in places)
            assert [p["ordinal"] for p in places] == sorted(p["ordinal"] for p in places)
            assert shown["ordinal"] < places[0]["ordinal"]


def test_copies_differing_only_in_a_notes_running_number_are_one_result(backend_server: QuireServer,
                                                                         handbook: dict[str, Any]) -> None:
    """The handbook repeats the section citing its "continue means adjourn" note; Word numbers the note by
    its running count, so one copy reads "Footnote 2:" and the next "Footnote 5:". That is one passage."""
    note = "References to “continue” in this Handbook shall have the same meaning as “adjourn.”"
    with backend_server.client() as api:
        for mode in ("hybrid", "sparse"):
            hits = search(api, "continue same meaning as adjourn", 10, [handbook["id"]], mode)
            holding = [hit for hit in hits if normalise(note) in normalise(hit["text"])]
            assert len(holding) == 1, [re.findall(r"Footnote \d+:", hit["text"]) for hit in holding]
            labels = {re.search(r"Footnote \d+:", block(api, handbook["id"], place)["text"]).group()  # type: ignore[union-attr]
                      for place in [holding[0]["block_id"]] + [a["block_id"] for a in holding[0]["also_at"]]}
            assert len(labels) > 1, "the other copy, with its own note number, is among the places given"


def test_a_chat_answer_cites_each_passage_once(backend_server: QuireServer, handbook: dict[str, Any],
                                               fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply(thinking="Search the handbook."),
        Reply(tool_calls=[("search_knowledge_base", {"query": PROBE})]),
        Reply(content="The handbook caps it [1]."),
    )
    with backend_server.client() as api:
        stream = chat(api, "What is the maximum annual compensation of a standing trustee?",
                      scope={"document_ids": [handbook["id"]]})
    sources = stream.citations
    # Quire's own search of the question and the model's search each fill their k with distinct passages.
    assert len(sources) >= SEARCH_K
    texts = [(s["document_id"], normalise(s["text"])) for s in sources]
    assert len(set(texts)) == len(texts), "the answer's sources hold a passage twice"
    holding = [s for s in sources if normalise(PROBE) in normalise(s["text"])]
    assert len(holding) == 1
    assert holding[0]["also_at"]
    # The model read the passage once too.
    tool_message = next(m["content"] for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "tool")
    passages = tool_message[tool_message.index("<passage"):]  # after the heading, which quotes the query
    assert normalise(passages).count(normalise(PROBE)) == 1


def test_the_mcp_search_returns_each_passage_once(backend_server: QuireServer, handbook: dict[str, Any]) -> None:
    async def body() -> dict[str, Any]:
        async with http_session(backend_server.url) as session:
            return data(await session.call_tool("search", {"query": PROBE, "k": 8, "document_ids": [handbook["id"]]}))

    passages = anyio.run(body)["passages"]
    assert len(passages) == 8
    with backend_server.client() as api:
        texts = [normalise(block(api, handbook["id"], p["block_id"])["text"]) for p in passages]
    assert len(set(texts)) == len(texts), "the MCP search returned a passage twice"
    places = [p["block_id"] for p in passages] + [a["block_id"] for p in passages for a in p["also_at"]]
    assert len(set(places)) == len(places)
    assert any(p["also_at"] for p in passages)


def test_copies_beyond_the_candidate_depth_still_leave_k_distinct_hits(backend_server: QuireServer,
                                                                        tmp_path: Path) -> None:
    others = [f"Field note {i}: the glacier near camp {i} was quiet today, and we counted {i * 7} birds."
              for i in range(OTHERS)]
    pdf = make_pdf(tmp_path / "moraine.pdf", [REPEATED * 3] * COPIES + others)
    name = f"moraine-{uuid.uuid4().hex[:6]}.pdf"
    with backend_server.client() as api:
        doc = ingest(api, {name: pdf.read_bytes()}, timeout_s=120)[name]
        for mode in ("hybrid", "sparse"):
            hits = search(api, "glacier moraine", 10, [doc["id"]], mode)
            assert len(hits) == 10
            assert_distinct(hits)
            repeated = [hit for hit in hits if hit["page"] <= COPIES]
            assert len(repeated) == 1
            # Shown at its first place; every other page that prints it is named, in page order.
            assert repeated[0]["page"] == 1
            assert [a["page"] for a in repeated[0]["also_at"]] == list(range(2, COPIES + 1))


def test_the_same_text_in_two_documents_stays_two_results(backend_server: QuireServer, tmp_path: Path) -> None:
    body = "Cirques are armchair-shaped hollows that a glacier carves at the head of its valley. " * 3
    names = [f"cirque-{uuid.uuid4().hex[:6]}.pdf" for _ in range(2)]
    # Two files (their own bytes: the second has a page more), the same text on their first two pages.
    files = {name: make_pdf(tmp_path / name, [body, body, *(["Errata: none."] * i)]).read_bytes()
             for i, name in enumerate(names)}
    with backend_server.client() as api:
        docs = ingest(api, files)
        found = search(api, "armchair-shaped hollows", 5, [d["id"] for d in docs.values()])
    hits = [hit for hit in found if "armchair" in hit["text"]]  # not the errata page
    assert {hit["document_id"] for hit in hits} == {d["id"] for d in docs.values()}
    assert len(hits) == 2
    assert all([a["page"] for a in hit["also_at"]] == [2] and hit["page"] == 1 for hit in hits)
