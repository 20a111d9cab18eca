"""Mistakes become cards, over real HTTP: wrong and "not sure" answers become due cards (question, right
answer, cited passage) in the Mistakes deck of the quiz's scope, stored with the answer; missing the same
question again makes its card due again instead of adding one; "practise my weak spots" quizzes the
passages behind mistakes."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.study import generate, mcq, quiz_reply, study_vault
from tests.support.vault import ingest


@pytest.fixture(scope="module")
def vault(quire: QuireServer) -> dict[str, Any]:
    with quire.client() as client:
        return study_vault(client, ("cells", "plants"))


def right_option(question: dict[str, Any]) -> int:
    """quiz_reply's key: multiple choice n has "option n.1" right, true/false has "True" right."""
    return question["options"].index("True") if question["type"] == "true_false" else \
        question["options"].index(f"option {question['position']}.1")


def wrong_option(question: dict[str, Any]) -> int:
    return (right_option(question) + 1) % len(question["options"])


def answer(api: httpx.Client, quiz_id: str, attempt_id: str, question: dict[str, Any], choice: int,
           unsure: bool = False) -> dict[str, Any]:
    response = api.post(f"/api/study/quizzes/{quiz_id}/attempts/{attempt_id}/answers",
                        json={"question_id": question["id"], "choice_index": choice, "unsure": unsure})
    assert response.status_code == 200, response.text
    return response.json()


def test_wrong_and_unsure_answers_become_due_cards_in_the_scopes_mistakes_deck(
        api: httpx.Client, fake_ollama: FakeOllama, vault: dict[str, Any]) -> None:
    job = generate(api, fake_ollama, "/api/study/quizzes", {"scope": vault["scope"], "count": 5}, quiz_reply(5))
    quiz = api.get(job["result_url"]).json()
    questions = quiz["questions"]
    attempt = api.post(f"/api/study/quizzes/{quiz['id']}/attempts").json()

    graded = [answer(api, quiz["id"], attempt["id"], questions[0], wrong_option(questions[0])),
              answer(api, quiz["id"], attempt["id"], questions[1], right_option(questions[1]), unsure=True),
              answer(api, quiz["id"], attempt["id"], questions[2], right_option(questions[2])),
              answer(api, quiz["id"], attempt["id"], questions[3], wrong_option(questions[3])),
              answer(api, quiz["id"], attempt["id"], questions[4], right_option(questions[4]))]
    assert [g["correct"] for g in graded] == [False, True, True, False, True]
    assert [g["unsure"] for g in graded] == [False, True, False, False, False]
    made = [g["mistake_card"] for g in graded]
    assert made[2] is None
    assert made[4] is None
    deck_id = made[0]["deck_id"]
    assert made[1]["deck_id"] == made[3]["deck_id"] == deck_id

    deck = api.get(f"/api/study/decks/{deck_id}").json()
    assert deck["purpose"] == "mistakes"
    assert deck["title"].startswith("Mistakes: ")
    assert deck["scope"]["document_ids"] == sorted(vault["ids"])
    assert (deck["card_count"], deck["due_count"], deck["new_count"]) == (3, 3, 3)
    cards = {c["question_id"]: c for c in deck["cards"]}
    assert set(cards) == {questions[0]["id"], questions[1]["id"], questions[3]["id"]}
    first = cards[questions[0]["id"]]
    assert first["origin"] == "mistake"
    assert first["front"] == questions[0]["question"]
    assert first["back"].startswith("option 1.1\n\nExplanation 1: the material says so.")
    assert "From the source: “" in first["back"]
    assert first["sources"] == questions[0]["sources"]
    # Searched within the quiz's documents: other tests' vaults on this server hold the same sentences.
    cited = api.get("/api/search", params={"q": first["back"].split("“", 1)[1][:60], "k": 1,
                                           "documents": ",".join(vault["ids"])}).json()["hits"]
    assert cited[0]["block_id"] == first["sources"][0]["block_id"]  # the excerpt is the cited passage's text
    assert cards[questions[1]["id"]]["front"].startswith("True or false: Statement 2")
    assert first["id"] in {c["id"] for c in api.get(f"/api/study/decks/{deck_id}/due").json()["cards"]}

    # The same question missed again: its card is due again, no second card.
    api.post(f"/api/study/decks/{deck_id}/cards/{first['id']}/review", json={"rating": "good"})
    again = api.post(f"/api/study/quizzes/{quiz['id']}/attempts", json={"restart": True}).json()
    repeat = answer(api, quiz["id"], again["id"], questions[0], wrong_option(questions[0]))
    assert repeat["mistake_card"] == {"deck_id": deck_id, "card_id": first["id"]}
    deck = api.get(f"/api/study/decks/{deck_id}").json()
    assert deck["card_count"] == 3
    assert first["id"] in {c["id"] for c in api.get(f"/api/study/decks/{deck_id}/due").json()["cards"]}
    # Only one Mistakes deck for the scope, and the quiz's score is unchanged by all this.
    assert [d["id"] for d in api.get("/api/study/decks").json()
            if d["purpose"] == "mistakes" and d["scope"]["document_ids"] == sorted(vault["ids"])] == [deck_id]


def test_weak_spots_quiz_is_made_from_the_passages_behind_mistakes(
        api: httpx.Client, fake_ollama: FakeOllama, unique: Any) -> None:
    topic = unique("weak.md")
    text = ("# Enzymes\n\nEnzymes lower the activation energy of reactions without being consumed.\n\n"
            "## Other\n\nRubisco fixes carbon dioxide in the Calvin cycle of photosynthesis.")
    doc = ingest(api, {topic: text.encode()}, category=f"weak-{uuid.uuid4().hex[:6]}")[topic]
    scope = {"document_ids": [doc["id"]], "categories": []}
    assert api.post("/api/study/weak-spots/count", json={"scope": scope}).json()["passages"] == 0
    nothing = api.post("/api/study/weak-spots", json={"scope": scope})
    assert nothing.status_code == 422
    assert nothing.json()["error"]["code"] == "no_weak_spots"

    job = generate(api, fake_ollama, "/api/study/quizzes", {"scope": scope, "count": 5},
                   json.dumps({"questions": [mcq(1, ["P1"])]}))
    quiz = api.get(job["result_url"]).json()
    question = quiz["questions"][0]
    attempt = api.post(f"/api/study/quizzes/{quiz['id']}/attempts").json()
    answer(api, quiz["id"], attempt["id"], question, wrong_option(question))
    assert api.post("/api/study/weak-spots/count", json={"scope": scope}).json()["passages"] == 1

    weak = generate(api, fake_ollama, "/api/study/weak-spots", {"scope": scope, "count": 5},
                    json.dumps({"questions": [mcq(7, ["P1"])]}))
    assert weak["status"] == "succeeded", weak
    assert weak["kind"] == "weak_spots"
    practice = api.get(weak["result_url"]).json()
    assert practice["purpose"] == "weak_spots"
    assert practice["title"].startswith("Weak spots: ")
    assert practice["questions"][0]["sources"][0]["block_id"] == question["sources"][0]["block_id"]
    prompt = fake_ollama.chat_requests[-1]["messages"][0]["content"]
    cited = api.get("/api/search", params={"q": "activation energy enzymes", "k": 1,
                                           "documents": doc["id"]}).json()["hits"][0]
    assert cited["block_id"] == question["sources"][0]["block_id"]
    assert "activation energy" in prompt
    assert prompt.count("<passage id=\"P") == 1  # only the passage behind the mistake
