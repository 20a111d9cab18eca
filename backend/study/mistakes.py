"""Mistakes become cards, and weak spots become a quiz.

- A quiz answer that is wrong, or given as "not sure", becomes a flashcard in the "Mistakes" deck of
  the quiz's scope (made the first time one is needed), stored in the same transaction as the answer:
  the question on the front; the right answer, the explanation and the cited passage on the back; the
  question's sources as the card's. The card is new and due at once. Missing the same question again
  makes its card due again instead of adding another.
- "Practise my weak spots" builds a quiz (a durable job, like every quiz) from the passages behind
  recent mistakes (wrong or unsure answers of the last `WEAK_SPOT_DAYS`) and lapsed cards (forgotten
  after having been learnt, or last rated "again"), optionally within a scope. A passage cited before a
  new version of its document counts when its text is unchanged in the live version.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel

from backend.errors import QuireError
from backend.store import mistakes as store
from backend.store import study_sources
from backend.store.db import Connection, Database
from backend.store.quizzes import QuestionRow, QuizRow
from backend.study import jobs, quizzes
from backend.study.repairs import Report
from backend.study.schemas import GenerateRequest, JobOut
from backend.study.scopes import scope_params, scope_title

WEAK_SPOT_DAYS = 30
MAX_WEAK_ITEMS = 200
PASSAGE_EXCERPT = 400
TRUE_FALSE_PROMPT = "True or false: "


class MistakeCardOut(BaseModel):
    """Where a missed question went: its card in the scope's Mistakes deck."""

    deck_id: str
    card_id: str


class WeakSpotsRequest(GenerateRequest):
    count: Literal[5, 10, 20] = 10


class WeakSpotsOut(BaseModel):
    passages: int  # distinct live passages behind recent mistakes and lapsed cards (in the scope)
    days: int = WEAK_SPOT_DAYS  # how far back mistakes count


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PASSAGE_EXCERPT else flat[:PASSAGE_EXCERPT].rsplit(" ", 1)[0] + " …"


def card_text(question: QuestionRow, passage: str | None) -> tuple[str, str]:
    """(front, back) of the card a missed question becomes."""
    right = question["options"][question["correct_index"]]
    prefix = TRUE_FALSE_PROMPT if question["type"] == "true_false" else ""
    front = prefix + question["question"]
    back = f"{right}\n\n{question['explanation']}"
    if passage:
        back += f"\n\nFrom the source: “{_excerpt(passage)}”"
    return front, back


class MistakeCard:
    """What a wrong answer needs to become a card, read before the answer's transaction (it stays short)."""

    def __init__(self, db: Database, quiz: QuizRow, question: QuestionRow) -> None:
        block_ids = [s["block_id"] for s in question["sources"]][:1]
        rows = study_sources.blocks_by_ids(db, block_ids, "") if block_ids else []
        self.front, self.back = card_text(question, rows[0]["text"] if rows else None)
        self.scope = {"document_ids": sorted(quiz["scope"].get("document_ids", [])),
                      "categories": sorted(quiz["scope"].get("categories", []))}
        self.title = scope_title(db, self.scope, "Mistakes")
        self.deck_id = jobs.artifact_id(f"mistakes/{sorted(self.scope.items())}")
        self.question = question

    def save(self, conn: Connection) -> MistakeCardOut:
        deck_id = store.mistakes_deck(conn, self.deck_id, self.title, self.scope)
        card = {"id": jobs.artifact_id(f"mistake/{deck_id}/{self.question['id']}"), "front": self.front,
                "back": self.back, "tags": ["mistake"], "sources": self.question["sources"],
                "question_id": self.question["id"]}
        return MistakeCardOut(deck_id=deck_id, card_id=store.add_mistake_card(conn, deck_id, card))


# -- weak spots ----------------------------------------------------------------------------------------
def weak_block_ids(db: Database, scope: dict[str, Any] | None) -> list[str]:
    """Live passages behind recent mistakes and lapsed cards, most recent first, within `scope` if given."""
    since = datetime.now(UTC) - timedelta(days=WEAK_SPOT_DAYS)
    cited = [s for sources in store.weak_spot_sources(db, since, MAX_WEAK_ITEMS) for s in sources]
    live = store.live_twins(db, list(dict.fromkeys(s["block_id"] for s in cited)))
    allowed = None
    if scope is not None:
        allowed = {d["id"] for d in study_sources.scope_documents(db, scope["document_ids"], scope["categories"],
                                                                  10_000)}
    ids = [live[s["block_id"]] for s in cited if s["block_id"] in live
           and (allowed is None or s["document_id"] in allowed)]
    return list(dict.fromkeys(ids))


def _scope(db: Database, request: GenerateRequest) -> dict[str, Any] | None:
    if not request.scope.document_ids and not request.scope.categories:
        return None
    return scope_params(db, request.scope)


def weak_spots(db: Database, request: GenerateRequest) -> WeakSpotsOut:
    return WeakSpotsOut(passages=len(weak_block_ids(db, _scope(db, request))))


def start(study: jobs.StudyJobs, request: WeakSpotsRequest) -> JobOut:
    """Queue a weak-spots quiz; 422 `no_weak_spots` when there is nothing to practise."""
    block_ids = weak_block_ids(study.db, _scope(study.db, request))
    if not block_ids:
        raise QuireError("no_weak_spots", f"Nothing to practise: no wrong or unsure quiz answers in the last "
                         f"{WEAK_SPOT_DAYS} days and no forgotten cards. Take a quiz or review your cards first.", 422)
    params = {"block_ids": sorted(block_ids[:quizzes.MAX_PASSAGES * 2]), "count": request.count}
    return study.submit("weak_spots", params, request.client_token)


def run(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    passages = drafting.block_passages(params["block_ids"], min(quizzes.MAX_PASSAGES, max(4, params["count"])))
    if not passages:
        raise QuireError("no_weak_spots", "The passages behind your mistakes are no longer in the library.", 422)
    report = Report()
    try:
        items = quizzes.draft(drafting, passages, params["count"], "intermediate", ["mcq", "true_false"],
                              "the points these passages make, which the student got wrong or forgot before",
                              report)
    finally:
        jobs.record_report(drafting.db, job_id, report)
    scope = {"document_ids": sorted({p.document_id for p in passages}), "categories": []}
    quiz = {"id": jobs.artifact_id(job_id), "title": scope_title(drafting.db, scope, "Weak spots"),
            "difficulty": "intermediate", "types": ["mcq", "true_false"], "requested_count": params["count"],
            "scope": scope, "workshop_id": None, "job_id": job_id, "purpose": "weak_spots"}
    return quizzes.saver(quiz, items)
