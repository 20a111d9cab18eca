"""A passage a document prints on several pages is one row of the library's passage search, at its first
page, the row saying where else it stands ("Also on p. 3, p. 5", each a link there); the other pages'
passages still follow."""

from __future__ import annotations

import uuid
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support.documents import make_pdf
from tests.support.server import QuireServer
from tests.support.vault import ingest

REPEATED = "Safety notice: keep the kiln door closed while the kiln is firing above 600 degrees. "


def test_a_repeated_passage_is_one_row_saying_where_else_it_stands(page: Page, e2e_server: QuireServer,
                                                                    tmp_path: Path) -> None:
    pages = [REPEATED * 2, "Glazes melt into glass on the kiln shelf.", REPEATED * 2,
             "Bisque firing hardens the clay before the kiln glaze firing.", REPEATED * 2]
    name = f"kiln-{uuid.uuid4().hex[:6]}.pdf"
    with e2e_server.client() as api:
        ingest(api, {name: make_pdf(tmp_path / name, pages).read_bytes()})
    page.goto(e2e_server.url + "/library")
    page.get_by_label("Search documents and passages").fill("kiln")
    group = page.get_by_test_id("passage-group").filter(has_text=name)
    expect(group.get_by_test_id("passage-hit")).to_have_count(3)  # pages 1 (and 3, 5), 2 and 4
    repeated = group.get_by_test_id("passage-hit").filter(has_text="Safety notice")
    expect(repeated).to_have_count(1)
    expect(repeated).to_contain_text("Page 1")
    also = group.get_by_test_id("passage-row").filter(has_text="Safety notice").get_by_test_id("also-at")
    expect(also).to_have_text("Also on p. 3, p. 5")
    # Each other place is a link to it: page 5 opens with its copy of the passage boxed.
    also.get_by_role("link", name="p. 5").click()
    view = page.get_by_test_id("pdf-view")
    expect(view).to_have_attribute("data-page", "5")
    expect(view.get_by_test_id("pdf-highlight").first).to_be_visible()
