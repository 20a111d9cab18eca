"""Document identity in a real browser (issue #11): the same file name in two categories is two documents;
dropping a name again into the same category asks what to do; Replace keeps the previous version, which
the Versions dialog restores; Move to trash hides a document from search, and restoring it from the Trash
view makes it searchable again without ingesting anything."""

from __future__ import annotations

import psycopg
from playwright.sync_api import Locator, Page, expect

from tests.e2e.browser import drop_files
from tests.e2e.conftest import ConsoleWatch
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer

DROP_ZONE = "Drop files to add them to your library"
NAME = "Lecture01.md"
PHYSICS_V1 = b"# Lecture 1\n\nThe photoelectric effect shows that light arrives in quanta called photons.\n"
CHEMISTRY = b"# Lecture 1\n\nCovalent bonds share electron pairs between atoms; ionic bonds transfer them.\n"
# The browser logs the 409 that asks about a name conflict: that answer is the protocol, not a failure.
CONFLICT_409 = r"status of 409 \(Conflict\) \(http://[^)]+/api/documents\)$"
PHYSICS_V2 = b"# Lecture 1\n\nBernoulli's principle relates pressure and velocity in a flowing fluid.\n"


def _rows(page: Page, filename: str) -> Locator:
    return page.locator(f'[data-testid="document-row"][data-filename="{filename}"]')


def _drop(page: Page, category: str, content: bytes) -> None:
    page.get_by_label("Category for new documents").fill(category)
    drop_files(page, page.get_by_role("group", name=DROP_ZONE), {NAME: (content, "text/markdown")})


def _documents(server: QuireServer, **params: str) -> list[dict]:
    with server.client() as api:
        return api.get("/api/documents", params=params).json()


def _found_by_search(server: QuireServer, word: str) -> set[str]:
    with server.client() as api:
        hits = api.get("/api/search", params={"q": word, "mode": "sparse", "k": 50}).json()["hits"]
    return {hit["document_id"] for hit in hits}


def _ingestion_work(server: QuireServer, fake_ollama: FakeOllama) -> tuple[int, int]:
    """Ingestion steps run so far and embedding requests made: both stay put when nothing is re-ingested."""
    with psycopg.connect(server.database_url) as conn:
        row = conn.execute("SELECT count(*) FROM ingest_step_runs").fetchone()
    assert row is not None
    return int(row[0]), len(fake_ollama.embed_requests)


def test_same_name_conflict_replace_versions_trash_and_restore(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, console: ConsoleWatch
) -> None:
    console.allow(CONFLICT_409)
    page.goto(e2e_server.url + "/library")
    expect(page.get_by_role("heading", name="Library", exact=True)).to_be_visible()

    # The same file name in two categories: two documents, nothing asked, nothing replaced.
    _drop(page, "Physics", PHYSICS_V1)
    expect(_rows(page, NAME)).to_have_count(1, timeout=30_000)
    expect(_rows(page, NAME).first).to_have_attribute("data-status", "ready", timeout=30_000)
    _drop(page, "Chemistry", CHEMISTRY)
    expect(_rows(page, NAME)).to_have_count(2, timeout=30_000)
    expect(page.get_by_role("dialog")).to_have_count(0)
    for row in (_rows(page, NAME).filter(has_text="Physics"), _rows(page, NAME).filter(has_text="Chemistry")):
        expect(row).to_have_attribute("data-status", "ready", timeout=30_000)
    docs = {d["category"]: d for d in _documents(e2e_server) if d["filename"] == NAME}
    assert set(docs) == {"Physics", "Chemistry"}
    assert docs["Physics"]["id"] != docs["Chemistry"]["id"]
    physics_id = docs["Physics"]["id"]

    # Again into Physics with other content: the choice appears, showing the document already there.
    _drop(page, "Physics", PHYSICS_V2)
    dialog = page.get_by_role("dialog", name=f"“{NAME}” is already in “Physics”")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("conflict")).to_contain_text("In your library")
    expect(dialog.get_by_role("button", name="Replace")).to_be_focused()
    dialog.get_by_role("button", name="Replace").click()
    expect(dialog).to_have_count(0)
    physics_row = _rows(page, NAME).filter(has_text="Physics")
    expect(_rows(page, NAME)).to_have_count(2)  # a new version, not a new document
    runs = page.locator(f'[data-testid="ingest-item"][data-filename="{NAME}"]')
    expect(runs).to_have_count(3, timeout=30_000)  # the two first drops and the replacement
    expect(runs.first).to_have_attribute("data-status", "ready", timeout=30_000)
    replaced = next(d for d in _documents(e2e_server) if d["id"] == physics_id)
    assert (replaced["current_version"], replaced["versions"], replaced["category"]) == (2, 2, "Physics")
    assert physics_id in _found_by_search(e2e_server, "bernoulli")

    # Versions: the previous one is listed and restored.
    physics_row.get_by_role("button", name=f"More actions for {NAME}").click()
    page.get_by_role("menuitem", name="Versions").click()
    versions = page.get_by_role("dialog", name=f"Versions of “{NAME}”")
    expect(versions.get_by_test_id("version-row")).to_have_count(2)
    expect(versions.locator('[data-testid="version-row"][data-current="true"]')).to_have_attribute("data-version", "2")
    versions.get_by_role("button", name="Restore version 1").click()
    expect(versions.locator('[data-testid="version-row"][data-current="true"]')).to_have_attribute(
        "data-version", "1")
    expect(versions.get_by_role("link", name="Download version 2")).to_be_visible()
    versions.get_by_role("button", name="Done").click()
    with e2e_server.client() as api:
        assert api.get(f"/api/documents/{physics_id}/file").content == PHYSICS_V1
    assert physics_id in _found_by_search(e2e_server, "photoelectric")
    assert physics_id not in _found_by_search(e2e_server, "bernoulli")

    # Move to trash: gone from the library and from search at once.
    physics_row.get_by_role("button", name=f"More actions for {NAME}").click()
    page.get_by_role("menuitem", name="Move to trash").click()
    expect(_rows(page, NAME)).to_have_count(1)
    expect(_rows(page, NAME)).to_contain_text("Chemistry")
    assert physics_id not in _found_by_search(e2e_server, "photoelectric")
    work = _ingestion_work(e2e_server, fake_ollama)

    # Trash → Restore: back in the library and searchable, without ingesting anything again.
    page.get_by_role("link", name="Trash").click()
    trash_row = page.locator(f'[data-testid="trash-row"][data-filename="{NAME}"]')
    expect(trash_row).to_contain_text("Physics")
    trash_row.get_by_role("button", name=f"Restore {NAME}").click()
    expect(trash_row).to_have_count(0)
    expect(page.get_by_text("The trash is empty")).to_be_visible()
    page.get_by_role("link", name="Documents").click()
    expect(_rows(page, NAME)).to_have_count(2)
    expect(_rows(page, NAME).filter(has_text="Physics")).to_have_attribute("data-status", "ready")
    assert physics_id in _found_by_search(e2e_server, "photoelectric")
    assert _ingestion_work(e2e_server, fake_ollama) == work


def test_keep_both_with_apply_to_all_and_refusals_survive_a_reload(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, console: ConsoleWatch
) -> None:
    console.allow(CONFLICT_409)
    page.goto(e2e_server.url + "/library")
    page.get_by_label("Category for new documents").fill("History")
    first = {"rome.md": (b"# Rome\n\nThe republic fell in 27 BC.", "text/markdown"),
             "athens.md": (b"# Athens\n\nDemocracy began around 508 BC.", "text/markdown")}
    drop_files(page, page.get_by_role("group", name=DROP_ZONE), first)
    for name in first:
        expect(_rows(page, name)).to_have_attribute("data-status", "ready", timeout=30_000)

    again = {"rome.md": (b"# Rome\n\nAugustus became the first emperor.", "text/markdown"),
             "athens.md": (b"# Athens\n\nPericles led Athens in its golden age.", "text/markdown"),
             "sparta.md": (b"# Sparta\n\nA militarised society in the Peloponnese.", "text/markdown"),
             "photo.heic": (b"not an image Quire reads", "image/heic")}
    drop_files(page, page.get_by_role("group", name=DROP_ZONE), again)
    dialog = page.get_by_role("dialog", name="is already in “History”")
    expect(dialog).to_contain_text("Conflict 1 of 2")
    dialog.get_by_label("Apply to all 2 conflicts left in this drop").check()
    dialog.get_by_role("button", name="Keep both").click()
    expect(dialog).to_have_count(0)
    for name in ("rome (2).md", "athens (2).md", "sparta.md", "rome.md", "athens.md"):
        expect(_rows(page, name)).to_have_attribute("data-status", "ready", timeout=30_000)

    # The refused file is listed with its reason, still after a reload, until dismissed.
    refusal = page.locator('[data-testid="refusal"][data-filename="photo.heic"]')
    expect(refusal).to_be_visible()
    page.reload()
    expect(refusal).to_be_visible()
    # The list drops it at once; the server is told meanwhile.
    with page.expect_response(lambda response: response.request.method == "DELETE"
                              and "/api/refusals/" in response.url) as dismissed:
        refusal.get_by_role("button", name="Dismiss photo.heic").click()
    expect(refusal).to_have_count(0)
    assert dismissed.value.ok
    with e2e_server.client() as api:
        assert "photo.heic" not in {r["filename"] for r in api.get("/api/refusals").json()["refusals"]}


def test_a_failed_document_is_retried_from_the_library(page: Page, e2e_server: QuireServer) -> None:
    page.goto(e2e_server.url + "/library")
    drop_files(page, page.get_by_role("group", name=DROP_ZONE), {"blank.md": (b"  \n\n  \n", "text/markdown")})
    row = _rows(page, "blank.md")
    expect(row).to_have_attribute("data-status", "failed", timeout=30_000)
    expect(row).to_contain_text("No text could be found in this file.")
    before = next(d for d in _documents(e2e_server) if d["filename"] == "blank.md")

    row.get_by_role("button", name="Retry blank.md").click()
    # The retry's run shows like an upload's and ends where the stored original leads: failed again.
    entries = page.get_by_test_id("ingest-entry")
    expect(entries).to_have_count(2)  # the upload, and the retry's run above it
    expect(entries.first).to_have_attribute("data-run-status", "SUCCESS", timeout=30_000)
    expect(entries.first.get_by_test_id("ingest-item")).to_have_attribute("data-status", "failed")
    expect(entries.first).to_contain_text("No text could be found in this file.")
    after = next(d for d in _documents(e2e_server) if d["filename"] == "blank.md")
    assert after["id"] == before["id"]
    assert after["last_workflow_id"] != before["last_workflow_id"]  # ingested again, same document
