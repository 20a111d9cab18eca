"""Sources for study, in a real browser: a note written in the app (a source like a document, edited into a
new version); a card made from a passage opened in the viewer (the model drafts, the user edits, the card
keeps the passage and opens it); a typed-answer card checked before rating; a study guide whose citations
open the passage, exported as Markdown and PDF."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.study import generate
from tests.support.vault import ingest, wait_for_run

TEXT = ("# Plants\n\n## Light\n\nChloroplasts capture light energy and store it in glucose.\n\n## Water\n\n"
        "Xylem carries water up from the roots.")


@pytest.fixture(scope="module")
def vault(e2e_server: QuireServer) -> dict[str, Any]:
    name = f"plants-{uuid.uuid4().hex[:6]}.md"
    with e2e_server.client() as api:
        doc = ingest(api, {name: TEXT.encode()})[name]
        hits = api.get("/api/search", params={"q": "chloroplasts light", "documents": doc["id"], "k": 1}).json()
    hit = hits["hits"][0]
    return {"name": name, "id": doc["id"], "block_id": hit["block_id"]}


def test_a_note_is_written_found_and_edited_into_a_new_version(page: Page, e2e_server: QuireServer) -> None:
    title = f"Krebs {uuid.uuid4().hex[:4]}"
    page.goto(f"{e2e_server.url}/library")
    page.get_by_role("link", name="New note").click()
    form = page.get_by_role("form", name="New note")
    form.get_by_label("Title").fill(title)
    form.get_by_label("Note text").fill("# Krebs cycle\n\nThe citric acid cycle oxidises **acetyl-CoA** in the matrix.")
    form.get_by_role("button", name="Preview").click()
    expect(page.get_by_test_id("note-preview").locator("strong")).to_have_text("acetyl-CoA")
    form.get_by_role("button", name="Save note").click()
    expect(page).to_have_url(re.compile(r"/notes/[0-9a-f-]{36}$"))
    note_id = page.url.rsplit("/", 1)[-1]
    with e2e_server.client() as api:
        run = api.get(f"/api/documents/{note_id}").json()["last_workflow_id"]
        assert wait_for_run(api, run)["status"] == "SUCCESS"
    page.goto(f"{e2e_server.url}/library")
    row = page.get_by_test_id("document-row").filter(has_text=title)
    expect(row.get_by_test_id("note-badge")).to_be_visible()
    page.get_by_label("Search documents and passages").fill("citric acid")
    expect(page.get_by_text("oxidises", exact=False).first).to_be_visible()  # its passage is found
    page.get_by_label("Search documents and passages").fill("")

    row.get_by_test_id("note-badge").click()
    edit = page.get_by_role("form", name="Edit note")
    expect(edit).to_contain_text("version 1")
    edit.get_by_label("Note text").fill("# Krebs cycle\n\nThe cycle oxidises acetyl-CoA to carbon dioxide.")
    edit.get_by_role("button", name="Save new version").click()
    expect(page.get_by_text("Saved as a new version")).to_be_visible()
    with e2e_server.client() as api:
        doc = api.get(f"/api/documents/{note_id}").json()
        assert wait_for_run(api, doc["last_workflow_id"])["status"] == "SUCCESS"
        assert api.get(f"/api/documents/{note_id}").json()["versions"] == 2


def test_a_card_is_made_from_a_passage_in_the_viewer_and_a_typed_answer_is_checked(
        page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any]) -> None:
    fake_ollama.script(Reply(content=json.dumps({"front": "What do chloroplasts capture?", "back": "Light energy"})))
    page.goto(f"{e2e_server.url}/library/documents/{vault['id']}?block={vault['block_id']}")
    page.get_by_role("button", name="Make a card from this passage").click()
    dialog = page.get_by_test_id("make-card")
    expect(dialog.get_by_label("Front")).to_have_value("What do chloroplasts capture?")
    assert "Chloroplasts capture light energy" in fake_ollama.chat_requests[-1]["messages"][0]["content"]
    fake_ollama.script(Reply(content=json.dumps({"front": "What do chloroplasts capture?", "back": "light"})))
    dialog.get_by_label("Kind of card").select_option("typed")
    expect(dialog.get_by_label("Answer to type")).to_have_value("light")
    dialog.get_by_label("Front").fill("Chloroplasts capture which energy?")
    dialog.get_by_label("New deck's name").fill("From the viewer")
    page.get_by_role("button", name="Save card").click()
    expect(page.get_by_text("Card saved")).to_be_visible()

    with e2e_server.client() as api:
        deck = next(d for d in api.get("/api/study/decks").json() if d["title"] == "From the viewer")
        card = api.get(f"/api/study/decks/{deck['id']}").json()["cards"][0]
    assert (card["kind"], card["front"], card["back"], card["origin"]) == (
        "typed", "Chloroplasts capture which energy?", "light", "passage")
    assert card["sources"][0]["block_id"] == vault["block_id"]

    page.goto(f"{e2e_server.url}/study/decks/{deck['id']}/review")
    page.get_by_label("Your answer").fill("  Light ")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("typed-verdict")).to_have_attribute("data-correct", "true")
    expect(page.get_by_test_id("card-back").get_by_test_id("item-sources")).to_contain_text(vault["name"])


def test_a_study_guide_cites_its_passages_and_exports(page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama,
                                                      vault: dict[str, Any]) -> None:
    entries = [{"term": "Chloroplast", "definition": "Captures light energy into glucose.", "source_block_ids": ["P1"]},
               {"term": "Xylem", "definition": "Carries water up from the roots.", "source_block_ids": ["P2"]}]
    with e2e_server.client() as api:
        body = {"scope": {"document_ids": [vault["id"]]}, "guide_type": "glossary"}
        job = generate(api, fake_ollama, "/api/study/guides", body, json.dumps({"entries": entries}))
    page.goto(f"{e2e_server.url}/study/guides/{job['result_id']}")
    expect(page.get_by_test_id("guide-entry")).to_have_count(2)
    expect(page.get_by_test_id("guide-entry").first).to_contain_text("Chloroplast — Captures light energy")
    expect(page.get_by_test_id("guide-sources")).to_contain_text(vault["name"])
    with page.expect_download() as markdown:
        page.get_by_role("button", name="Markdown").click()
    text = Path(markdown.value.path()).read_text(encoding="utf-8")
    assert "- **Chloroplast** — Captures light energy into glucose. [1]" in text
    with page.expect_download() as pdf:
        page.get_by_role("button", name="PDF").click()
    assert Path(pdf.value.path()).read_bytes()[:5] == b"%PDF-"
    page.get_by_test_id("guide-citation").first.click()
    expect(page).to_have_url(re.compile(rf"/library/documents/{vault['id']}\?block="))
    expect(page.get_by_test_id("viewer-title")).to_contain_text(vault["name"])
