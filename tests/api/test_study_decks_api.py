"""Flashcard decks over real HTTP: generation with valid, partly invalid, wrapped and garbage answers;
manual cards and edits; due cards and FSRS reviews with the preview of every rating; the Anki CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import httpx
import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.study import card, generate, study_vault


@pytest.fixture(scope="module")
def vault(quire: QuireServer) -> dict[str, Any]:
    with quire.client() as client:
        return study_vault(client, ("cells", "plants"))


def _fenced_array(n: int) -> str:
    return "Here are your cards!\n```json\n" + json.dumps([card(i) for i in range(1, n + 1)]) + "\n```"


@pytest.mark.parametrize(("reply", "expected"), [
    (json.dumps({"cards": [card(i) for i in range(1, 13)]}), 10),                       # valid: cut to count
    (json.dumps({"cards": [card(1), {"front": "x", "back": "y"}, {"front": "No back?"}, card(2), card(2),
                           {"front": "Fine front", "back": "Fine back", "tags": "not-a-list"}]}), 2),  # partly bad
    (_fenced_array(3), 3),                                                                 # wrapped, bare array
    ("Flashcards are a great way to study!", None),                                       # garbage
])
def test_deck_generation_answers(api: httpx.Client, fake_ollama: FakeOllama, vault: dict[str, Any],
                                 reply: str, expected: int | None) -> None:
    job = generate(api, fake_ollama, "/api/study/decks", {"scope": vault["scope"], "count": 10}, reply)
    assert fake_ollama.chat_requests[0]["format"]["properties"]["cards"]["type"] == "array"
    if expected is None:
        assert job["status"] == "failed"
        assert job["error"]["code"] == "generation_failed"
        return
    deck = api.get(job["result_url"]).json()
    assert deck["card_count"] == expected == len(deck["cards"])
    assert deck["due_count"] == expected
    assert deck["new_count"] == expected
    assert all(c["sources"][0]["filename"] in vault["names"] and c["origin"] == "generated" for c in deck["cards"])
    assert deck["title"].startswith("Deck: ")


def test_cards_by_hand_reviews_and_the_anki_export(api: httpx.Client, fake_ollama: FakeOllama,
                                                   vault: dict[str, Any]) -> None:
    job = generate(api, fake_ollama, "/api/study/decks", {"scope": vault["scope"], "count": 10},
                   json.dumps({"cards": [card(1), card(2)]}))
    deck_id = job["result_id"]
    base = f"/api/study/decks/{deck_id}"
    added = api.post(f"{base}/cards", json={"front": 'Say "hi", please', "back": "Line one\nline two",
                                             "tags": ["manual card"]})
    assert added.status_code == 201
    assert added.json()["origin"] == "manual"
    assert added.json()["position"] == 3
    edited = api.patch(f"{base}/cards/{added.json()['id']}", json={"back": "Hello, with a comma"})
    assert edited.json()["back"] == "Hello, with a comma"
    assert edited.json()["front"] == 'Say "hi", please'

    due = api.get(f"{base}/due").json()
    assert due["due_count"] == 3
    assert len(due["cards"]) == 3
    first = due["cards"][0]
    assert set(first["intervals"]) == {"again", "hard", "good", "easy"}
    assert (first["intervals"]["again"]["label"], first["intervals"]["good"]["label"]) == ("1m", "10m")
    reviewed = api.post(f"{base}/cards/{first['id']}/review", json={"rating": "good"})
    assert reviewed.status_code == 200
    body = reviewed.json()
    assert body["interval_label"] == "10m"
    assert body["card"]["reps"] == 1
    assert body["card"]["state"] == "learning"
    assert first["id"] not in {c["id"] for c in api.get(f"{base}/due").json()["cards"]}
    assert api.post(f"{base}/cards/{first['id']}/review", json={"rating": "great"}).status_code == 422

    export = api.get(f"{base}/export")
    assert export.status_code == 200
    assert export.headers["content-type"].startswith("text/csv")
    lines = export.text.splitlines()
    assert lines[:4] == ["#separator:comma", "#html:false", "#columns:front,back,tags", "#tags column:3"]
    rows = list(csv.reader(io.StringIO("\n".join(line for line in lines if not line.startswith("#")))))
    assert len(rows) == 3
    assert all(len(row) == 3 for row in rows)
    assert rows[2][:2] == ['Say "hi", please', "Hello, with a comma"]
    assert rows[2][2].split() == ["manual_card"]
    assert "biology" in rows[0][2].split()  # the card's own tag, plus its source document as a tag
    assert any(tag.endswith(".md") for tag in rows[0][2].split())

    # Cells a spreadsheet would run as formulas are neutralised with a leading quote (OWASP).
    hostile = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)"]
    made = [api.post(f"{base}/cards", json={"front": cell, "back": "plain"}).json()["id"] for cell in hostile]
    made.append(api.post(f"{base}/cards", json={"front": "1 + 1 = 2", "back": "=x", "tags": ["@tag"]}).json()["id"])
    text = api.get(f"{base}/export").text
    rows = list(csv.reader(io.StringIO("\n".join(line for line in text.splitlines() if not line.startswith("#")))))
    fronts = [row[0] for row in csv.reader(io.StringIO(text.split("#tags column:3\n", 1)[1]))]
    assert fronts[3:7] == [f"'{cell}" for cell in hostile]
    assert fronts[7] == "1 + 1 = 2"
    assert rows[-1][1] == "'=x"
    assert rows[-1][2].startswith("'@tag")
    for card_id in made:
        assert api.delete(f"{base}/cards/{card_id}").status_code == 204

    assert api.delete(f"{base}/cards/{added.json()['id']}").status_code == 204
    assert next(d for d in api.get("/api/study/decks").json() if d["id"] == deck_id)["card_count"] == 2
    assert api.delete(base).status_code == 204
    assert api.get(base).status_code == 404
