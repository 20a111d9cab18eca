"""The Knowledge Base screen in a real browser: drag-and-drop upload with live per-file progress, then
searching, filtering, recategorising and moving documents to the trash."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.browser import drop_files, record_ingest_statuses, recorded_statuses
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import ingest

DROP_ZONE = "Drop files to add them to your library"


@contextmanager
def _saved(page: Page) -> Iterator[None]:
    """Wait for the server to answer the category change made inside: the library shows it before the PATCH
    returns, and on a busy machine the test's own read came first and found the old category."""
    with page.expect_response(lambda r: r.request.method == "PATCH" and "/api/documents/" in r.url) as answer:
        yield
    assert answer.value.ok, answer.value.status


def _row(page: Page, filename: str):  # type: ignore[no-untyped-def]
    return page.locator(f'[data-testid="document-row"][data-filename="{filename}"]')


def test_dropped_files_show_their_progress_and_arrive_ready_in_the_table(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    fake_ollama.embed_delay_s = 0.5  # long enough for the embedding stage to be seen
    pdf = make_pdf(tmp_path / "lecture.pdf", [
        "Cells are the basic unit of life.",
        "The plasma membrane is a lipid bilayer with embedded proteins.",
        "Mitochondria produce ATP through cellular respiration.",
    ])
    files = {
        "cell-biology-lecture.pdf": (pdf.read_bytes(), "application/pdf"),
        "membrane-notes.md": (b"# Membranes\n\nPhospholipids form a bilayer; cholesterol keeps it fluid.",
                              "text/markdown"),
        "exam-dates.txt": (b"Biology exam on 14 June. Chemistry exam on 20 June.", "text/plain"),
    }
    page.goto(e2e_server.url + "/library")
    expect(page.get_by_role("heading", name="Library", exact=True)).to_be_visible()
    page.get_by_label("Category for new documents").fill("Biology")
    record_ingest_statuses(page)

    drop_files(page, page.get_by_role("group", name=DROP_ZONE), files)

    for name in files:
        item = page.locator(f'[data-testid="ingest-item"][data-filename="{name}"]')
        expect(item).to_have_attribute("data-status", "ready", timeout=60_000)
    expect(page.locator('[data-testid="ingest-item"][data-filename="cell-biology-lecture.pdf"]')).to_contain_text(
        "Ready · 3 pages")
    statuses = recorded_statuses(page)
    for name in files:
        assert statuses[name][-1] == "ready", statuses
        assert "embedding" in statuses[name], f"{name} never showed the embedding stage: {statuses}"

    for name in files:
        row = _row(page, name)
        expect(row).to_have_attribute("data-status", "ready")
        expect(row).to_contain_text("Biology")
        expect(row).to_contain_text("100%")  # every passage embedded
    pdf_row = _row(page, "cell-biology-lecture.pdf")
    expect(pdf_row.locator("td").nth(3)).to_have_text("3 pages")
    expect(pdf_row.get_by_role("link", name="cell-biology-lecture.pdf", exact=True)).to_have_attribute(
        "href", re.compile(r"^/api/documents/[0-9a-f-]{36}/file$"))


def test_documents_can_be_searched_filtered_recategorised_and_moved_to_the_trash(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama
) -> None:
    with e2e_server.client() as api:
        ingest(api, {"organic-chemistry.md": b"# Alcohols\n\nAlcohols carry an -OH group."}, category="Chemistry")
        ingest(api, {"poetry-notes.md": b"# Sonnets\n\nFourteen lines in iambic pentameter."}, category="Literature")
    page.goto(e2e_server.url + "/library")
    expect(_row(page, "poetry-notes.md")).to_be_visible()

    page.keyboard.press("/")  # the shortcut focuses the name search
    expect(page.get_by_label("Search documents and passages")).to_be_focused()
    page.keyboard.type("poetry")
    expect(page.get_by_test_id("document-row")).to_have_count(1)
    expect(_row(page, "poetry-notes.md")).to_be_visible()
    page.get_by_label("Search documents and passages").fill("")

    page.get_by_label("Filter by category").select_option(label="Chemistry (1)")
    expect(page.get_by_test_id("document-row")).to_have_count(1)
    expect(_row(page, "organic-chemistry.md")).to_be_visible()
    page.get_by_label("Filter by category").select_option(label="All categories")

    _row(page, "poetry-notes.md").get_by_role("button", name=re.compile("change category of poetry-notes.md$")).click()
    editor = page.get_by_label("Category of poetry-notes.md", exact=True)
    editor.fill("English")
    with _saved(page):  # the row shows the new name at once; the server's answer comes after
        editor.press("Enter")
    expect(_row(page, "poetry-notes.md")).to_contain_text("English")
    with e2e_server.client() as api:
        poetry = next(d for d in api.get("/api/documents").json() if d["filename"] == "poetry-notes.md")
    assert poetry["category"] == "English"

    _row(page, "poetry-notes.md").get_by_role("button", name="More actions for poetry-notes.md").click()
    page.get_by_role("menuitem", name="Move to trash").click()
    expect(_row(page, "poetry-notes.md")).to_have_count(0)
    with e2e_server.client() as api:  # in the trash: out of the library, restorable
        assert api.get(f"/api/documents/{poetry['id']}").json()["status"] == "trashed"
        assert poetry["id"] not in {d["id"] for d in api.get("/api/documents").json()}


def test_progress_is_picked_up_again_after_a_page_reload(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama
) -> None:
    fake_ollama.embed_delay_s = 3  # the run is still embedding when the page comes back
    page.goto(e2e_server.url + "/library")
    notes = b"# Enzymes\n\nEnzymes lower activation energy."
    page.get_by_label("Choose files to upload").set_input_files(
        files=[{"name": "reload-notes.md", "mimeType": "text/markdown", "buffer": notes}])
    item = page.locator('[data-testid="ingest-item"][data-filename="reload-notes.md"]')
    expect(item).to_have_attribute("data-status", "embedding", timeout=30_000)

    page.reload()
    expect(item).to_be_visible()  # re-attached to the run that is still going
    expect(item).to_have_attribute("data-status", "ready", timeout=60_000)
    expect(_row(page, "reload-notes.md")).to_have_attribute("data-status", "ready")


def test_an_ingestion_is_cancelled_from_the_page_adding_none_of_its_unfinished_files(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    # A hundred scanned pages of a paragraph each: OCR takes about a second a page on each core, so the PDF is
    # still being extracted when the cancel lands, even on a busy machine where the request itself takes
    # seconds (eight one-line pages were not always enough); the extraction stops at the next page, so the
    # PDF is never stored. The two notes, read beside it (a run's documents are workflows of their own),
    # are stored and live by then, their embeddings held: the cancel withdraws them too, so nothing of a
    # cancelled file stays half-added.
    fake_ollama.hold_embeddings()
    pdf = make_pdf(tmp_path / "scanned.pdf", [
        "Enzymes are proteins that speed up reactions.",
        "Substrates bind to the active site of an enzyme.",
        *(" ".join([f"Competitive inhibitors block the active site, case {n}."] * 10) for n in range(100)),
    ], scanned=tuple(range(2, 102)))
    files = [
        {"name": "enzymes-intro.md", "mimeType": "text/markdown", "buffer": b"# Enzymes\n\nCatalysts made of protein."},
        {"name": "enzymes-scanned.pdf", "mimeType": "application/pdf", "buffer": pdf.read_bytes()},
        {"name": "enzymes-glossary.md", "mimeType": "text/markdown", "buffer": b"# Glossary\n\nSubstrate: what binds."},
    ]
    page.goto(e2e_server.url + "/library")
    page.get_by_label("Choose files to upload").set_input_files(files=files)

    def item(name: str):  # type: ignore[no-untyped-def]
        return page.locator(f'[data-testid="ingest-item"][data-filename="{name}"]')

    expect(item("enzymes-scanned.pdf")).to_have_attribute("data-status", "extracting", timeout=30_000)
    for note in ("enzymes-intro.md", "enzymes-glossary.md"):
        expect(item(note)).to_have_attribute("data-status", "embedding", timeout=30_000)
    entry = page.get_by_test_id("ingest-entry").filter(has=item("enzymes-scanned.pdf"))
    entry.get_by_role("button", name="Cancel the 3 files still in progress").click()
    dialog = page.get_by_role("dialog", name="Cancel the 3 files still in progress?")
    expect(dialog).to_contain_text(
        "enzymes-intro.md, enzymes-scanned.pdf and enzymes-glossary.md aren't ready yet and won't be added")
    dialog.get_by_role("button", name="Cancel processing").click()

    expect(entry.get_by_test_id("cancel-outcome")).to_have_text(
        "Cancelled — nothing was added; upload them again to add them.")
    expect(entry).to_have_attribute("data-run-status", "CANCELLED")
    # One note's embedding was under way (its request held): it says it stopped, not "…" as if it went on.
    expect(entry.get_by_test_id("item-steps").filter(has_text="Embedding stopped")).to_have_count(1)
    fake_ollama.release_embeddings()  # the embedding request that was held is answered: it adds nothing
    for name in ("enzymes-intro.md", "enzymes-scanned.pdf", "enzymes-glossary.md"):
        expect(item(name)).to_have_attribute("data-status", "cancelled")
        # The table agrees: each failed with the reason in words, and nothing of it is searchable.
        expect(_row(page, name)).to_have_attribute("data-status", "failed")
        expect(_row(page, name)).to_contain_text("Ingestion was cancelled")
    expect(entry.get_by_role("button", name="Dismiss")).to_be_visible()
    with e2e_server.client() as api:
        documents = {d["filename"]: d for d in api.get("/api/documents").json()}
        ids = ",".join(documents[name]["id"] for name in ("enzymes-intro.md", "enzymes-glossary.md"))
        assert not api.get("/api/search", params={"q": "catalysts substrate", "mode": "sparse",
                                                  "documents": ids}).json()["hits"]
    assert [documents[name]["blocks"] for name in ("enzymes-intro.md", "enzymes-scanned.pdf",
                                                   "enzymes-glossary.md")] == [0, 0, 0]


def test_files_that_cannot_be_read_are_refused_with_the_reason_while_the_others_arrive(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama
) -> None:
    files = [
        {"name": "holiday-photo.pdf", "mimeType": "application/pdf", "buffer": b"just some text, no PDF inside"},
        {"name": "truncated-slides.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.7\n1 0 obj\n<< /Ty"},
        {"name": "good-notes.md", "mimeType": "text/markdown", "buffer": b"# Notes\n\nRibosomes make proteins."},
    ]
    page.goto(e2e_server.url + "/library")
    page.get_by_label("Choose files to upload").set_input_files(files=files)

    entry = page.get_by_test_id("ingest-entry").filter(has_text="good-notes.md")
    expect(entry.get_by_test_id("rejected-summary")).to_contain_text("2 files not added")
    not_added = page.get_by_test_id("not-added")
    expect(not_added.locator('[data-filename="holiday-photo.pdf"]')).to_contain_text(
        "This file's content is not a .pdf file")
    expect(not_added.locator('[data-filename="truncated-slides.pdf"]')).to_contain_text(
        "This PDF is damaged and could not be opened")
    expect(_row(page, "good-notes.md")).to_have_attribute("data-status", "ready", timeout=30_000)
    for refused in ("holiday-photo.pdf", "truncated-slides.pdf"):
        expect(_row(page, refused)).to_have_count(0)  # nothing stored for a refused file


def test_on_a_phone_the_category_is_changed_under_the_name(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama
) -> None:
    with e2e_server.client() as api:
        ingest(api, {"phone-notes.md": b"# Phone\n\nRead on the train."})
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(e2e_server.url + "/library")
    row = _row(page, "phone-notes.md")
    row.get_by_role("button", name=re.compile("change category of phone-notes.md$")).click()
    editor = page.get_by_label("Category of phone-notes.md", exact=True)
    editor.fill("Commute")
    with _saved(page):  # the row shows the new name at once; the server's answer comes after
        editor.press("Enter")
    expect(row.get_by_role("button", name="Commute — change category of phone-notes.md")).to_be_visible()
    with e2e_server.client() as api:
        doc = next(d for d in api.get("/api/documents").json() if d["filename"] == "phone-notes.md")
    assert doc["category"] == "Commute"
