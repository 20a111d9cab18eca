"""Cards and quiz questions notice when their source changes.

When a new version of a document no longer holds a passage that a card or a question cites (block ids
derive from the document's SHA-256, so every version has new ones: what counts is whether a live block
of the document still holds the same text), the item is flagged "its source changed" and shown with the
old passage and the new one: the live passage most like the old (shared terms), or none ("removed")
when nothing is similar enough. Nothing changes without the user's choice:

- **keep**: the item stays as it is and cites the new passage (a removed one: the old, still kept);
- **update**: the user's edit of the item (the model drafts one on request) is saved and cites the new
  passage;
- **retire**: the item leaves reviews, quizzes, plans and exports (its history stays).

A cloze note's cards share their text and sources, so a decision about one applies to its siblings.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from backend.errors import NotFound, QuireError
from backend.retrieval.tokenizer import Analyzer
from backend.store import source_changes as store
from backend.store.db import Database
from backend.store.source_changes import ItemKind
from backend.study import drafts, jobs
from backend.study.cards import check_shape
from backend.study.quizzes import QuizItem, shuffled

_DECISIONS: dict[str, store.Decision] = {"keep": "kept", "update": "updated", "retire": "retired"}
MIN_SIMILARITY = 0.2  # shared terms / all terms below which the old passage counts as removed
MAX_FLAGS = 500
_analyzer = Analyzer()


class PassageOut(BaseModel):
    block_id: str
    page: int | None
    text: str


class ChangeOut(BaseModel):
    """One item whose cited passage changed: the item, the passage before and (if any) after."""

    item_kind: ItemKind
    item_id: str
    parent_id: str  # the card's deck or the question's quiz
    parent_title: str
    kind: str  # card: basic | typed | cloze; question: mcq | true_false
    item: dict[str, Any]  # card: front, back; question: question, options, correct_index, explanation
    block_id: str  # the cited block that changed
    document_id: str
    filename: str
    status: Literal["changed", "removed"]
    old: PassageOut | None  # None: the version that held it was deleted since
    new: PassageOut | None


class ChangesOut(BaseModel):
    count: int
    changes: list[ChangeOut]


class ItemRef(BaseModel):
    item_kind: ItemKind
    item_id: str = Field(min_length=36, max_length=36)
    block_id: str = Field(min_length=36, max_length=36)


class UpdateDraftOut(BaseModel):
    """The model's rewrite of a flagged item for its new passage, to edit and send back with `update`."""

    card: drafts.CardText | None = None
    question: QuizItem | None = None


class ResolveIn(ItemRef):
    action: Literal["keep", "update", "retire"]
    card: drafts.CardText | None = None  # action update, a card: its new text
    question: QuizItem | None = None  # action update, a question: its new form


def _similarity(a: str, b: str) -> float:
    ta, tb = set(_analyzer.terms(a)), set(_analyzer.terms(b))
    return len(ta & tb) / len(ta | tb) if ta and tb else 0.0


def _closest(old: str | None, candidates: list[store.LiveBlockRow]) -> store.LiveBlockRow | None:
    if not old or not candidates:
        return None
    score, best = max(((_similarity(old, c["text"]), c) for c in candidates), key=lambda sc: sc[0])
    return best if score >= MIN_SIMILARITY else None


def list_changes(db: Database) -> ChangesOut:
    rows = store.changed_citations(db, MAX_FLAGS)
    live: dict[str, list[store.LiveBlockRow]] = {}
    for block in store.live_blocks(db, sorted({r["document_id"] for r in rows})):
        live.setdefault(block["document_id"], []).append(block)
    found = {("card", i["id"]): i for i in store.items(db, "card", [r["item_id"] for r in rows
                                                                      if r["item_kind"] == "card"])}
    found |= {("question", i["id"]): i for i in store.items(db, "question", [r["item_id"] for r in rows
                                                                                if r["item_kind"] == "question"])}
    changes: list[ChangeOut] = []
    seen_notes: set[str] = set()
    for row in rows:
        item = found[(row["item_kind"], row["item_id"])]
        if item["note_id"]:  # one flag per cloze note, not one per deletion
            if item["note_id"] + row["block_id"] in seen_notes:
                continue
            seen_notes.add(item["note_id"] + row["block_id"])
        new = _closest(row["old_text"], live.get(row["document_id"], []))
        changes.append(ChangeOut(
            item_kind=row["item_kind"], item_id=row["item_id"], parent_id=item["parent_id"],
            parent_title=item["parent_title"], kind=item["kind"], item=item["text"], block_id=row["block_id"],
            document_id=row["document_id"],
            filename=row["filename"], status="changed" if new else "removed",
            old=PassageOut(block_id=row["block_id"], page=row["old_page"], text=row["old_text"])
            if row["old_text"] is not None else None,
            new=PassageOut(block_id=new["id"], page=new["page"], text=new["text"]) if new else None))
    return ChangesOut(count=len(changes), changes=changes)


def _change(db: Database, ref: ItemRef) -> ChangeOut:
    change = next((c for c in list_changes(db).changes if c.item_kind == ref.item_kind
                   and c.item_id == ref.item_id and c.block_id == ref.block_id), None)
    if change is None:
        raise NotFound("Changed source", f"{ref.item_kind} {ref.item_id}")
    return change


def draft_update(drafting: jobs.Drafting, ref: ItemRef) -> UpdateDraftOut:
    """The model's rewrite of the item for the new passage (not saved)."""
    change = _change(drafting.db, ref)
    if change.new is None:
        raise QuireError("passage_removed", "The passage this item cites was removed from the new version: keep "
                         "the item as it is, or retire it.", 409)
    old = change.old.text if change.old else ""
    if ref.item_kind == "card":
        return UpdateDraftOut(card=drafts.card_update(drafting, change.kind, change.item["front"], change.item["back"],
                                                      old, change.new.text))
    question = drafts.question_update(drafting, change.item, "true_false" if change.kind == "true_false" else "mcq",
                                      old, change.new.text)
    # Models put the right option first far more often than chance: the draft comes shuffled, as new
    # quizzes do, and the user's order is then saved as it is.
    options, correct = shuffled(question, ref.item_id)
    return UpdateDraftOut(question=question.model_copy(update={"options": options, "correct_index": correct,
                                                               "source_block_ids": []}))


def resolve(db: Database, body: ResolveIn) -> None:
    """Apply the user's choice for one flagged item (a cloze note: all its cards) in one transaction."""
    change = _change(db, body)
    ids = store.note_siblings(db, found) if (found := _note_of(db, change)) else [change.item_id]
    new_source: dict[str, Any] | None = None
    if change.new is not None:
        new_source = {"block_id": change.new.block_id, "document_id": change.document_id,
                      "filename": change.filename, "page": change.new.page}
    update = _checked_update(body, change) if body.action == "update" else None
    with db.transaction() as conn:
        if body.action == "retire":
            store.retire(conn, body.item_kind, ids)
        elif new_source is not None:
            store.repoint(conn, body.item_kind, ids, body.block_id, new_source)
        if update is not None and body.item_kind == "card":
            store.update_card_text(conn, ids, update["front"], update["back"])
        elif update is not None:
            store.update_question(conn, body.item_id, update)
        store.decide(conn, body.item_kind, ids, body.block_id, _DECISIONS[body.action],
                     change.new.block_id if change.new else None)


def _note_of(db: Database, change: ChangeOut) -> str | None:
    if change.item_kind != "card" or change.kind != "cloze":
        return None
    rows = store.items(db, "card", [change.item_id])
    return rows[0]["note_id"] if rows else None


def _checked_update(body: ResolveIn, change: ChangeOut) -> dict[str, Any]:
    if change.new is None:
        raise QuireError("passage_removed", "The passage was removed: keep the item or retire it.", 409)
    if body.item_kind == "card":
        if body.card is None:
            raise QuireError("missing_update", "Send the card's new text as `card` {front, back}.", 422)
        try:
            check_shape(change.kind, body.card.front, body.card.back)
        except ValueError as exc:
            raise QuireError("invalid_card", str(exc), 422) from exc
        return {"front": body.card.front, "back": body.card.back}
    if body.question is None or body.question.type != change.kind:
        raise QuireError("missing_update", f'Send the question\'s new form as `question` (type "{change.kind}").',
                         422)
    return {"question": body.question.question, "options": body.question.options,
            "correct_index": body.question.correct_index, "explanation": body.question.explanation}
