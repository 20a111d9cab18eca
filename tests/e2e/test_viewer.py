"""The source viewer in a real browser, on real corpus files of every format: the library's search box
finds passages (not just names), groups them by document with the words marked, and each result opens
the document at its place — a PDF page with the passage boxed, slide N of M, a text document scrolled
to the passage (a Word picture's text set apart where the picture is), sheet rows marked. Screenshots of
each view, light and dark, go to test-artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scripts.shared_data import CORPUS
from tests.e2e.a11y import settle_transitions
from tests.e2e.conftest import ARTIFACTS, ConsoleWatch
from tests.support.corpus import sideways_photo
from tests.support.documents import Heading, Para, make_docx, render_text_image, tesseract_available
from tests.support.hostile import tangled_lines_pdf
from tests.support.server import QuireServer
from tests.support.vault import ingest

FILES = ["huckleberry-finn-p22-scan.pdf", "federal-register-2020-17221.pdf", "py4e-02-expressions.pptx",
         "docling-word-sample.docx", "readxl-deaths.xlsx", "palmer-penguins.csv", "wikipedia-mozilla.html",
         "rust-book-ch04-01-ownership.md", "linn-brochure-rotate-flag-skewed-scan.pdf"]


@pytest.fixture(scope="module")
def corpus(e2e_server: QuireServer) -> Iterator[dict[str, dict[str, Any]]]:
    with e2e_server.client() as api:
        yield ingest(api, {name: (CORPUS / name).read_bytes() for name in FILES}, category="Corpus", timeout_s=180)


def _search(page: Page, server: QuireServer, query: str) -> Locator:
    page.goto(server.url + "/library")
    box = page.get_by_label("Search documents and passages")
    box.fill(query)
    results = page.get_by_test_id("passage-results")
    expect(results).to_contain_text(re.compile(rf"Best \d+ passages? for “{re.escape(query)}”, in \d+ documents?"))
    return results


def _open_hit(page: Page, server: QuireServer, query: str, filename: str) -> None:
    """Search, check the document's group marks the query's words, open its passage containing `query`."""
    results = _search(page, server, query)
    group = results.get_by_test_id("passage-group").filter(has_text=filename)
    expect(group).to_be_visible()
    expect(group.get_by_test_id("term-mark").first).to_be_visible()
    # The passage holding the phrase (its words in order; table cells may stand between them), not merely
    # the document's best-ranked passage — that one, if no snippet shows the whole phrase.
    hits = group.get_by_test_id("passage-hit")
    phrase = re.compile(r"\W+".join(re.escape(word) for word in query.split()), re.IGNORECASE)
    holding = hits.filter(has_text=phrase)
    (holding if holding.count() else hits).first.click()
    expect(page).to_have_url(re.compile(r"/library/documents/[0-9a-f-]{36}\?block="))
    expect(page.get_by_test_id("viewer-title")).to_contain_text(filename)


def _screenshots(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"viewer-{name}-light.png"))
    page.emulate_media(color_scheme="dark")
    settle_transitions(page)
    page.screenshot(path=str(ARTIFACTS / f"viewer-{name}-dark.png"))
    page.emulate_media(color_scheme="light")


def test_pdf_result_opens_its_page_with_the_passage_boxed(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]]
) -> None:
    _open_hit(page, e2e_server, "process inputs from the pilots", "federal-register-2020-17221.pdf")
    view = page.get_by_test_id("pdf-view")
    expect(view).to_have_attribute("data-page", "2")
    expect(view.get_by_test_id("page-count")).to_have_text("of 15")
    image = view.get_by_test_id("pdf-page-image")
    expect(image).to_have_attribute("src", re.compile(r"/pages/2\.png"))
    expect(view.get_by_test_id("pdf-highlight").first).to_be_visible()
    assert image.evaluate("img => img.complete && img.naturalWidth > 600")
    # The boxes lie on the page image (measured in one go: the view may still be scrolling to them).
    inside = view.evaluate("""view => {
        const page = view.querySelector('[data-testid="pdf-page-image"]').getBoundingClientRect();
        return [...view.querySelectorAll('[data-testid$="highlight"]')].map((mark) => {
            const box = mark.getBoundingClientRect();
            return box.left >= page.left && box.right <= page.right + 1
                && box.top >= page.top && box.bottom <= page.bottom + 1;
        });
    }""")
    assert inside
    assert all(inside)
    _screenshots(page, "pdf")

    view.get_by_role("button", name="Next page").click()
    expect(view).to_have_attribute("data-page", "3")
    expect(view.get_by_test_id("pdf-page-image")).to_have_attribute("src", re.compile(r"/pages/3\.png"))
    expect(page.get_by_test_id("open-original")).to_have_attribute("href", re.compile(r"/file$"))


def test_scanned_page_boxes_the_passage_from_its_ocr_words(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]]
) -> None:
    _open_hit(page, e2e_server, "We scrouched down and laid still", "huckleberry-finn-p22-scan.pdf")
    view = page.get_by_test_id("pdf-view")
    expect(view).to_have_attribute("data-page", "1")
    expect(view.get_by_test_id("pdf-page-image")).to_be_visible()
    # No text layer, but OCR kept each word's box: the passage is boxed on the image itself.
    expect(view.get_by_test_id("pdf-highlight").first).to_be_visible()
    expect(view).not_to_contain_text("This page has no text layer")


@pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")
def test_a_scan_with_a_rotate_flag_is_shown_upright_with_its_boxes_along_the_lines(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]]
) -> None:
    # OCRmyPDF's rotated_skew.pdf: the image lies sideways, /Rotate 90 turns it upright on screen. Boxes once
    # ignored the flag: horizontal bars across text that runs horizontally only after the turn.
    _open_hit(page, e2e_server, "Optional SMPTE time code synchronization", "linn-brochure-rotate-flag-skewed-scan.pdf")
    view = page.get_by_test_id("pdf-view")
    image = view.get_by_test_id("pdf-page-image")
    expect(view.get_by_test_id("pdf-highlight").first).to_be_visible()
    assert image.evaluate("img => img.complete && img.naturalHeight > img.naturalWidth"), "shown upright (portrait)"
    boxes = view.evaluate("""view => {
        const page = view.querySelector('[data-testid="pdf-page-image"]').getBoundingClientRect();
        return [...view.querySelectorAll('[data-testid="pdf-highlight"]')].map((mark) => {
            const box = mark.getBoundingClientRect();
            return {inside: box.left >= page.left - 1 && box.right <= page.right + 1
                            && box.top >= page.top - 1 && box.bottom <= page.bottom + 1,
                    width: box.width, height: box.height};
        });
    }""")
    assert boxes
    assert all(box["inside"] for box in boxes), boxes
    # A line of the passage as shown upright is wide and low; a box mapped without the turn is tall and narrow.
    assert all(box["width"] > 2 * box["height"] for box in boxes), boxes
    _screenshots(page, "rotate-flag")


@pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")
def test_a_photo_of_a_page_opens_upright_with_the_recognised_passage(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]]
) -> None:
    with e2e_server.client() as api:
        ingest(api, {"IMG_2041.jpg": sideways_photo()}, timeout_s=180)  # on its side, turned by EXIF
    _open_hit(page, e2e_server, "there was a light behind him", "IMG_2041.jpg")
    view = page.get_by_test_id("pdf-view")
    expect(view).to_have_attribute("data-page", "1")
    expect(view.get_by_test_id("page-count")).to_have_text("of 1")
    image = view.get_by_test_id("pdf-page-image")
    expect(image).to_have_attribute("src", re.compile(r"/pages/1\.png"))
    assert image.evaluate("img => img.decode().then(() => img.naturalHeight > img.naturalWidth)"), "not upright"
    expect(view.get_by_test_id("pdf-highlight").first).to_be_visible()  # boxed from OCR's word boxes
    expect(page.get_by_test_id("viewer-title")).to_contain_text("IMG_2041.jpg")
    _screenshots(page, "picture")


def test_a_page_too_complex_to_draw_says_so(page: Page, e2e_server: QuireServer, console: ConsoleWatch,
                                            tmp_path: Path) -> None:
    # Before: the page drew for half a minute in the server (which stopped answering), under a spinner.
    console.allow(r"422")  # Chromium logs the refused image as a failed resource load
    with e2e_server.client() as api:
        doc = ingest(api, {"tangled.pdf": tangled_lines_pdf(tmp_path / "tangled.pdf").read_bytes()})["tangled.pdf"]
    page.goto(f"{e2e_server.url}/library/documents/{doc['id']}?page=1")
    view = page.get_by_test_id("pdf-view")
    expect(view.get_by_test_id("pdf-page-error")).to_have_text(
        # Refused after 5 s of the drawing's CPU time, which a loaded machine spreads over much more wall time.
        "Page 1 is too complex to show; download the original.", timeout=120_000)
    expect(view.get_by_test_id("pdf-page-image")).to_be_hidden()
    expect(page.get_by_test_id("open-original")).to_be_visible()


def test_slide_result_opens_slide_n_of_m(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]]
) -> None:
    _open_hit(page, e2e_server, "express the classic math operations", "py4e-02-expressions.pptx")
    view = page.get_by_test_id("slide-view")
    expect(view).to_have_attribute("data-slide", "16")
    expect(view).to_contain_text("Slide 16 of 34")
    expect(view.get_by_test_id("cited-block")).to_contain_text("express the classic math operations")
    expect(view.get_by_test_id("cited-block").get_by_test_id("term-mark").first).to_be_visible()
    _screenshots(page, "pptx")
    view.get_by_role("button", name="Next slide").click()
    expect(view).to_contain_text("Slide 17 of 34")


def test_a_passage_taller_than_the_view_opens_at_its_start_below_the_slide_bar(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]]
) -> None:
    # Slide 17 is one passage of some 30 lines and a table: centred, its first lines were hidden.
    _open_hit(page, e2e_server, "jj = 23", "py4e-02-expressions.pptx")
    view = page.get_by_test_id("slide-view")
    expect(view).to_have_attribute("data-slide", "17")
    cited = view.get_by_test_id("cited-block")
    expect(cited).to_contain_text(">>> xx = 2")
    bar = view.get_by_role("button", name="Next slide").locator("xpath=ancestor::div[contains(@class, 'sticky')]")
    page.wait_for_function("""() => {
        const block = document.querySelector('[data-testid="cited-block"]').getBoundingClientRect();
        return block.height > window.innerHeight && block.top > 0;
    }""")
    block, bar_box, viewport = cited.bounding_box(), bar.bounding_box(), page.viewport_size
    assert block is not None
    assert bar_box is not None
    assert viewport is not None
    assert bar_box["y"] + bar_box["height"] <= block["y"] < viewport["height"] / 3


@pytest.mark.parametrize(("query", "filename", "heading"), [
    ("some interesting things a respectful duck could eat", "docling-word-sample.docx", None),
    ("converts JavaScript scripts into Java classes", "wikipedia-mozilla.html", "Rhino"),
    ("from the memory allocator at runtime", "rust-book-ch04-01-ownership.md", "Memory and Allocation"),
])
def test_text_result_scrolls_to_the_passage(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]], query: str, filename: str,
    heading: str | None,
) -> None:
    _open_hit(page, e2e_server, query, filename)
    cited = page.get_by_test_id("text-view").get_by_test_id("cited-block")
    expect(cited).to_contain_text(query)
    expect(cited).to_be_in_viewport()
    if heading:
        expect(page.get_by_test_id("text-view").get_by_role("heading", name=heading)).to_be_visible()
    _screenshots(page, filename.rsplit(".", 1)[1])


@pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")
def test_a_word_pictures_text_is_shown_where_the_picture_is(page: Page, e2e_server: QuireServer,
                                                            tmp_path: Path) -> None:
    board = render_text_image("Photosynthesis converts light energy into chemical energy", width=1400, height=500)
    handout = make_docx(tmp_path / "handout", [
        Heading("Plant cells"), Para("The board at the end of the chloroplast lecture:", pictures=[board]),
        Para("Ask the tutor about anything on the board."), Heading("Animal cells"),
        Para("Animal cells have no cell wall."),
    ])
    with e2e_server.client() as api:
        ingest(api, {"plant-cells-handout.docx": handout.read_bytes()}, timeout_s=120)
    _open_hit(page, e2e_server, "light energy into chemical energy", "plant-cells-handout.docx")
    view = page.get_by_test_id("text-view")
    picture = view.get_by_test_id("cited-block").get_by_test_id("picture-text")
    expect(picture).to_contain_text("Text in picture (read by OCR)")
    expect(picture).to_contain_text(re.compile(r"light energy\s+into chemical energy"))
    expect(picture.get_by_test_id("term-mark").first).to_be_visible()
    # In place: after the paragraph that holds the picture, before the next one, under its heading.
    text = view.inner_text()
    assert text.index("end of the chloroplast lecture") < text.index("Text in picture") < text.index("Ask the tutor")
    assert text.index("Plant cells") < text.index("Text in picture") < text.index("Animal cells")
    _screenshots(page, "docx-picture")


@pytest.mark.parametrize(("query", "filename", "row"), [
    ("Vera Rubin scientist", "readxl-deaths.xlsx", "Vera Rubin"),
    ("Gentoo Biscoe 45.2 16.4 223 5950", "palmer-penguins.csv", "5950"),
])
def test_sheet_result_marks_the_cited_rows(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]], query: str, filename: str, row: str,
) -> None:
    _open_hit(page, e2e_server, query, filename)
    view = page.get_by_test_id("sheet-view")
    expect(view.get_by_test_id("cited-row").filter(has_text=row).first).to_be_in_viewport()
    expect(view.locator("th").first).to_be_visible()
    _screenshots(page, filename.rsplit(".", 1)[1])


def test_html_original_is_never_rendered(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]]
) -> None:
    outside: list[str] = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith(e2e_server.url) and not request.url.startswith("data:") else None)
    _open_hit(page, e2e_server, "converts JavaScript scripts into Java classes", "wikipedia-mozilla.html")
    expect(page.get_by_test_id("text-view")).to_be_visible()
    assert page.locator("iframe").count() == 0
    assert outside == []


def test_ask_in_chat_from_a_result_scopes_the_question(
    page: Page, e2e_server: QuireServer, corpus: dict[str, dict[str, Any]]
) -> None:
    results = _search(page, e2e_server, "memory allocator")
    hit = results.get_by_test_id("passage-group").filter(has_text="rust-book").get_by_test_id("passage-hit").first
    _screenshots(page, "library-search")
    hit.hover()
    results.get_by_role("link", name=re.compile(r"^Ask in chat about “memory allocator” in rust-book")).first.click()
    expect(page).to_have_url(re.compile(r"/chat$"))
    expect(page.get_by_role("textbox").first).to_have_value("memory allocator")
    expect(page.get_by_text("rust-book-ch04-01-ownership.md").first).to_be_visible()
