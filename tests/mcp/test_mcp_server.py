"""Quire's MCP server with the SDK's own client against real server processes: over streamable HTTP at
`/mcp` and over stdio (`python -m backend.mcp`) on the same database. Every tool is called; scope is
respected; errors carry the API's codes; the token, Host and Origin rules of the API apply; write tools
exist only when QUIRE_MCP_ALLOW_WRITES is on."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_types import TextResourceContents

from tests.mcp.clients import data, error, http_session, stdio_session, text_of
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.study import card, generate, wait_job
from tests.support.vault import ingest, wait_for_run

READ_TOOLS = {"search", "list_documents", "read_document", "read_passage", "ask", "due_flashcards",
              "list_study_items"}
PAGES = [
    "Cell biology basics. The nucleus stores the genome and controls gene expression.",
    "Mitochondria produce ATP through oxidative phosphorylation on the inner membrane cristae.",
    "Chloroplasts capture light; the Calvin cycle fixes carbon dioxide into sugar.",
]


@pytest.fixture(scope="module")
def server(postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[QuireServer]:
    quire = QuireServer(postgres.fresh_database(), tmp_path_factory.mktemp("quire-mcp"), fake_ollama_server.url)
    yield quire.start()
    quire.stop()


@pytest.fixture(scope="module")
def vault(server: QuireServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    pdf = make_pdf(tmp_path_factory.mktemp("mcp-docs") / "cells.pdf", PAGES)
    with server.client() as api:
        docs = ingest(api, {"cells.pdf": pdf.read_bytes()}, category="biology")
        docs |= ingest(api, {"energy.md": b"# Energy\n\nMitochondria are the powerhouse of the cell; they make ATP."},
                       category="notes")
    return {"pdf": docs["cells.pdf"]["id"], "md": docs["energy.md"]["id"]}


def run(session_factory: Callable[[], Any], body: Callable[[Any], Any]) -> Any:
    async def main() -> Any:
        async with session_factory() as session:
            return await body(session)

    return anyio.run(main)


def test_read_tools_over_http(server: QuireServer, vault: dict[str, Any], fake_ollama: FakeOllama) -> None:
    async def body(s: Any) -> None:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert set(tools) == READ_TOOLS  # writes are off by default
        assert all(len(t.description or "") > 60 for t in tools.values())
        assert tools["search"].input_schema["properties"]["k"]["maximum"] == 50

        listed = data(await s.call_tool("list_documents", {}))
        assert {d["id"]: d["status"] for d in listed} == {vault["pdf"]: "ready", vault["md"]: "ready"}
        assert [d["id"] for d in data(await s.call_tool("list_documents", {"category": "biology"}))] == [vault["pdf"]]

        everywhere = data(await s.call_tool("search", {"query": "mitochondria ATP", "k": 5}))
        assert {p["document_id"] for p in everywhere["passages"]} == {vault["pdf"], vault["md"]}
        scoped = data(await s.call_tool("search", {"query": "mitochondria ATP", "document_ids": [vault["pdf"]]}))
        assert {p["document_id"] for p in scoped["passages"]} == {vault["pdf"]}
        top = scoped["passages"][0]
        assert (top["filename"], top["page"]) == ("cells.pdf", 2)
        assert "Mitochondria" in top["snippet"]
        by_category = data(await s.call_tool("search", {"query": "mitochondria", "categories": ["notes"]}))
        assert {p["document_id"] for p in by_category["passages"]} == {vault["md"]}

        passage = data(await s.call_tool("read_passage", {"document_id": vault["pdf"], "block_id": top["block_id"]}))
        assert "oxidative phosphorylation" in passage["text"]
        assert passage["page"] == 2

        page_two = data(await s.call_tool("read_document", {"document_id": vault["pdf"], "first_page": 2,
                                                            "last_page": 2}))
        assert "[page 2]" in page_two["text"]
        assert "Calvin" not in page_two["text"]
        assert "nucleus" not in page_two["text"]
        assert page_two["truncated"] is False
        bounded = data(await s.call_tool("read_document", {"document_id": vault["pdf"], "max_chars": 200}))
        assert len(bounded["text"]) <= 200
        assert bounded["truncated"] is True
        assert "Calvin" not in bounded["text"]
        rest = data(await s.call_tool("read_document", {"document_id": vault["pdf"],
                                                        "first_page": bounded["next_page"], "max_chars": 200}))
        assert rest["text"].startswith(f"[page {bounded['next_page']}]")
        assert "Calvin" in rest["text"]

        resource = await s.read_resource(f"quire://documents/{vault['pdf']}")
        contents = resource.contents[0]
        assert isinstance(contents, TextResourceContents)
        assert contents.text.startswith("# cells.pdf")
        assert "Calvin cycle" in contents.text

    run(lambda: http_session(server.url), body)


def test_ask_runs_quires_agent_and_returns_numbered_citations(server: QuireServer, vault: dict[str, Any],
                                                              fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(thinking="Search the notes."),
                       Reply(tool_calls=[("search_knowledge_base", {"query": "mitochondria ATP"})]),
                       Reply(content="Mitochondria make ATP by oxidative phosphorylation [1]."))

    async def body(s: Any) -> dict[str, Any]:
        return data(await s.call_tool("ask", {"question": "How do cells make ATP?", "document_ids": [vault["pdf"]]}))

    answer = run(lambda: http_session(server.url), body)
    assert answer["answer"] == "Mitochondria make ATP by oxidative phosphorylation [1]."
    first = answer["citations"][0]
    assert (first["n"], first["document_id"], first["page"]) == (1, vault["pdf"], 2)
    assert {c["document_id"] for c in answer["citations"]} == {vault["pdf"]}  # the scope reached the agent
    tool_results = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "tool"]
    assert len(tool_results) == 2  # Quire's own search for the question, then the model's
    assert "oxidative phosphorylation" in tool_results[-1]
    assert answer["grounding"] in ("cited", "uncited", "not_covered")  # said, whatever it is
    assert (answer["grounding"] == "cited") == (answer["grounding_note"] or "").startswith("From your documents")
    with server.client() as api:  # kept in Quire's chat history like any conversation
        messages = api.get(f"/api/chat/sessions/{answer['session_id']}").json()["messages"]
    assert messages[0]["content"] == "How do cells make ATP?"


def test_ask_without_a_model_is_a_clear_error(server: QuireServer, vault: dict[str, Any],
                                              fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["embeddinggemma:latest"]  # the chat model is not pulled

    async def body(s: Any) -> dict[str, Any]:
        return error(await s.call_tool("ask", {"question": "How do mitochondria make ATP?"}))

    failure = run(lambda: http_session(server.url), body)
    assert failure["code"] == "model_unavailable"
    assert "ollama pull gemma4:e4b" in failure["message"]
    assert "search tool" in failure["message"]
    assert failure["details"]["passages"]  # what the user can still get without a model


def test_bad_input_is_a_shaped_tool_error(server: QuireServer, vault: dict[str, Any], fake_ollama: FakeOllama) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"

    async def body(s: Any) -> None:
        assert error(await s.call_tool("search", {"query": "   "}))["code"] == "empty_query"
        assert error(await s.call_tool("search", {"query": "x", "document_ids": [unknown]}))["code"] == \
            "unknown_documents"
        assert error(await s.call_tool("read_document", {"document_id": "nope"}))["code"] == "invalid_document_id"
        assert error(await s.call_tool("read_document", {"document_id": unknown}))["code"] == "not_found"
        assert error(await s.call_tool("read_document", {"document_id": vault["pdf"], "first_page": 9}))["code"] == \
            "out_of_range"
        assert error(await s.call_tool("read_passage", {"document_id": vault["pdf"], "block_id": "b-x"}))["code"] == \
            "not_found"
        assert error(await s.call_tool("due_flashcards", {"deck_id": unknown}))["code"] == "not_found"
        assert error(await s.call_tool("ask", {"question": "q", "session_id": "x"}))["code"] == "invalid_session_id"
        assert error(await s.call_tool("ask", {"question": "  "}))["code"] == "empty_message"
        too_many = await s.call_tool("search", {"query": "cells", "k": 500})  # the schema's bound, checked
        assert too_many.is_error
        assert "k" in text_of(too_many)
        assert "50" in text_of(too_many)
        unknown_tool = await s.call_tool("upload_document", {"filename": "a.md", "text": "x"})
        assert unknown_tool.is_error

    run(lambda: http_session(server.url), body)


def test_study_tools(server: QuireServer, vault: dict[str, Any], fake_ollama: FakeOllama) -> None:
    with server.client() as api:
        job = generate(api, fake_ollama, "/api/study/decks", {"scope": {"document_ids": [vault["pdf"]]}, "count": 10},
                       json.dumps({"cards": [card(1), card(2), card(3)]}))
    deck_id = job["result_id"]

    async def body(s: Any) -> tuple[Any, Any, Any]:
        return (data(await s.call_tool("due_flashcards", {"limit": 2})),
                data(await s.call_tool("due_flashcards", {"deck_id": deck_id})),
                data(await s.call_tool("list_study_items", {"kind": "deck"})))

    limited, whole, items = run(lambda: http_session(server.url), body)
    assert limited["due_count"] >= 3
    assert len(limited["cards"]) == 2
    assert {c["front"] for c in whole["cards"]} == {"What does part 1 say?", "What does part 2 say?",
                                                   "What does part 3 say?"}
    assert whole["cards"][0]["sources"][0].startswith("cells.pdf")
    assert {"kind": "deck", "id": deck_id} in [{"kind": i["kind"], "id": i["id"]} for i in items]
    assert next(i for i in items if i["id"] == deck_id)["detail"] == "3 cards, 3 due"


def test_stdio_server_shares_the_vault_with_the_web_app(server: QuireServer, vault: dict[str, Any],
                                                        fake_ollama: FakeOllama) -> None:
    async def body(s: Any) -> tuple[set[str], dict[str, Any]]:
        tools = {t.name for t in (await s.list_tools()).tools}
        return tools, data(await s.call_tool("search", {"query": "Calvin cycle", "k": 3}))

    env = {k: v for k, v in server.env.items() if k != "QUIRE_PORT"}
    tools, found = run(lambda: stdio_session(env), body)
    assert tools == READ_TOOLS
    assert (found["passages"][0]["document_id"], found["passages"][0]["page"]) == (vault["pdf"], 3)
    with server.client() as api:  # the web app still serves, on the same database
        assert api.get("/api/health").json()["postgres"]["ok"] is True


def test_token_host_and_origin_rules_apply(server_factory: Callable[..., QuireServer]) -> None:
    quire = server_factory(QUIRE_HOST="0.0.0.0", QUIRE_API_TOKEN="mcp-s3cret")
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"Accept": "application/json, text/event-stream"}
    with quire.client() as api:
        refused = api.post("/mcp", json=ping, headers=accept)
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "unauthorized"
        bad = api.post("/mcp", json=ping, headers={**accept, "Authorization": "Bearer wrong"})
        assert bad.status_code == 401
        authorised = {**accept, "Authorization": "Bearer mcp-s3cret"}
        cross = api.post("/mcp", json=ping, headers={**authorised, "Origin": "https://evil.example"})
        assert cross.status_code == 403
        assert cross.json()["error"]["code"] == "cross_site_request"
        rebound = api.post("/mcp", json=ping, headers={**authorised, "Host": "evil.example"})
        assert rebound.status_code == 403
        assert rebound.json()["error"]["code"] == "host_not_allowed"

    with pytest.raises(Exception):  # noqa: B017, PT011 - the SDK reports the 401 as its own error type
        run(lambda: http_session(quire.url), lambda s: s.list_tools())

    async def body(s: Any) -> list[Any]:
        return data(await s.call_tool("list_documents", {}))

    assert run(lambda: http_session(quire.url, {"Authorization": "Bearer mcp-s3cret"}), body) == []


def test_write_tools_only_when_enabled(server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama,
                                       tmp_path: Path) -> None:
    quire = server_factory(QUIRE_MCP_ALLOW_WRITES="true")

    async def body(s: Any) -> tuple[set[str], Any, Any, Any]:
        tools = {t.name for t in (await s.list_tools()).tools}
        uploaded = data(await s.call_tool("upload_document", {"filename": "ribosomes.md", "category": "mcp",
                                                              "text": "# Ribosomes\n\nRibosomes translate mRNA."}))
        both = error(await s.call_tool("upload_document", {"filename": "x.md", "text": "a", "content_base64": "YQ=="}))
        fake = error(await s.call_tool("upload_document", {"filename": "x.pdf", "content_base64": "aGVsbG8="}))
        return tools, uploaded, both, fake

    tools, uploaded, both, fake = run(lambda: http_session(quire.url), body)
    assert tools == READ_TOOLS | {"upload_document", "generate_quiz"}
    assert both["code"] == "invalid_content"
    assert fake["code"] in {"content_mismatch", "unsupported_type", "invalid_file"}  # checked by content
    with quire.client() as api:
        assert wait_for_run(api, uploaded["workflow_id"])["status"] == "SUCCESS"

    fake_ollama.script(Reply(content=json.dumps({"questions": [
        {"type": "mcq", "question": "What do ribosomes translate?", "options": ["mRNA", "DNA", "lipids", "ATP"],
         "correct_index": 0, "explanation": "The note says so.", "source_block_ids": ["P1"]}]})))

    async def quiz(s: Any) -> tuple[Any, Any]:
        job = data(await s.call_tool("generate_quiz", {"count": 5, "categories": ["mcp"]}))
        found = data(await s.call_tool("search", {"query": "ribosomes translate", "k": 1}))
        return job, found

    job, found = run(lambda: http_session(quire.url), quiz)
    assert found["passages"][0]["filename"] == "ribosomes.md"
    with quire.client() as api:
        assert wait_job(api, job["job_id"])["status"] == "succeeded"
    assert any(i["kind"] == "quiz" for i in run(lambda: http_session(quire.url),
                                                _items))


async def _items(s: Any) -> list[dict[str, Any]]:
    return data(await s.call_tool("list_study_items", {}))
