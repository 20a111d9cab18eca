"""Importing a web page from the library in a real browser: the article is fetched, extracted and
ingested like an upload, shown with its address; a page that cannot be fetched says why.

The server here allows private addresses (QUIRE_URL_IMPORT_ALLOW_PRIVATE) so a local page can stand in
for the web; the address checks themselves are tested in tests/ingest/test_url_import.py."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleWatch
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer

SERVER_ENV = {"QUIRE_URL_IMPORT_ALLOW_PRIVATE": "true"}

ARTICLE = b"""<!doctype html><html><head><title>How Glaciers Move</title></head><body>
<nav>Home | Blog</nav><article><h1>How Glaciers Move</h1>
<p>Glaciers flow downhill under their own weight, deforming like a very slow, thick fluid.</p>
<p>Basal sliding happens where meltwater lubricates the bed beneath the ice.</p></article>
<footer>Copyright</footer></body></html>"""


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/glaciers":
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(ARTICLE)))
            self.end_headers()
            self.wfile.write(ARTICLE)
        else:
            self.send_error(404)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_web_page_is_imported_into_a_category(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, site: str
) -> None:
    page.goto(e2e_server.url + "/library")
    page.get_by_label("Category for new documents").fill("Geography")
    page.get_by_label("Web page address to import").fill(f"{site}/glaciers")
    page.get_by_role("button", name="Import", exact=True).click()

    row = page.locator('[data-testid="document-row"]').filter(has_text="How Glaciers Move")
    expect(row).to_have_attribute("data-status", "ready", timeout=30_000)
    expect(row).to_contain_text(f"{site}/glaciers")  # where it came from
    expect(row).to_contain_text("Geography")
    with e2e_server.client() as api:
        hits = api.get("/api/search", params={"q": "basal sliding meltwater", "mode": "sparse"}).json()["hits"]
    assert hits
    assert "Basal sliding" in hits[0]["text"]
    assert "Copyright" not in hits[0]["text"]  # the article, not the page's chrome


def test_a_page_that_cannot_be_fetched_says_why(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, site: str, console: ConsoleWatch
) -> None:
    console.allow(r"status of 4\d\d")  # the browser logs the refused request itself
    page.goto(e2e_server.url + "/library")
    page.get_by_label("Web page address to import").fill(f"{site}/missing")
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_text("The server answered HTTP 404.")).to_be_visible()
    with e2e_server.client() as api:
        assert all(d["source_url"] != f"{site}/missing" for d in api.get("/api/documents").json())
