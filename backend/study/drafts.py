"""Drafts the model writes for the user to edit before anything is saved: a card from one passage ("make a
card from this passage", in the viewer and on chat citations) and the update of a card or quiz question
whose cited passage changed. Both go through the generation pipeline (`generation.generate_object`: JSON
schema, tolerant parse, one retry with the problem named) and are answered at once, not as jobs: a
draft is one short object, and nothing is stored until the user saves it.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from backend.errors import NotFound, QuireError
from backend.llm.client import LLMClient
from backend.llm.errors import ModelError, ModelUnavailable
from backend.store import study_sources
from backend.study import cloze, jobs
from backend.study.cards import MAX_TYPED_ANSWER, check_shape
from backend.study.errors import GenerationFailed
from backend.study.flashcards import CardKind
from backend.study.generation import generate_object
from backend.study.quizzes import QuizItem
from backend.study.repairs import Report
from backend.study.schemas import SourceOut

_CARD_RULES: dict[str, tuple[str, str]] = {
    "basic": ("- `front`: one clear question about the idea; `back`: its answer in one to three sentences.",
              '{"front": "...", "back": "..."}'),
    "typed": (f"- `front`: a question whose answer is a single word, number or short phrase; `back`: exactly that "
              f"answer (at most {MAX_TYPED_ANSWER} characters), which the student will type.",
              '{"front": "...", "back": "..."}'),
    "cloze": ("- `front`: one or two sentences from the passage's idea with the key terms hidden as cloze deletions "
              "in Anki's syntax, numbered from 1: {{c1::first term}}, {{c2::second term}} (two to four deletions);"
              " `back`: an optional short extra note, or an empty string.",
              '{"front": "The {{c1::...}} ... {{c2::...}}.", "back": ""}'),
}


class CardText(BaseModel):
    front: str = Field(min_length=1, max_length=2000)
    back: str = Field("", max_length=4000)

    @field_validator("front", "back")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()


class CardDraftIn(BaseModel):
    block_id: uuid.UUID
    kind: CardKind = "basic"


class CardDraftOut(BaseModel):
    """A card as the model drafted it, to edit and then save with `POST /api/study/decks/{id}/cards`."""

    kind: CardKind
    front: str
    back: str
    block_ids: list[str]
    sources: list[SourceOut]


def _ask(llm: LLMClient, prompt: str, model: type[Any], what: str, check: Any) -> Any:
    """`generate_object`, with the model server's failures as the API's errors: 503 when it is not running
    (what to start), 502 when it failed or kept answering unusably (try again). A draft is not a job: its
    report of repairs is not kept."""
    try:
        return generate_object(llm, prompt, model, what, Report(), check=check)
    except ModelUnavailable as exc:
        raise jobs.model_unavailable(exc) from exc
    except ModelError as exc:
        raise QuireError("model_error", exc.message, 502) from exc
    except GenerationFailed as exc:
        raise QuireError("draft_failed", exc.message, 502) from exc


def _shape_problem(kind: str) -> Any:
    def check(text: CardText) -> str | None:
        try:
            check_shape(kind, text.front, text.back)
        except ValueError as exc:
            return str(exc)
        return None

    return check


def card_draft(drafting: jobs.Drafting, request: CardDraftIn) -> CardDraftOut:
    """The model's draft of one card of `kind` from the passage `block_id`."""
    block_id = str(request.block_id)
    rows = study_sources.blocks_by_ids(drafting.db, [block_id], "")
    if not rows:
        raise NotFound("Passage", block_id)
    row = rows[0]
    rules, shape = _CARD_RULES[request.kind]
    where = row["filename"] + (f", p. {row['page']}" if row["page"] else "")
    prompt = drafting.prompts.render("card_draft", where=where.replace('"', "'"), passage=row["text"],
                                kind={"basic": "question-and-answer", "typed": "typed-answer",
                                      "cloze": "cloze-deletion"}[request.kind], rules=rules, shape=shape)
    text: CardText = _ask(drafting.llm, prompt, CardText, "card", _shape_problem(request.kind))
    source = {"block_id": block_id, "document_id": row["document_id"], "filename": row["filename"],
              "page": row["page"]}
    return CardDraftOut(kind=request.kind, front=text.front, back=text.back, block_ids=[block_id],
                        sources=[SourceOut.model_validate(source)])


def card_update(drafting: jobs.Drafting, kind: str, front: str, back: str, old: str, new: str) -> CardText:
    """The model's rewrite of a card for the changed passage (same kind of card)."""
    rules, shape = _CARD_RULES.get(kind, _CARD_RULES["basic"])
    shown = cloze.plain(front) if kind == "cloze" else front
    item = json.dumps({"front": front, "back": back}, ensure_ascii=False)
    prompt = drafting.prompts.render("source_update", what="flashcard", old=old, new=new, item=item,
                                rules=rules + f"\n- The card currently asks about: {shown}", shape=shape)
    result: CardText = _ask(drafting.llm, prompt, CardText, "card", _shape_problem(kind))
    return result


QuestionType = Literal["mcq", "true_false"]


def question_update(drafting: jobs.Drafting, question: dict[str, Any], qtype: QuestionType, old: str,
                    new: str) -> QuizItem:
    """The model's rewrite of a quiz question for the changed passage (same type of question)."""
    item = json.dumps({"type": qtype, **question}, ensure_ascii=False)
    rules = ('- Keep the type ("mcq": exactly 4 distinct options; "true_false": options ["True", "False"]);'
             " `correct_index` is the index of the right option; `explanation` says why, from the new passage.")
    shape = ('{"type": "' + qtype + '", "question": "...", "options": ["..."], "correct_index": 0,'
             ' "explanation": "..."}')
    prompt = drafting.prompts.render("source_update", what="quiz question", old=old, new=new, item=item, rules=rules,
                                shape=shape)

    def check(result: QuizItem) -> str | None:
        return None if result.type == qtype else f'the question must stay of type "{qtype}"'

    result: QuizItem = _ask(drafting.llm, prompt, QuizItem, "question", check)
    return result
