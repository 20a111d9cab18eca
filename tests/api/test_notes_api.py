"""Notes over real HTTP: a note written in Markdown is a source like an upload (ingested, searchable, a
study scope, versioned) marked as a note; editing it adds a version whose changed passage flags the cards
citing it; a chat answer is saved as a note with its question and sources; uploaded documents are not
edited as notes."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import httpx

from tests.agent.chatting import chat
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.study import generate
from tests.support.vault import ingest, wait_for_run

KREBS = ("# Krebs cycle\n\nThe citric acid cycle oxidises acetyl-CoA to carbon dioxide in the mitochondrial "
         "matrix.\n\n## Yield\n\nEach turn yields three NADH, one FADH2 and one GTP.\n")


def saved(api: httpx.Client, response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 202, response.text
    note = response.json()
    assert wait_for_run(api, note["workflow_id"])["status"] == "SUCCESS"
    return note


def test_a_note_is_a_source_with_versions_whose_changes_flag_its_cards(
        api: httpx.Client, fake_ollama: FakeOllama) -> None:
    category = f"notes-{uuid.uuid4().hex[:6]}"
    note = saved(api, api.post("/api/notes", json={"title": "Krebs: cycle?", "markdown": KREBS,
                                                   "category": category}))
    assert note["filename"] == "Krebs cycle.md"  # unsafe characters left out of the name
    doc = api.get(f"/api/documents/{note['document_id']}").json()
    assert (doc["source_kind"], doc["status"], doc["kind"], doc["current_version"]) == ("note", "ready", "md", 1)
    assert api.get(f"/api/notes/{note['document_id']}").json()["markdown"] == KREBS
    hits = api.get("/api/search", params={"q": "acetyl-CoA oxidised", "categories": category}).json()["hits"]
    assert hits[0]["document_id"] == note["document_id"]
    # A second note of the same title is kept beside the first.
    twin = saved(api, api.post("/api/notes", json={"title": "Krebs cycle", "markdown": "# Other\n\nText.",
                                                   "category": category}))
    assert twin["filename"] == "Krebs cycle (2).md"

    scope = {"document_ids": [note["document_id"]]}
    cards = [{"front": "Where does the cycle run?", "back": "In the matrix.", "source_block_ids": ["P1"]},
             {"front": "What does a turn yield?", "back": "3 NADH, 1 FADH2, 1 GTP.", "source_block_ids": ["P2"]}]
    deck = api.get(generate(api, fake_ollama, "/api/study/decks", {"scope": scope, "count": 10},
                            json.dumps({"cards": cards}))["result_url"]).json()

    edited = KREBS.replace("one GTP", "one GTP (or ATP in some tissues)")
    saved(api, api.put(f"/api/notes/{note['document_id']}", json={"markdown": edited}))
    assert api.get(f"/api/notes/{note['document_id']}").json()["markdown"] == edited
    doc = api.get(f"/api/documents/{note['document_id']}").json()
    assert (doc["current_version"], doc["versions"]) == (2, 2)
    hits = api.get("/api/search", params={"q": "ATP in some tissues", "categories": category}).json()["hits"]
    assert hits[0]["document_id"] == note["document_id"]
    flagged = [c for c in api.get("/api/study/changes").json()["changes"] if c["document_id"] == note["document_id"]]
    yield_card = next(c["id"] for c in deck["cards"] if c["front"] == "What does a turn yield?")
    assert [(c["item_kind"], c["item_id"]) for c in flagged] == [("card", yield_card)]

    uploaded = ingest(api, {f"up-{uuid.uuid4().hex[:6]}.md": b"# Up\n\nUploaded text."})
    refused = api.put(f"/api/notes/{next(iter(uploaded.values()))['id']}", json={"markdown": "x"})
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "not_a_note"
    assert api.put(f"/api/notes/{uuid.uuid4()}", json={"markdown": "x"}).status_code == 404
    assert api.post("/api/notes", json={"title": "", "markdown": "x"}).status_code == 422


def test_a_chat_answer_is_saved_as_a_note_with_its_sources(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    name = f"photo-{uuid.uuid4().hex[:6]}.md"
    ingest(api, {name: b"# Light\n\nChlorophyll absorbs red and blue light in the thylakoid membranes."})

    def agent(request: dict[str, Any]) -> Reply:
        if request.get("think"):
            return Reply(content="(discarded)", thinking="Search the notes.")
        results = [m["content"] for m in request["messages"] if m["role"] == "tool"]
        if not results:
            return Reply(tool_calls=[("search_knowledge_base", {"query": "chlorophyll absorbs light"})])
        number = re.search(r"\[(\d+)\] " + re.escape(name), results[-1])
        assert number, results[-1]
        return Reply(content=f"Chlorophyll absorbs red and blue light [{number.group(1)}].")

    fake_ollama.respond_with(agent)
    stream = chat(api, "Which light does chlorophyll absorb?")
    fake_ollama.respond_with(None)
    cited = next(c for c in stream.citations if c["filename"] == name)
    note = saved(api, api.post("/api/notes/from-answer", json={"session_id": stream.session_id,
                                                               "message_id": stream.message_id}))
    assert note["filename"] == "Which light does chlorophyll absorb.md"
    text = note["markdown"]
    assert text.startswith("# Which light does chlorophyll absorb?\n\n> Which light does chlorophyll absorb?\n\n")
    assert f"Chlorophyll absorbs red and blue light [{cited['n']}]." in text
    assert f"{cited['n']}. [{name}](/library/documents/{cited['document_id']}?block={cited['block_id']})" in text
    assert api.get(f"/api/documents/{note['document_id']}").json()["source_kind"] == "note"
    missing = api.post("/api/notes/from-answer", json={"session_id": stream.session_id,
                                                       "message_id": str(uuid.uuid4())})
    assert missing.status_code == 404
