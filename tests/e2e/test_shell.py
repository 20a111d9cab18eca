"""The app shell in a real browser: the API-token screen, the theme switch (persisted), the command
palette (screens, study actions, and conversations and documents opened by name from the keyboard),
and the navigation drawer on a phone-sized window."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.browser import open_palette
from tests.e2e.conftest import ConsoleWatch, require_built_app
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import ingest


def test_a_token_protected_server_asks_for_the_token_once_and_keeps_it(
    page: Page, server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, console: ConsoleWatch
) -> None:
    require_built_app()
    console.allow(r"401")  # the browser logs the refused requests that make the app ask for the token
    server = server_factory(QUIRE_API_TOKEN="e2e-secret-token")
    page.goto(server.url + "/library")
    gate = page.get_by_role("dialog", name="This Quire needs its access token")
    expect(gate).to_be_visible()

    gate.get_by_role("textbox", name="Token").fill("wrong-token")
    gate.get_by_role("button", name="Unlock").click()
    expect(gate.get_by_role("alert")).to_have_text("That token was not accepted.")

    gate.get_by_role("textbox", name="Token").fill("e2e-secret-token")
    gate.get_by_role("button", name="Unlock").click()
    expect(page.get_by_text("Your library is empty")).to_be_visible()
    expect(gate).to_have_count(0)
    [cookie] = [c for c in page.context.cookies() if c["name"] == "quire_token"]
    assert cookie["sameSite"] == "Strict"
    assert cookie["path"] == "/"


def test_theme_choice_persists_and_the_palette_and_drawer_navigate(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama
) -> None:
    page.goto(e2e_server.url + "/library")
    html = page.locator("html")
    expect(html).not_to_have_class(re.compile(r"\bdark\b"))
    page.get_by_role("radio", name="Dark theme").click()
    expect(html).to_have_class(re.compile(r"\bdark\b"))
    page.reload()
    expect(html).to_have_class(re.compile(r"\bdark\b"))
    expect(page.get_by_role("radio", name="Dark theme")).to_be_checked()
    page.get_by_role("radio", name="System theme").click()
    expect(html).not_to_have_class(re.compile(r"\bdark\b"))  # the browser prefers light

    palette = open_palette(page)
    palette.fill("chat")
    palette.press("Enter")
    expect(page).to_have_url(re.compile(r"/chat$"))
    expect(page.get_by_role("textbox", name="Message")).to_be_visible()

    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    page.get_by_role("button", name="Open navigation").click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Library").click()
    expect(page).to_have_url(re.compile(r"/library$"))
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()


def test_the_palette_opens_conversations_documents_and_study_actions_from_the_keyboard(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    pdf = make_pdf(tmp_path / "light.pdf", ["Chlorophyll absorbs red and blue light."])
    with e2e_server.client() as api:
        docs = ingest(api, {"palette-photosynthesis-slides.pdf": pdf.read_bytes(),
                            "palette-photosynthesis-notes.md": b"# Light\n\nChlorophyll absorbs red light."})
        with api.stream("POST", "/api/chat", json={"message": "Which pigment absorbs red light?"}) as answer:
            for _ in answer.iter_lines():
                pass
        [session] = [s for s in api.get("/api/chat/sessions").json() if "pigment" in s["title"]]
    page.goto(e2e_server.url + "/library")
    expect(page.get_by_role("heading", name="Library", exact=True)).to_be_visible()

    # A conversation by a word of its title; the best match is already selected.
    open_palette(page)
    page.keyboard.type("pigment")
    results = page.get_by_role("listbox", name="Results")
    expect(results.get_by_role("group", name="Conversations")).to_be_visible()
    expect(results.get_by_role("option", name=session["title"])).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"/chat/{session['id']}$"))
    expect(page.get_by_role("heading", level=1, name=session["title"])).to_be_visible()

    # Documents by a few letters of their names, the arrows moving the choice; they open in the viewer.
    open_palette(page)
    page.keyboard.type("photosyn")
    documents = page.get_by_role("group", name="Documents").get_by_role("option")
    expect(documents).to_have_count(2)
    expect(documents.nth(0)).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowDown")
    expect(documents.nth(1)).to_have_attribute("aria-selected", "true")
    expect(documents.nth(0)).to_have_attribute("aria-selected", "false")
    page.keyboard.press("ArrowUp")
    expect(documents.nth(0)).to_have_attribute("aria-selected", "true")
    page.keyboard.type(" slides")
    expect(page.get_by_role("option", name=re.compile("^palette-photosynthesis-slides.pdf"))).to_have_attribute(
        "aria-selected", "true")
    page.keyboard.press("Enter")
    slides_id = docs["palette-photosynthesis-slides.pdf"]["id"]
    expect(page).to_have_url(re.compile(rf"/library/documents/{slides_id}$"))
    expect(page.get_by_test_id("pdf-view")).to_have_attribute("data-page", "1")

    # Every document opens in the viewer, other formats as their text.
    open_palette(page)
    page.keyboard.type("notes.md")
    page.keyboard.press("Enter")
    notes_id = docs["palette-photosynthesis-notes.md"]["id"]
    expect(page).to_have_url(re.compile(rf"/library/documents/{notes_id}$"))
    expect(page.get_by_test_id("text-view")).to_be_visible()

    # Study actions; with no cards due, no review is offered.
    open_palette(page)
    page.keyboard.type("new mind")
    expect(page.get_by_role("option", name="New mind map")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/study/new/mindmap$"))
    expect(page.get_by_role("heading", level=1, name="New mind map")).to_be_visible()
    open_palette(page)
    page.keyboard.type("review")
    expect(page.get_by_role("option", name="Go to Study")).to_be_visible()
    expect(page.get_by_role("option", name=re.compile("^Review "))).to_have_count(0)
