"""The app shell in a real browser: the API-token screen, the theme switch (persisted), the command
palette, and the navigation drawer on a phone-sized window."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleWatch, require_built_app
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer


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

    page.keyboard.press("Control+k")
    palette = page.get_by_role("combobox", name="Type a command")
    expect(palette).to_be_focused()
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
