"""The Study hub in a real browser against the real backend and the scripted fake model: a quiz generated,
answered (resumed after a reload), scored and exported; a flashcard review session with the next
intervals on the rating buttons, then cards added and edited by hand; a workshop whose lesson is written
while the reader waits, completed up to the recap quiz; a mind map rendered, rearranged (saved), switched
to top-to-bottom and exported as PNG, PDF and Markdown; and the notice when there is no model."""

from __future__ import annotations

import json
import re
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleWatch
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.study import card, generate, mindmap_reply, outline_reply, quiz_reply, study_vault

JOB_URL = re.compile(r"/study/jobs/[^/]+$")


@pytest.fixture(scope="module")
def vault(e2e_server: QuireServer) -> Iterator[dict[str, Any]]:
    """Three small biology documents, ingested through the API."""
    with e2e_server.client() as api:
        yield study_vault(api)


def _job_result(e2e_server: QuireServer, fake: FakeOllama, path: str, body: dict[str, Any], *replies: str) -> str:
    """Generate through the API (the quiz test covers generating from the UI); returns the result id."""
    with e2e_server.client() as api:
        job = generate(api, fake, path, body, *replies)
    assert job["status"] == "succeeded", job
    return str(job["result_id"])


def _answer(page: Page, option: str) -> None:
    question = page.get_by_test_id("question")
    question.get_by_role("radio").filter(has_text=re.compile(rf"^[A-D]?{re.escape(option)}")).click()
    question.get_by_role("button", name="Check answer").click()


# -- quiz -------------------------------------------------------------------------------------------------
def test_a_quiz_is_generated_answered_resumed_and_scored(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any]
) -> None:
    fake_ollama.script(Reply(content=quiz_reply(5), delay_s=0.3))  # slow enough to see the progress view
    page.goto(e2e_server.url + "/study")
    page.get_by_role("link", name=re.compile("^New quiz")).click()
    form = page.get_by_role("form", name="New quiz")
    form.get_by_role("radio", name="Beginner").click()
    form.get_by_role("radiogroup", name="Number of questions").get_by_role("radio", name="5").click()
    form.get_by_role("button", name="Generate quiz").click()

    expect(page).to_have_url(JOB_URL)
    expect(page.get_by_test_id("job-progress")).to_contain_text("Making your quiz")
    expect(page).to_have_url(re.compile(r"/study/quizzes/[0-9a-f-]{36}$"), timeout=30_000)
    quiz_id = page.url.rsplit("/", 1)[-1]
    request = fake_ollama.chat_requests[-1]
    assert request["format"]["properties"]["questions"]["type"] == "array"
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_text("5 questions · Multiple choice and True / false")).to_be_visible()

    page.get_by_role("button", name="Start the quiz").click()
    # quiz_reply: odd questions are multiple choice with option 1 correct, even ones "True" is correct.
    expect(page.get_by_test_id("question")).to_contain_text("Question 1 of 5")
    _answer(page, "option 1.1")
    feedback = page.get_by_test_id("feedback")
    expect(feedback).to_have_attribute("data-correct", "true")
    expect(feedback).to_contain_text("Explanation 1: the material says so.")
    expect(feedback.get_by_test_id("item-sources")).to_contain_text(re.compile(r"(cells|plants|genetics)-\w+\.md"))
    page.keyboard.press("Enter")  # next question

    expect(page.get_by_test_id("question")).to_contain_text("Question 2 of 5")
    page.keyboard.press("2")  # "False", by keyboard
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "false")
    expect(page.get_by_test_id("feedback")).to_contain_text("Not quite — the answer is A: True")

    # A reload mid-quiz: the unfinished attempt is offered again, at the next question.
    page.reload()
    page.get_by_role("button", name="Resume — question 3 of 5").click()
    for option in ("option 3.1", "True", "option 5.1"):
        expect(page.get_by_test_id("question")).to_be_visible()
        _answer(page, option)
        expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "true")
        page.get_by_test_id("feedback").get_by_role("button", name=re.compile("Next question|See results")).click()

    results = page.get_by_test_id("quiz-results")
    expect(results.get_by_test_id("score")).to_have_text("80%")
    expect(results).to_contain_text("4 of 5 correct")
    expect(page.get_by_test_id("review-item")).to_have_count(5)
    expect(page.get_by_test_id("review-item").nth(1)).to_contain_text("Your answer: B) False")
    with e2e_server.client() as api:
        [attempt] = api.get(f"/api/study/quizzes/{quiz_id}/attempts").json()
    assert (attempt["correct"], attempt["total"], attempt["finished_at"] is not None) == (4, 5, True)

    # History and the Markdown export.
    page.get_by_role("button", name="Back to the overview").click()
    expect(page.get_by_test_id("attempt-history")).to_contain_text("80%")
    page.get_by_role("button", name="Export").click()
    with page.expect_download() as download:
        page.get_by_role("link", name=re.compile("^With explanations")).click()
    assert download.value.suggested_filename.endswith("-explanations.md")
    markdown = Path(download.value.path()).read_text(encoding="utf-8")
    assert re.search(r"\*\*Answer:\*\* [A-D]\) option 1\.1\n", markdown)  # options are shuffled
    assert "Explanation 1" in markdown

    # The hub lists it with the best score.
    page.get_by_role("link", name="Study", exact=True).first.click()
    expect(page.get_by_test_id("quiz-card").first).to_contain_text("Best 80%")


def test_without_a_model_the_hub_says_what_to_do_and_nothing_is_started(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any], console: ConsoleWatch
) -> None:
    console.allow(r"status of 503 .*/api/study/decks")  # the browser logs the refused request itself
    fake_ollama.models.remove("gemma4:e4b")
    page.goto(e2e_server.url + "/study/new/deck")
    expect(page.get_by_test_id("model-notice")).to_contain_text("ollama pull gemma4:e4b")
    page.get_by_role("button", name="Generate deck").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("No model to write it with")
    expect(alert).to_contain_text("ollama pull gemma4:e4b")
    expect(page).to_have_url(re.compile(r"/study/new/deck$"))
    assert fake_ollama.chat_requests == []


# -- flashcards -------------------------------------------------------------------------------------------
def test_a_flashcard_review_session_then_cards_added_and_edited(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any]
) -> None:
    cards = json.dumps({"cards": [card(n) for n in range(1, 11)]})
    deck_id = _job_result(e2e_server, fake_ollama, "/api/study/decks", {"scope": vault["scope"], "count": 10}, cards)

    page.goto(e2e_server.url + "/study")
    deck_card = page.locator('[data-testid="deck-card"]').filter(has=page.locator(f'a[href="/study/decks/{deck_id}"]'))
    expect(deck_card).to_contain_text("10 due")
    deck_card.get_by_role("link", name=re.compile("^Review")).click()
    expect(page).to_have_url(re.compile(rf"/study/decks/{deck_id}/review$"))

    flashcard = page.get_by_test_id("flashcard")
    expect(flashcard.get_by_test_id("card-front")).to_have_text("What does part 1 say?")
    expect(page.get_by_test_id("review-remaining")).to_have_text("10 cards left")
    page.keyboard.press("Space")
    expect(flashcard.get_by_test_id("card-back")).to_contain_text("Answer 1.")
    expect(flashcard.get_by_test_id("item-sources")).to_be_visible()
    ratings = page.get_by_role("group", name="Rate your recall")
    # A new card: "again" brings it back in a minute; each button shows its next interval.
    expect(ratings.get_by_role("button", name=re.compile(r"^Again — next review in 1m"))).to_contain_text("1m")
    expect(ratings.get_by_role("button", name=re.compile(r"^Easy — next review in \d+d"))).to_be_visible()
    page.keyboard.press("1")  # again: it comes back at the end of this session

    for n in range(2, 11):
        expect(flashcard.get_by_test_id("card-front")).to_have_text(f"What does part {n} say?")
        flashcard.get_by_role("button", name="Show answer").click()
        ratings.get_by_role("button", name=re.compile("^Easy")).click()
    expect(flashcard.get_by_test_id("card-front")).to_have_text("What does part 1 say?")
    page.keyboard.press("Space")
    page.keyboard.press("4")
    done = page.get_by_test_id("review-done")
    expect(done).to_contain_text("Session complete")
    expect(done).to_contain_text("11 reviews: again 1 · hard 0 · good 0 · easy 10")
    with e2e_server.client() as api:
        deck = api.get(f"/api/study/decks/{deck_id}").json()
    assert deck["due_count"] == 0
    assert all(c["reps"] >= 1 for c in deck["cards"])

    # Cards by hand, then an edit.
    done.get_by_role("link", name="Back to the deck").click()
    page.get_by_role("button", name="Add card").click()
    dialog = page.get_by_role("dialog", name="Add a card")
    dialog.get_by_role("textbox", name="Front").fill("What is ATP?")
    dialog.get_by_role("textbox", name="Back").fill("The cell's energy currency.")
    dialog.get_by_role("textbox", name="Tags (optional)").fill("energy, cells")
    dialog.get_by_role("button", name="Add card").click()
    added = page.get_by_test_id("card-row").filter(has_text="What is ATP?")
    expect(added).to_contain_text("Added by you")
    expect(added).to_contain_text("#energy")
    added.get_by_role("button", name=re.compile("^Edit card")).click()
    editor = page.get_by_role("dialog", name="Edit card")
    editor.get_by_role("textbox", name="Front").fill("What is ATP, in one phrase?")
    editor.get_by_role("button", name="Save card").click()
    expect(page.get_by_test_id("card-row").filter(has_text="What is ATP, in one phrase?")).to_be_visible()
    expect(page.get_by_text("1 due", exact=True)).to_be_visible()

    with page.expect_download() as download:
        page.get_by_role("link", name="Export for Anki").click()
    csv_text = Path(download.value.path()).read_text(encoding="utf-8")
    assert csv_text.startswith("#separator:comma")
    assert "What is ATP, in one phrase?" in csv_text
    with page.expect_download() as package:
        page.get_by_role("link", name="Export .apkg").click()
    assert package.value.suggested_filename.endswith(".apkg")
    with zipfile.ZipFile(package.value.path()) as archive:  # Anki's package: a zip with its SQLite collection
        assert "collection.anki2" in archive.namelist()


# -- workshop ---------------------------------------------------------------------------------------------
LESSON = ("## Introduction\n\nMitochondria are where cells make **ATP**.\n\n"
          "## Core content\n\nGlucose is broken down in steps; each step releases a little energy.\n\n"
          "## Key takeaways\n\n- Respiration releases energy\n\n"
          "## Self-check\n\n1. Where is ATP made?\n**Answer:** In the mitochondria.\n")


def test_a_workshop_lesson_is_written_while_the_reader_waits_and_the_recap_unlocks(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any]
) -> None:
    workshop_id = _job_result(e2e_server, fake_ollama, "/api/study/workshops",
                              {"scope": vault["scope"], "lessons": 3}, outline_reply(3))
    # Lesson 1 streams slowly enough to be read while it is written.
    fake_ollama.script(*(Reply(content=LESSON.replace("Introduction", f"Introduction {n}"),
                               chunks=8 if n == 1 else 3, delay_s=0.5 if n == 1 else 0.3) for n in (1, 2, 3)))

    page.goto(e2e_server.url + f"/study/workshops/{workshop_id}")
    expect(page.get_by_role("heading", level=1, name="Energy and life")).to_be_visible()
    expect(page.get_by_text("Explain photosynthesis")).to_be_visible()
    contents = page.get_by_role("navigation", name="Table of contents").last
    expect(contents).to_contain_text("~15 min")
    expect(page.get_by_text("Complete every lesson to unlock")).to_be_visible()

    page.get_by_role("link", name="Start the first lesson").click()
    lesson = page.get_by_test_id("lesson")
    expect(lesson.get_by_test_id("lesson-writing")).to_be_visible()  # 202 while it is being written
    draft = lesson.get_by_test_id("lesson-draft")  # the text so far, before the lesson is stored
    expect(draft.get_by_role("heading", name="Introduction 1")).to_be_visible(timeout=30_000)
    expect(lesson.get_by_role("heading", name="Self-check")).to_be_visible(timeout=30_000)
    expect(lesson.get_by_test_id("lesson-writing")).to_have_count(0)
    expect(lesson.locator("strong", has_text="ATP")).to_be_visible()  # Markdown rendered
    expect(lesson.get_by_test_id("item-sources")).to_be_visible()
    for n in (1, 2, 3):
        expect(lesson.get_by_role("heading", name=f"Introduction {n}")).to_be_visible(timeout=30_000)
        lesson.get_by_role("button", name="Mark as complete").click()
        expect(lesson.get_by_role("button", name="Completed — undo")).to_be_visible()
        if n < 3:
            lesson.get_by_role("link", name="Next lesson").click()

    # A rewrite: the old text stays until the new one is stored.
    fake_ollama.script(Reply(content=LESSON.replace("Introduction", "A fresh introduction"), delay_s=0.3))
    lesson.get_by_role("button", name="Rewrite").click()
    expect(lesson.get_by_role("heading", name="A fresh introduction")).to_be_visible(timeout=30_000)

    fake_ollama.script(Reply(content=quiz_reply(5)))
    lesson.get_by_role("link", name="Overview").click()
    expect(page.get_by_text("3 of 3 done", exact=True)).to_be_visible()
    page.get_by_role("button", name="Make the recap quiz").click()
    expect(page).to_have_url(re.compile(r"/study/quizzes/[0-9a-f-]{36}$"), timeout=30_000)
    expect(page.get_by_text("Workshop recap")).to_be_visible()


# -- mind map ---------------------------------------------------------------------------------------------
def test_a_mind_map_is_rendered_rearranged_and_exported(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any]
) -> None:
    map_id = _job_result(e2e_server, fake_ollama, "/api/study/mindmaps", {"scope": vault["scope"], "depth": 2},
                         mindmap_reply(4))
    page.goto(e2e_server.url + f"/study/mindmaps/{map_id}")
    canvas = page.get_by_test_id("mindmap-canvas")
    nodes = canvas.locator(".react-flow__node")
    expect(nodes).to_have_count(1 + 4 + 8)
    expect(canvas.locator(".react-flow__edge")).to_have_count(12)
    expect(canvas).to_have_attribute("data-layout", "LR")

    # Drag a branch: the new position is saved.
    branch = nodes.filter(has_text=re.compile(r"^Branch 2$"))
    box = branch.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 60, box["y"] + box["height"] / 2 + 90, steps=8)
    page.mouse.up()
    expect(page.get_by_test_id("layout-save-state")).to_have_attribute("data-state", "saved")
    with e2e_server.client() as api:
        saved = api.get(f"/api/study/mindmaps/{map_id}").json()
    assert list(saved["positions"]) == ["n2"]

    # Selecting a node shows where it comes from.
    nodes.filter(has_text=re.compile(r"^Branch 1$")).click()
    details = page.get_by_test_id("node-details")
    expect(details).to_contain_text("Branch 1")
    expect(details.get_by_test_id("item-sources")).to_contain_text(".md")

    page.get_by_role("radiogroup", name="Layout").get_by_role("radio", name="Top → bottom").click()
    expect(canvas).to_have_attribute("data-layout", "TB")
    expect(page.get_by_test_id("layout-save-state")).to_have_attribute("data-state", "saved")
    with e2e_server.client() as api:
        saved = api.get(f"/api/study/mindmaps/{map_id}").json()
    assert (saved["layout"], saved["positions"]) == ("TB", {})

    # Zoom with the controls and pan by dragging the empty canvas: the view moves, nothing is saved.
    viewport = canvas.locator(".react-flow__viewport")
    shown = viewport.get_attribute("style")
    canvas.get_by_role("button", name=re.compile("zoom in", re.I)).click()
    expect(viewport).not_to_have_attribute("style", shown or "")
    shown = viewport.get_attribute("style")
    frame = canvas.bounding_box()
    assert frame is not None
    page.mouse.move(frame["x"] + 12, frame["y"] + 12)
    page.mouse.down()
    page.mouse.move(frame["x"] + 92, frame["y"] + 52, steps=6)
    page.mouse.up()
    expect(viewport).not_to_have_attribute("style", shown or "")

    # Drag again, then reset: back to the generated left-to-right layout, no saved positions.
    box = nodes.filter(has_text=re.compile(r"^Branch 3$")).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 50, box["y"] + box["height"] / 2 + 40, steps=8)
    page.mouse.up()
    with e2e_server.client() as api:  # saved a moment after the drop (the state already read "saved")
        deadline = time.monotonic() + 10
        while list(api.get(f"/api/study/mindmaps/{map_id}").json()["positions"]) != ["n3"]:
            assert time.monotonic() < deadline, "the dragged position was not saved"
            time.sleep(0.1)
    page.get_by_role("button", name="Reset layout").click()
    expect(canvas).to_have_attribute("data-layout", "LR")
    expect(page.get_by_test_id("layout-save-state")).to_have_attribute("data-state", "saved")
    with e2e_server.client() as api:
        saved = api.get(f"/api/study/mindmaps/{map_id}").json()
    assert (saved["layout"], saved["positions"]) == ("LR", {})

    exported: dict[str, bytes] = {}
    for label, ext in (("PNG image", "png"), ("PDF", "pdf"), ("Markdown outline", "md")):
        page.get_by_role("button", name="Export").click()
        with page.expect_download() as download:
            page.get_by_role("button", name=re.compile(f"^{label}")).click()
        assert download.value.suggested_filename.endswith(f".{ext}")
        exported[ext] = Path(download.value.path()).read_bytes()
        expect(page.get_by_role("status").filter(has_text=f"Exported as {label}")).to_be_visible()
    assert exported["png"].startswith(b"\x89PNG")
    assert len(exported["png"]) > 5_000
    assert exported["pdf"].startswith(b"%PDF")
    outline = exported["md"].decode()
    assert outline.startswith("# Biology\n")
    assert "  - Branch 1.1" in outline
    with e2e_server.client() as api:
        [summary] = [m for m in api.get("/api/study/mindmaps").json() if m["id"] == map_id]
    assert summary["exports"] == 3

    page.get_by_role("radiogroup", name="View").get_by_role("radio", name="Outline").click()
    expect(page.get_by_test_id("mindmap-outline")).to_contain_text("Branch 4.2")
