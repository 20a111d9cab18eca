"""Card kinds over real HTTP: an empty deck filled by hand with front/back, typed-answer and cloze cards
(one card per deletion, a note edited as a whole with its schedule kept), a card made from a passage
that keeps it as its source, refusals of malformed cards, and an `.apkg` export that keeps each kind
(Anki's cloze note type for cloze notes)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import httpx

from tests.api.test_study_anki import open_package
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.vault import ingest

CLOZE = "{{c1::Mitochondria}} make {{c2::ATP::a molecule}} by {{c3::cellular respiration}}."


def test_cards_of_every_kind_in_a_deck_made_by_hand(api: httpx.Client, unique: Any, tmp_path: Path) -> None:
    name = unique("kinds.md")
    doc = ingest(api, {name: b"# Cells\n\nMitochondria make ATP by cellular respiration in the cell."})[name]
    hit = api.get("/api/search", params={"q": "mitochondria respiration", "documents": doc["id"], "k": 1}).json()
    block_id = hit["hits"][0]["block_id"]

    made = api.post("/api/study/decks/manual", json={"title": f"By hand {uuid.uuid4().hex[:6]}"})
    assert made.status_code == 201
    deck = made.json()
    assert (deck["card_count"], deck["purpose"]) == (0, None)
    base = f"/api/study/decks/{deck['id']}"

    basic = api.post(f"{base}/cards", json={"front": "What makes ATP?", "back": "Mitochondria",
                                             "block_ids": [block_id]})
    assert basic.status_code == 201, basic.text
    assert basic.json()["origin"] == "passage"
    assert basic.json()["sources"] == [{"block_id": block_id, "document_id": doc["id"], "filename": name, "page": None}]
    typed = api.post(f"{base}/cards", json={"kind": "typed", "front": "The cell's energy currency?", "back": "ATP"})
    assert typed.json()["kind"] == "typed"
    first = api.post(f"{base}/cards", json={"kind": "cloze", "front": CLOZE, "back": "Extra: inner membrane"}).json()
    assert (first["kind"], first["cloze_n"]) == ("cloze", 1)
    assert first["segments"] == [
        {"text": "Mitochondria", "hidden": True, "hint": None},
        {"text": " make ATP by cellular respiration.", "hidden": False, "hint": None}]
    cards = api.get(base).json()["cards"]
    assert [(c["kind"], c["cloze_n"]) for c in cards] == [("basic", None), ("typed", None), ("cloze", 1),
                                                         ("cloze", 2), ("cloze", 3)]
    assert len({c["note_id"] for c in cards if c["kind"] == "cloze"}) == 1
    assert cards[3]["segments"][1] == {"text": "ATP", "hidden": True, "hint": "a molecule"}

    for bad in ({"kind": "cloze", "front": "No deletion here"}, {"kind": "cloze", "front": "{{c1::}} empty"},
                {"kind": "typed", "front": "Long?", "back": "x" * 301}, {"front": "No back"},
                {"front": "Ghost", "back": "x", "block_ids": [str(uuid.uuid4())]}):
        refused = api.post(f"{base}/cards", json=bad)
        assert refused.status_code in (404, 422), (bad, refused.text)
    assert api.get(base).json()["card_count"] == 5

    # Editing the note: c3 taken out, c4 added; card 1 keeps its schedule.
    api.post(f"{base}/cards/{first['id']}/review", json={"rating": "good"})
    edited = api.patch(f"{base}/cards/{first['id']}", json={
        "front": "{{c1::Mitochondria}} make {{c2::ATP}} in the {{c4::matrix}}."})
    assert edited.status_code == 200, edited.text
    assert edited.json()["reps"] == 1
    cloze_cards = [c for c in api.get(base).json()["cards"] if c["kind"] == "cloze"]
    assert [c["cloze_n"] for c in cloze_cards] == [1, 2, 4]
    assert all(c["front"].endswith("in the {{c4::matrix}}.") for c in cloze_cards)
    assert api.patch(f"{base}/cards/{first['id']}", json={"front": "no deletions"}).status_code == 422

    package = open_package(api.get(f"{base}/export", params={"format": "apkg"}).content, tmp_path)
    models = {str(model["id"]): model for model in package["models"].values()}
    by_model = {models[str(note["mid"])]["name"]: note for note in package["notes"]}
    assert set(by_model) == {"Quire flashcard", "Quire typed answer", "Quire cloze"}
    cloze_model = next(m for m in models.values() if m["name"] == "Quire cloze")
    assert cloze_model["type"] == 1  # Anki's cloze note type
    assert [f["name"] for f in cloze_model["flds"]][:2] == ["Text", "Back Extra"]
    assert "{{cloze:Text}}" in cloze_model["tmpls"][0]["qfmt"]
    assert by_model["Quire cloze"]["fields"][0] == "{{c1::Mitochondria}} make {{c2::ATP}} in the {{c4::matrix}}."
    typed_model = next(m for m in models.values() if m["name"] == "Quire typed answer")
    assert "{{type:Back}}" in typed_model["tmpls"][0]["qfmt"]
    assert by_model["Quire flashcard"]["fields"][2] == name  # its source
    assert len(package["notes"]) == 3
    assert len(package["cards"]) == 5  # the cloze note's three deletions are three Anki cards


def test_the_model_drafts_a_card_from_a_passage_and_nothing_is_stored(
        api: httpx.Client, fake_ollama: FakeOllama, unique: Any) -> None:
    name = unique("draft.md")
    doc = ingest(api, {name: b"# Plants\n\nChloroplasts capture light energy and store it in glucose."})[name]
    block_id = api.get("/api/search", params={"q": "chloroplasts", "documents": doc["id"], "k": 1}).json()["hits"][0][
        "block_id"]
    decks_before = api.get("/api/study/decks").json()
    # The first answer has no deletion: asked again, naming the problem; the second one is used.
    fake_ollama.script(Reply(content=json.dumps({"front": "Chloroplasts capture light.", "back": ""})),
                       Reply(content=json.dumps({"front": "{{c1::Chloroplasts}} capture {{c2::light}} energy.",
                                                 "back": "Stored in glucose."})))
    draft = api.post("/api/study/drafts/card", json={"block_id": block_id, "kind": "cloze"})
    assert draft.status_code == 200, draft.text
    body = draft.json()
    assert (body["kind"], body["back"]) == ("cloze", "Stored in glucose.")
    assert body["front"] == "{{c1::Chloroplasts}} capture {{c2::light}} energy."
    assert body["sources"] == [{"block_id": block_id, "document_id": doc["id"], "filename": name, "page": None}]
    prompt = fake_ollama.chat_requests[-2]["messages"][0]["content"]
    assert "Chloroplasts capture light energy and store it in glucose." in prompt
    assert "needs at least one deletion" in fake_ollama.chat_requests[-1]["messages"][-1]["content"]
    assert api.get("/api/study/decks").json() == decks_before

    assert api.post("/api/study/drafts/card", json={"block_id": str(uuid.uuid4())}).status_code == 404
    fake_ollama.models = []
    missing = api.post("/api/study/drafts/card", json={"block_id": block_id})
    assert missing.status_code == 503
    assert missing.json()["error"]["code"] == "model_unavailable"
