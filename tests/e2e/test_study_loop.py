"""The study loop in a real browser against the real backend and the scripted fake model.

The scenario: an exam plan over a document; a quiz taken in the browser with two wrong answers; the two
mistake cards are due and in today's plan; reviewing them updates the plan. Then a new version of the
document changes one cited passage, and exactly the items citing it are flagged; one is updated with
the model's draft. Also: a cloze card reviewed (its gap, then the answer). Screenshots of each step go
to test-artifacts/ (the docs' pictures come from there)."""

from __future__ import annotations

import json
import re
import uuid
from datetime import date, timedelta
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.study import generate
from tests.support.vault import ingest

SECTIONS = {
    "Energy": "Mitochondria release energy from glucose by cellular respiration and make ATP for the cell.",
    "Proteins": "Ribosomes translate messenger RNA into proteins, reading three bases at a time.",
    "Membrane": "The cell membrane is a phospholipid bilayer that controls what enters the cell.",
}
QUESTIONS = [
    {"type": "mcq", "question": "What do mitochondria make?", "options": ["ATP", "DNA", "Starch", "Light"],
     "correct_index": 0, "explanation": "Mitochondria make ATP by respiration.", "source_block_ids": ["P1"]},
    {"type": "mcq", "question": "How many bases do ribosomes read at a time?",
     "options": ["Three", "One", "Two", "Four"], "correct_index": 0,
     "explanation": "They read three bases, one codon, at a time.", "source_block_ids": ["P2"]},
    {"type": "true_false", "question": "The membrane is a phospholipid bilayer.", "options": ["True", "False"],
     "correct_index": 0, "explanation": "The document says so.", "source_block_ids": ["P3"]},
]


def document(sections: dict[str, str]) -> bytes:
    return ("# Cells\n\n" + "\n\n".join(f"## {title}\n\n{text}" for title, text in sections.items())).encode()


@pytest.fixture(scope="module")
def vault(e2e_server: QuireServer) -> dict[str, Any]:
    name, category = f"cells-{uuid.uuid4().hex[:6]}.md", "Biology"
    with e2e_server.client() as api:
        doc = ingest(api, {name: document(SECTIONS)}, category=category)[name]
    return {"name": name, "category": category, "id": doc["id"], "scope": {"document_ids": [doc["id"]]}}


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"study-{name}.png"))


def answer(page: Page, option: str) -> None:
    question = page.get_by_test_id("question")
    question.get_by_role("radio").filter(has_text=re.compile(rf"^[A-D]?{re.escape(option)}$")).click()
    question.get_by_role("button", name="Check answer").click()


def test_mistakes_become_cards_reviewing_them_updates_the_plan_and_a_changed_passage_flags_its_items(
        page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any]) -> None:
    with e2e_server.client() as api:
        quiz_job = generate(api, fake_ollama, "/api/study/quizzes", {"scope": vault["scope"], "count": 5},
                            json.dumps({"questions": QUESTIONS}))
        quiz_id = quiz_job["result_id"]
        cards = [{"front": f"What does the part on {title.lower()} say?", "back": text,
                  "source_block_ids": [f"P{i}"]} for i, (title, text) in enumerate(SECTIONS.items(), start=1)]
        deck_id = generate(api, fake_ollama, "/api/study/decks", {"scope": vault["scope"], "count": 10},
                           json.dumps({"cards": cards}))["result_id"]
        for card in api.get(f"/api/study/decks/{deck_id}").json()["cards"]:  # learnt long enough ago: not due
            api.post(f"/api/study/decks/{deck_id}/cards/{card['id']}/review", json={"rating": "easy"})
        plan = api.post("/api/study/plans", json={"exam_date": (date.today() + timedelta(days=12)).isoformat(),
                                                  "title": "Biology final",
                                                  "scope": {"document_ids": [vault["id"]]}}).json()

    # The plan before the quiz: the deck's three cards are learnt, nothing is due today.
    page.goto(f"{e2e_server.url}/study/plans/{plan['id']}")
    today = page.get_by_test_id("plan-today")
    expect(today).to_have_attribute("data-status", "on_track")
    expect(page.get_by_test_id("plan-reviews-due")).to_have_text("0")
    expect(page.get_by_test_id("plan-new-due")).to_have_text("0")

    # The quiz in the browser: two wrong answers (one marked "Not sure" as well), one right.
    page.goto(f"{e2e_server.url}/study/quizzes/{quiz_id}")
    page.get_by_role("button", name="Start the quiz").click()
    answer(page, "DNA")
    feedback = page.get_by_test_id("feedback")
    expect(feedback).to_have_attribute("data-correct", "false")
    expect(page.get_by_test_id("mistake-card")).to_contain_text("Mistakes deck")
    shot(page, "mistake")
    page.keyboard.press("Enter")
    page.get_by_test_id("question").get_by_text("Not sure").click()
    answer(page, "One")
    expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "false")
    page.keyboard.press("Enter")
    answer(page, "True")
    expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "true")
    expect(page.get_by_test_id("mistake-card")).to_have_count(0)
    page.get_by_role("button", name="See results").click()
    expect(page.get_by_test_id("quiz-results")).to_contain_text("1 of 3 correct")

    # Two cards due in the Mistakes deck, and in today's plan (with a weak-spots quiz).
    page.goto(f"{e2e_server.url}/study")
    mistakes = page.get_by_test_id("deck-card").filter(has_text="Mistakes")
    expect(mistakes).to_contain_text("2 due")
    expect(page.get_by_role("button", name=re.compile(r"Practise my weak spots \(2 passages\)"))).to_be_enabled()
    page.get_by_test_id("plan-card").filter(has_text="Biology final").get_by_role("link").first.click()
    expect(page.get_by_test_id("plan-new-due")).to_have_text("2")
    expect(page.get_by_test_id("plan-done")).to_have_text("3")  # the deck's cards were learnt today
    expect(page.get_by_test_id("plan-quiz")).to_contain_text("Practise your weak spots")
    shot(page, "plan-before")

    # Review them from the plan: front, answer with its source, rating.
    page.get_by_role("link", name="Review today's 2 cards").click()
    fronts = []
    for left in ("2 cards left", "1 card left"):
        expect(page.get_by_test_id("review-remaining")).to_have_text(left)
        card = page.get_by_test_id("flashcard")
        expect(card).to_have_attribute("data-flipped", "false")
        fronts.append(card.get_by_test_id("card-front").inner_text())
        page.keyboard.press(" ")
        expect(card.get_by_test_id("card-back")).to_contain_text("From the source:")
        expect(card.get_by_test_id("item-sources")).to_contain_text(vault["name"])
        page.get_by_role("button", name=re.compile(r"^Easy")).click()
    assert sorted(fronts) == sorted(q["question"] for q in QUESTIONS[:2])
    expect(page.get_by_test_id("review-done")).to_contain_text("Session complete")

    # The plan has moved: nothing left today, five reviews done, more remembered now.
    page.get_by_role("link", name="Back to the plan").click()
    expect(page.get_by_test_id("plan-new-due")).to_have_text("0")
    expect(page.get_by_test_id("plan-reviews-due")).to_have_text("0")
    expect(page.get_by_test_id("plan-done")).to_have_text("5")
    expect(page.get_by_role("link", name=re.compile("Review today's"))).to_have_count(0)
    shot(page, "plan")

    # A new version changes the "Proteins" passage only: exactly the items citing it are flagged.
    changed = dict(SECTIONS, Proteins=SECTIONS["Proteins"].replace("three bases", "one codon of three bases"))
    with e2e_server.client() as api:
        ingest(api, {vault["name"]: document(changed)}, category=vault["category"], on_conflict="replace")
        deck = api.get(f"/api/study/decks/{deck_id}").json()
        mistakes_deck = next(d for d in api.get("/api/study/decks").json() if d["purpose"] == "mistakes")
        mistake_cards = api.get(f"/api/study/decks/{mistakes_deck['id']}").json()["cards"]
        quiz = api.get(f"/api/study/quizzes/{quiz_id}").json()
    proteins = quiz["questions"][1]["sources"][0]["block_id"]
    citing = {item["id"] for item in deck["cards"] + mistake_cards + quiz["questions"]
              if any(source["block_id"] == proteins for source in item["sources"])}
    assert len(citing) == 3  # the deck's card, the question, and the card the missed question became
    page.goto(f"{e2e_server.url}/study")
    flags = page.get_by_test_id("source-change")
    expect(flags).to_have_count(3)
    assert {flags.nth(i).get_attribute("data-item") for i in range(3)} == citing
    expect(flags.first).to_contain_text("reading three bases")
    expect(flags.first).to_contain_text("one codon of three bases")
    page.get_by_test_id("source-changes").scroll_into_view_if_needed()
    shot(page, "source-changed")

    # Update the deck's card with the model's draft, edited; keep the others.
    deck_card = next(c for c in deck["cards"] if c["id"] in citing)
    row = page.locator(f'[data-testid="source-change"][data-item="{deck_card["id"]}"]')
    row.get_by_role("button", name="Update…").click()
    fake_ollama.script(Reply(content=json.dumps({"front": "How do ribosomes read mRNA?",
                                                 "back": "One codon of three bases at a time."})))
    dialog = page.get_by_test_id("update-item")
    dialog.get_by_role("button", name="Draft with the model").click()
    expect(dialog.get_by_label("Front")).to_have_value("How do ribosomes read mRNA?")
    dialog.get_by_label("Back").fill("One codon (three bases) at a time.")
    page.get_by_role("button", name="Save update").click()
    expect(flags).to_have_count(2)
    for left in (1, 0):  # one at a time: a click lands on the row the list shows once the last one is gone
        flags.first.get_by_role("button", name="Keep as it is").click()
        expect(flags).to_have_count(left)
    expect(page.get_by_test_id("source-changes")).to_have_count(0)
    with e2e_server.client() as api:
        updated = next(c for c in api.get(f"/api/study/decks/{deck_id}").json()["cards"] if c["id"] == deck_card["id"])
    assert (updated["front"], updated["back"]) == ("How do ribosomes read mRNA?", "One codon (three bases) at a time.")


def test_a_cloze_card_is_reviewed_gap_first(page: Page, e2e_server: QuireServer, vault: dict[str, Any]) -> None:
    with e2e_server.client() as api:
        deck = api.post("/api/study/decks/manual", json={"title": "Cloze practice"}).json()
        api.post(f"/api/study/decks/{deck['id']}/cards", json={
            "kind": "cloze", "front": "{{c1::Mitochondria}} make {{c2::ATP::a molecule}} by cellular respiration.",
            "back": "In the inner membrane."})
    page.goto(f"{e2e_server.url}/study/decks/{deck['id']}/review")
    card = page.get_by_test_id("flashcard")
    expect(card).to_have_attribute("data-kind", "cloze")
    expect(card.get_by_test_id("cloze-gap")).to_have_text("[…]")
    expect(card.get_by_test_id("card-front")).to_contain_text("make ATP by")
    page.keyboard.press(" ")
    expect(card.get_by_test_id("cloze-answer")).to_have_text("Mitochondria")
    expect(card.get_by_test_id("card-back")).to_contain_text("In the inner membrane.")
    shot(page, "cloze")
    page.get_by_role("button", name=re.compile(r"^Good")).click()
    expect(card.get_by_test_id("cloze-gap")).to_have_text("[a molecule]")
