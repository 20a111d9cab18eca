"""The command palette finds what is inside the documents, not only their names: "Topologie" lists
passages of a 117-page topology script whose file name doesn't say so, and opens the viewer at the
passage's page; quizzes and mind maps open by their titles."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from scripts.shared_data import CORPUS
from tests.e2e.browser import open_palette
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.study import generate, mindmap_reply, quiz_reply, study_vault
from tests.support.vault import ingest

SCRIPT = "geotopo-lecture-notes-de.pdf"


def test_palette_finds_passages_quizzes_and_mind_maps(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama
) -> None:
    with e2e_server.client() as api:
        ingest(api, {SCRIPT: (CORPUS / SCRIPT).read_bytes()}, timeout_s=300)
        vault = study_vault(api, ("cells",))
        quiz = generate(api, fake_ollama, "/api/study/quizzes", {"scope": vault["scope"], "count": 5}, quiz_reply(5))
        mindmap = generate(api, fake_ollama, "/api/study/mindmaps", {"scope": vault["scope"], "depth": 2},
                           mindmap_reply(3))
        assert mindmap["status"] == "succeeded", mindmap
        quiz_title = api.get(f"/api/study/quizzes/{quiz['result_id']}").json()["title"]
        map_title = api.get(f"/api/study/mindmaps/{mindmap['result_id']}").json()["title"]
    page.goto(e2e_server.url + "/library")
    expect(page.get_by_role("heading", name="Library", exact=True)).to_be_visible()

    open_palette(page)
    page.keyboard.type("Topologie")
    results = page.get_by_role("listbox", name="Results")
    passages = results.get_by_role("group", name="Passages").get_by_role("option")
    expect(passages.first).to_be_visible()
    expect(passages.first).to_contain_text(SCRIPT)
    expect(passages.first).to_contain_text(re.compile(r"Page \d+"))
    page.keyboard.press("End")  # stays in the box; move to the first passage with the arrows
    while results.get_by_role("option", selected=True).get_attribute("id") != passages.first.get_attribute("id"):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/library/documents/[0-9a-f-]{36}\?block=.+&page=\d+&q=Topologie$"))
    view = page.get_by_test_id("pdf-view")
    expect(view.get_by_test_id("page-count")).to_have_text("of 117")
    expect(view.get_by_test_id("pdf-word-highlight").first).to_be_visible()

    open_palette(page)
    page.keyboard.type(quiz_title[:12])
    study_items = results.get_by_role("group", name="Study items")
    item = study_items.get_by_role("option", name=re.compile(re.escape(quiz_title)))
    expect(item).to_contain_text("Quiz")
    item.click()
    expect(page).to_have_url(re.compile(rf"/study/quizzes/{quiz['result_id']}$"))

    page.get_by_role("button", name=re.compile("^Jump to")).click()
    page.keyboard.type(map_title)
    item = study_items.get_by_role("option", name=re.compile(re.escape(map_title)))
    expect(item).to_contain_text("Mind map")
    item.click()
    expect(page).to_have_url(re.compile(rf"/study/mindmaps/{mindmap['result_id']}$"))
