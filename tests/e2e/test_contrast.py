"""WCAG AA text contrast on every main screen, in the light and the dark theme, checked by axe-core in a
real browser: library (with search results), chat, study hub, dashboard and the viewer (PDF page, text
document, sheet)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.a11y import contrast_violations
from tests.support.server import REPO_ROOT, QuireServer
from tests.support.vault import ingest

CORPUS = REPO_ROOT.parent / "shared" / "corpus"
FILES = ["federal-register-2020-17221.pdf", "rust-book-ch04-01-ownership.md", "readxl-deaths.xlsx"]


@pytest.fixture(scope="module")
def corpus(e2e_server: QuireServer) -> Iterator[dict[str, dict[str, Any]]]:
    with e2e_server.client() as api:
        yield ingest(api, {name: (CORPUS / name).read_bytes() for name in FILES}, category="Corpus", timeout_s=180)


def _hit(server: QuireServer, query: str, document_id: str) -> dict[str, Any]:
    with server.client() as api:
        hits = api.get("/api/search", params={"q": query, "documents": document_id, "mode": "sparse"}).json()["hits"]
    return hits[0]


def _viewer(server: QuireServer, corpus: dict[str, dict[str, Any]], name: str, query: str) -> str:
    hit = _hit(server, query, corpus[name]["id"])
    page = f"&page={hit['page']}" if hit["page"] else ""
    return f"/library/documents/{hit['document_id']}?block={hit['block_id']}{page}&q={query.replace(' ', '+')}"


VIEWS = [
    ("federal-register-2020-17221.pdf", "software installation verification", "pdf-highlight"),
    ("rust-book-ch04-01-ownership.md", "memory allocator", "cited-block"),
    ("readxl-deaths.xlsx", "Vera Rubin", "cited-row"),
]

SCREENS: dict[str, Callable[[Page], None]] = {
    "library": lambda page: expect(page.get_by_test_id("document-row").first).to_be_visible(),
    "chat": lambda page: expect(page.get_by_role("textbox").first).to_be_visible(),
    "study": lambda page: expect(page.get_by_role("heading").first).to_be_visible(),
    "dashboard": lambda page: expect(page.get_by_role("heading").first).to_be_visible(),
}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_main_screens_meet_aa_text_contrast(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]], theme: str
) -> None:
    page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
    found: dict[str, list[dict[str, Any]]] = {}
    for screen, ready in SCREENS.items():
        page.goto(e2e_server.url + f"/{screen}")
        ready(page)
        page.wait_for_load_state("networkidle")
        found[screen] = contrast_violations(page)

    # The library with passage results under its search box.
    page.goto(e2e_server.url + "/library")
    page.get_by_label("Search documents and passages").fill("memory allocator")
    expect(page.get_by_test_id("passage-hit").first).to_be_visible()
    found["library search"] = contrast_violations(page)

    for name, query, ready_id in VIEWS:
        page.goto(e2e_server.url + _viewer(e2e_server, corpus, name, query))
        expect(page.get_by_test_id(ready_id).first).to_be_visible()
        found[f"viewer {name}"] = contrast_violations(page)

    failures = {screen: nodes for screen, nodes in found.items() if nodes}
    assert not failures, "\n".join(f"{screen}: {node['target']} {node['html']} — {node['summary']}"
                                   for screen, nodes in failures.items() for node in nodes)
