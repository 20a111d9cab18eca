"""Items notice when their source changes, over real HTTP: a new version of a document that changes one
cited passage and removes another flags exactly the cards and questions citing those two (with the old
and new passage), changes nothing by itself, and each choice — update (with the model's draft, edited),
keep, retire — does what it says and clears the flag."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx

from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.study import generate
from tests.support.vault import ingest

SECTIONS = {
    "Energy": "Mitochondria release energy from glucose by cellular respiration and make ATP for the cell.",
    "Proteins": "Ribosomes translate messenger RNA into proteins, reading three bases at a time.",
    "Membrane": "The cell membrane is a phospholipid bilayer that controls what enters the cell.",
}


def document(sections: dict[str, str]) -> bytes:
    return ("# Cells\n\n" + "\n\n".join(f"## {title}\n\n{text}" for title, text in sections.items())).encode()


def content(cards: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(c["id"], c["front"], c["back"], c["sources"], c["due"]) for c in cards]


def test_a_new_version_flags_exactly_the_items_citing_changed_passages(
        api: httpx.Client, fake_ollama: FakeOllama, unique: Any) -> None:
    name, category = unique("changes.md"), f"changes-{uuid.uuid4().hex[:6]}"
    doc = ingest(api, {name: document(SECTIONS)}, category=category)[name]
    scope = {"document_ids": [doc["id"]]}
    cards = [{"front": f"About {title}?", "back": text[:40], "source_block_ids": [f"P{i}"]}
             for i, (title, text) in enumerate(SECTIONS.items(), start=1)]
    deck = api.get(generate(api, fake_ollama, "/api/study/decks", {"scope": scope, "count": 10},
                            json.dumps({"cards": cards}))["result_url"]).json()
    questions = [{"type": "true_false", "question": f"Statement about {title}.", "options": ["True", "False"],
                  "correct_index": 0, "explanation": "The document says so.", "source_block_ids": [f"P{i}"]}
                 for i, title in enumerate(list(SECTIONS)[:2], start=1)]
    quiz = api.get(generate(api, fake_ollama, "/api/study/quizzes", {"scope": scope, "count": 5},
                            json.dumps({"questions": questions}))["result_url"]).json()
    card_by_title = {c["front"].removeprefix("About ").rstrip("?"): c for c in deck["cards"]}
    question_by_title = {q["question"].removeprefix("Statement about ").rstrip("."): q for q in quiz["questions"]}
    assert api.get("/api/study/changes").json()["changes"] == [] or all(
        c["document_id"] != doc["id"] for c in api.get("/api/study/changes").json()["changes"])

    # Version 2: one fact of "Proteins" changed, "Membrane" gone, "Energy" word for word the same.
    changed = dict(SECTIONS, Proteins=SECTIONS["Proteins"].replace("three bases", "one codon of three bases"))
    del changed["Membrane"]
    ingest(api, {name: document(changed)}, category=category, on_conflict="replace")

    flags = [c for c in api.get("/api/study/changes").json()["changes"] if c["document_id"] == doc["id"]]
    flagged = {(c["item_kind"], c["item_id"]): c for c in flags}
    assert set(flagged) == {("card", card_by_title["Proteins"]["id"]), ("card", card_by_title["Membrane"]["id"]),
                            ("question", question_by_title["Proteins"]["id"])}
    protein_card = flagged[("card", card_by_title["Proteins"]["id"])]
    assert protein_card["status"] == "changed"
    assert "reading three bases" in protein_card["old"]["text"]
    assert "one codon of three bases" in protein_card["new"]["text"]
    assert protein_card["item"] == {"front": "About Proteins?", "back": card_by_title["Proteins"]["back"]}
    membrane = flagged[("card", card_by_title["Membrane"]["id"])]
    assert (membrane["status"], membrane["new"]) == ("removed", None)
    assert "phospholipid bilayer" in membrane["old"]["text"]
    # Nothing changed by itself.
    assert content(api.get(f"/api/study/decks/{deck['id']}").json()["cards"]) == content(deck["cards"])

    # Update the protein card: the model drafts, the user edits, the card cites the new passage.
    ref = {"item_kind": "card", "item_id": protein_card["item_id"], "block_id": protein_card["block_id"]}
    fake_ollama.script(Reply(content=json.dumps({"front": "How do ribosomes read mRNA?",
                                                 "back": "One codon of three bases."})))
    draft = api.post("/api/study/changes/draft", json=ref)
    assert draft.status_code == 200, draft.text
    assert draft.json()["card"] == {"front": "How do ribosomes read mRNA?", "back": "One codon of three bases."}
    prompt = fake_ollama.chat_requests[-1]["messages"][0]["content"]
    assert "reading three bases" in prompt
    assert "one codon of three bases" in prompt
    done = api.post("/api/study/changes/resolve", json={**ref, "action": "update", "card": {
        "front": "How do ribosomes read mRNA?", "back": "One codon (three bases) at a time."}})
    assert done.status_code == 204, done.text
    # Keep the question (it now cites the new passage); retire the membrane card.
    question = flagged[("question", question_by_title["Proteins"]["id"])]
    assert api.post("/api/study/changes/resolve", json={
        "item_kind": "question", "item_id": question["item_id"], "block_id": question["block_id"],
        "action": "keep"}).status_code == 204
    assert api.post("/api/study/changes/resolve", json={
        "item_kind": "card", "item_id": membrane["item_id"], "block_id": membrane["block_id"],
        "action": "retire"}).status_code == 204

    assert [c for c in api.get("/api/study/changes").json()["changes"] if c["document_id"] == doc["id"]] == []
    after = {c["id"]: c for c in api.get(f"/api/study/decks/{deck['id']}").json()["cards"]}
    assert membrane["item_id"] not in after
    updated = after[protein_card["item_id"]]
    assert (updated["front"], updated["back"]) == ("How do ribosomes read mRNA?", "One codon (three bases) at a time.")
    assert updated["sources"][0]["block_id"] == protein_card["new"]["block_id"]
    assert content([after[card_by_title["Energy"]["id"]]]) == content([card_by_title["Energy"]])
    kept = next(q for q in api.get(f"/api/study/quizzes/{quiz['id']}").json()["questions"]
                if q["id"] == question["item_id"])
    assert kept["question"] == "Statement about Proteins."
    assert kept["sources"][0]["block_id"] == question["new"]["block_id"]
    # A choice is made once: the flag is gone, so another answer to it is a 404.
    assert api.post("/api/study/changes/resolve", json={**ref, "action": "keep"}).status_code == 404
