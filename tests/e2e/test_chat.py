"""Chat in a real browser: a streamed answer whose citation opens the original PDF at the cited page,
the same answer (and memory meter) after a reload, edit and regenerate keeping the attachments, and the
clear notice (with passages still shown) when there is no model."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.e2e.a11y import axe_violations
from tests.e2e.browser import ask, drop_files
from tests.e2e.conftest import ARTIFACTS
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.vault import ingest

PDF_NAME = "photosynthesis-notes.pdf"
QUESTION = "What absorbs the light in photosynthesis?"


@pytest.fixture(scope="module")
def notes(e2e_server: QuireServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    pdf = make_pdf(tmp_path_factory.mktemp("chat") / PDF_NAME, [
        "Plants, algae and some bacteria live on sunlight.",
        "Chlorophyll absorbs red and blue light in the thylakoid membranes of the chloroplast.",
        "The Calvin cycle fixes carbon dioxide into sugar in the stroma.",
    ])
    with e2e_server.client() as api:
        yield ingest(api, {PDF_NAME: pdf.read_bytes()})[PDF_NAME]


def _agent(request: dict[str, Any]) -> Reply:
    """Phase 1 reasons; after Quire's own search the agent searches once more, then answers citing the
    passage from page 2."""
    if request.get("think"):
        return Reply(content="(discarded)", thinking="The notes should say which pigment absorbs light.")
    tool_results = [m["content"] for m in request["messages"] if m["role"] == "tool"]
    if len(tool_results) < 2:
        return Reply(tool_calls=[("search_knowledge_base", {"query": "chlorophyll absorbs light"})])
    number = re.search(r"\[(\d+)\] " + re.escape(PDF_NAME) + r", page 2", tool_results[-1])
    assert number, tool_results[-1]
    return Reply(content=f"**Chlorophyll** absorbs red and blue light [{number.group(1)}].", chunks=4, delay_s=0.05)


def test_answer_streams_with_a_citation_that_opens_the_pdf_at_its_page(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, notes: dict[str, Any]
) -> None:
    fake_ollama.respond_with(_agent)
    page.goto(e2e_server.url + "/chat")
    ask(page, QUESTION)

    expect(page).to_have_url(re.compile(r"/chat/[0-9a-f-]{36}$"))
    turn = page.get_by_test_id("turn")
    chips = turn.get_by_test_id("tool-chip")
    expect(chips.first).to_contain_text("Searched your documents")
    expect(chips.first).to_have_attribute("data-by", "quire")
    expect(chips.last).to_contain_text("Searched “chlorophyll absorbs light”")
    expect(turn.get_by_test_id("reasoning")).to_be_visible()
    citation = turn.get_by_role("button", name=f"Source 1: {PDF_NAME}, page 2")
    expect(citation).to_be_visible()
    expect(turn.get_by_test_id("source-card").first).to_contain_text(PDF_NAME)
    expect(turn).to_have_attribute("data-status", "complete")
    meter = page.get_by_test_id("memory-meter").get_by_role("meter")
    expect(meter).to_be_visible()
    streamed_used = meter.get_attribute("aria-valuenow")

    citation.click()
    viewer = page.get_by_test_id("source-viewer")
    expect(viewer.get_by_test_id("source-passage")).to_contain_text("Chlorophyll absorbs red and blue light")
    # The cited page itself, rendered, with the passage boxed on it.
    in_document = viewer.get_by_test_id("source-in-document")
    expect(in_document.get_by_test_id("pdf-view")).to_have_attribute("data-page", "2")
    expect(in_document.get_by_test_id("pdf-highlight").first).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "viewer-chat-source-light.png"))
    # The source pane passes axe (WCAG A/AA, best practices) in both themes (at this width it covers the
    # dimmed conversation, which tests/e2e/test_accessibility.py checks on its own).
    pane = '[data-testid="source-viewer"]'
    assert axe_violations(page, within=pane) == []
    page.emulate_media(color_scheme="dark")
    assert axe_violations(page, within=pane) == []
    page.screenshot(path=str(ARTIFACTS / "viewer-chat-source-dark.png"))
    page.emulate_media(color_scheme="light")
    original = viewer.get_by_test_id("open-original")
    expect(original).to_have_attribute("href", f"/api/documents/{notes['id']}/file#page=2")
    with page.context.expect_page() as opened:
        original.click()
    pdf_page = opened.value
    expect(pdf_page).to_have_url(re.compile(rf"/api/documents/{notes['id']}/file#page=2$"))
    response = page.request.get(e2e_server.url + f"/api/documents/{notes['id']}/file")
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"].startswith("inline")
    pdf_page.close()

    # The stored transcript renders the same answer, citation included.
    page.reload()
    stored = page.get_by_test_id("turn")
    expect(stored.get_by_role("button", name=f"Source 1: {PDF_NAME}, page 2")).to_be_visible()
    expect(stored.get_by_test_id("tool-chip").last).to_contain_text("Searched “chlorophyll absorbs light”")
    expect(stored).to_contain_text("Chlorophyll absorbs red and blue light")
    # The memory meter comes back from the stored answer, with the figures the stream had.
    expect(page.get_by_test_id("memory-meter").get_by_role("meter")).to_have_attribute("aria-valuenow", streamed_used)


def test_without_the_chat_model_a_notice_explains_it_and_passages_are_still_shown(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, notes: dict[str, Any]
) -> None:
    fake_ollama.models.remove("gemma4:e4b")
    page.goto(e2e_server.url + "/chat")
    notice = page.get_by_test_id("model-notice")
    expect(notice).to_contain_text("isn't installed")
    expect(notice).to_contain_text("ollama pull gemma4:e4b")

    ask(page, "Where does the Calvin cycle happen?")
    turn = page.get_by_test_id("turn")
    expect(turn.get_by_test_id("no-model-answer")).to_contain_text("Answered without the model")
    expect(turn.get_by_test_id("source-card").first).to_contain_text(PDF_NAME)
    expect(turn).to_contain_text("these passages match your question")
    expect(turn.get_by_role("button", name=re.compile(rf"^Source \d: {re.escape(PDF_NAME)}"))).not_to_have_count(0)


def _last_question_sent(fake: FakeOllama) -> str:
    return [m for m in fake.chat_requests[-1]["messages"] if m["role"] == "user"][-1]["content"]


def test_a_question_can_be_edited_and_an_answer_regenerated(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, notes: dict[str, Any]
) -> None:
    answers = iter(range(1, 100))
    fake_ollama.respond_with(lambda request: Reply(content=f"Answer number {next(answers)}"))
    page.goto(e2e_server.url + "/chat")
    page.get_by_label("Files to attach").set_input_files(
        files=[{"name": "stroma.txt", "mimeType": "text/plain", "buffer": b"The Calvin cycle runs in the stroma."}])
    ask(page, "hello there")
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_attribute("data-status", "complete")
    assert "runs in the stroma" in _last_question_sent(fake_ollama)

    # Edit: the attached file is kept (the box is ticked), so the edited question still comes with it.
    turn.get_by_role("button", name="Edit question").click()
    editor = page.get_by_role("textbox", name="Edit your question")
    editor.fill("What is the Calvin cycle?")
    expect(page.get_by_role("checkbox", name=re.compile("Keep the attached files"))).to_be_checked()
    editor.press("Enter")
    expect(turn).to_have_count(1)
    expect(turn).to_contain_text("What is the Calvin cycle?")
    expect(turn).to_have_attribute("data-status", "complete")
    expect(turn).to_contain_text("stroma.txt")
    session_id = page.url.rsplit("/", 1)[-1]
    with e2e_server.client() as api:
        messages = api.get(f"/api/chat/sessions/{session_id}").json()["messages"]
    assert [m["content"] for m in messages if m["role"] == "user"] == ["What is the Calvin cycle?"]
    assert _last_question_sent(fake_ollama).endswith(
        "runs in the stroma.\n</attached_file>\n\nWhat is the Calvin cycle?")

    # Regenerate, after a reload (the browser no longer has the file): the model gets it again.
    page.reload()
    before = page.get_by_test_id("answer").inner_text()
    sent = len(fake_ollama.chat_requests)
    page.get_by_test_id("turn").get_by_role("button", name="Regenerate answer").click()
    expect(page.get_by_test_id("turn")).to_have_count(1)
    expect(page.get_by_test_id("answer")).not_to_have_text(before)
    expect(page.get_by_test_id("turn")).to_have_attribute("data-status", "complete")
    expect(page.get_by_test_id("turn")).to_contain_text("What is the Calvin cycle?")
    expect(page.get_by_test_id("turn")).to_contain_text("stroma.txt")
    assert len(fake_ollama.chat_requests) > sent
    assert "runs in the stroma" in _last_question_sent(fake_ollama)


def test_scope_and_attachments_go_with_the_question_and_stop_ends_the_answer(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, notes: dict[str, Any]
) -> None:
    fake_ollama.respond_with(lambda request: Reply(content="A slow answer. " * 40, chunks=40, delay_s=0.2))
    page.goto(e2e_server.url + "/chat")
    page.get_by_role("button", name="All documents").click()
    page.get_by_role("menuitemcheckbox", name=PDF_NAME).click()
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name=PDF_NAME)).to_be_visible()
    page.get_by_label("Files to attach").set_input_files(
        files=[{"name": "my-summary.txt", "mimeType": "text/plain", "buffer": b"My own summary: RuBisCO fixes CO2."}])
    expect(page.get_by_role("list", name="Attachments")).to_contain_text("my-summary.txt")

    ask(page, "Compare my summary with the notes")
    turn = page.get_by_test_id("turn")
    expect(turn).to_contain_text("my-summary.txt")
    expect(turn.get_by_test_id("answer")).to_contain_text("A slow answer.")
    page.keyboard.press("Escape")  # Esc stops the answer, like the stop button
    expect(turn).to_have_attribute("data-status", "stopped")
    expect(turn).to_contain_text("Stopped")

    session_id = page.url.rsplit("/", 1)[-1]
    with e2e_server.client() as api:
        session = api.get(f"/api/chat/sessions/{session_id}").json()
    assert session["scope"]["document_ids"] == [notes["id"]]
    [question] = [m for m in session["messages"] if m["role"] == "user"]
    assert [a["name"] for a in question["attachments"]] == ["my-summary.txt"]
    sent = [m["content"] for r in fake_ollama.chat_requests for m in r["messages"] if m["role"] == "user"]
    assert any("RuBisCO fixes CO2" in content for content in sent)


def test_conversations_can_be_renamed_and_deleted(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, notes: dict[str, Any]
) -> None:
    with e2e_server.client() as api:
        ids = []
        for question in ("First conversation about cells", "Second conversation about light"):
            with api.stream("POST", "/api/chat", json={"message": question}) as response:
                lines = list(response.iter_lines())  # the whole answer: the turn is stored by then
            ids.append(json.loads(lines[0])["data"]["session_id"])
    page.goto(e2e_server.url + f"/chat/{ids[0]}")
    sessions = page.get_by_role("navigation", name="Conversations")
    expect(page.get_by_role("heading", name="First conversation about cells")).to_be_visible()

    sessions.get_by_role("listitem").filter(has_text="First conversation").hover()
    sessions.get_by_role("button", name="Rename First conversation about cells").click()
    title = sessions.get_by_role("textbox", name="Conversation title")
    title.fill("Cell biology revision")
    title.press("Enter")
    expect(sessions.get_by_role("link", name=re.compile("^Cell biology revision"))).to_be_visible()
    expect(page.get_by_role("heading", name="Cell biology revision")).to_be_visible()

    sessions.get_by_role("listitem").filter(has_text="Cell biology revision").hover()
    sessions.get_by_role("button", name="Delete Cell biology revision").click()
    confirm = page.get_by_role("dialog", name="Delete this conversation?")
    confirm.get_by_role("button", name="Delete conversation").click()
    expect(sessions.get_by_role("link", name=re.compile("^Cell biology revision"))).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/chat$"))
    expect(sessions.get_by_role("link", name=re.compile("^Second conversation about light"))).to_be_visible()
    with e2e_server.client() as api:
        assert api.get(f"/api/chat/sessions/{ids[0]}").status_code == 404


def test_files_dropped_on_the_message_box_go_with_the_question_and_the_stop_button_ends_it(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama
) -> None:
    fake_ollama.respond_with(lambda request: Reply(content="A long answer. " * 40, chunks=40, delay_s=0.2))
    image = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(image, format="PNG")
    page.goto(e2e_server.url + "/chat")
    box = page.get_by_role("textbox", name="Message")
    drop_files(page, box, {"red-square.png": (image.getvalue(), "image/png"),
                           "lab-notes.txt": (b"Lab notes: the sample turned blue at pH 9.", "text/plain")})
    attachments = page.get_by_role("list", name="Attachments")
    expect(attachments).to_contain_text("red-square.png")
    expect(attachments).to_contain_text("lab-notes.txt")

    ask(page, "What colour is the square, and what happened at pH 9?")
    turn = page.get_by_test_id("turn")
    expect(turn.get_by_test_id("answer")).to_contain_text("A long answer.")
    question = [m for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "user"][-1]
    assert len(question["images"]) == 1  # the image went to the model as an image
    assert "the sample turned blue at pH 9" in question["content"]  # the text file, extracted
    page.get_by_role("button", name="Stop answering (Esc)").click()
    expect(turn).to_have_attribute("data-status", "stopped")
    expect(page.get_by_role("list", name="Attachments")).to_have_count(0)  # sent with the question
