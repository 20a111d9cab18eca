"""Exports: a quiz as Markdown (questions only, with answers, or with answers and explanations), a deck as
a CSV Anki imports (front, back, tags) or as an Anki package (`.apkg`), and a mind map as a nested
Markdown outline."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import quote

from backend.errors import NotFound
from backend.store import decks as deck_store
from backend.store import mindmaps as mindmap_store
from backend.store import quizzes as quiz_store
from backend.store.db import Database
from backend.store.decks import CardRow
from backend.study.anki import deck_package
from backend.study.quizzes import quiz_row

QuizExportMode = Literal["questions", "answers", "explanations"]
LETTERS = "ABCD"


def quiz_markdown(db: Database, quiz_id: str, mode: QuizExportMode) -> tuple[str, str]:
    """(file name, Markdown) of a quiz; `answers` adds each correct answer, `explanations` also the why."""
    quiz = quiz_row(db, quiz_id)
    lines = [f"# {quiz['title']}", "", f"*Difficulty: {quiz['difficulty']} · {quiz['question_count']} questions*"]
    for q in quiz_store.questions(db, quiz_id):
        lines += ["", f"## {q['position']}. {_one_line(q['question'])}", ""]
        lines += [f"- {LETTERS[i]}) {_one_line(option)}" for i, option in enumerate(q["options"])]
        if mode != "questions":
            answer = q["options"][q["correct_index"]]
            lines += ["", f"**Answer:** {LETTERS[q['correct_index']]}) {_one_line(answer)}"]
        if mode == "explanations":
            lines += ["", *(f"> {line}" for line in q["explanation"].splitlines() if line.strip())]
            if q["sources"]:
                lines += [">", f"> Sources: {_sources(q['sources'])}"]
    return f"{slug(quiz['title'])}-{mode}.md", "\n".join(lines) + "\n"


def deck_csv(db: Database, deck_id: str) -> tuple[str, str]:
    """(file name, CSV) for Anki's File → Import: the header lines tell Anki the separator and columns."""
    deck = deck_store.get_deck(db, deck_id, datetime.now(UTC))
    if deck is None:
        raise NotFound("Deck", deck_id)
    out = io.StringIO()
    out.write("#separator:comma\n#html:false\n#columns:front,back,tags\n#tags column:3\n")
    writer = csv.writer(out, lineterminator="\n")
    for card in deck_store.cards(db, deck_id):
        writer.writerow([spreadsheet_safe(cell) for cell in (card["front"], card["back"], " ".join(_card_tags(card)))])
    return f"{slug(deck['title'])}.csv", out.getvalue()


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula: one starting with `=`, `+`, `-`, `@`, a tab or
    a carriage return gets a leading `'` (OWASP's advice against CSV injection)."""
    return f"'{cell}" if cell.startswith(_FORMULA_STARTS) else cell


def deck_apkg(db: Database, deck_id: str) -> tuple[str, bytes]:
    """(file name, `.apkg` bytes): the deck as an Anki package that updates itself when imported again."""
    deck = deck_store.get_deck(db, deck_id, datetime.now(UTC))
    if deck is None:
        raise NotFound("Deck", deck_id)
    cards = deck_store.cards(db, deck_id)
    return f"{slug(deck['title'])}.apkg", deck_package(deck_id, deck["title"], cards, _card_tags)


def _card_tags(card: CardRow) -> list[str]:
    """The card's own tags and one per source document (the same in the CSV and the package)."""
    tags = [*card["tags"], *(slug(s["filename"]) for s in card["sources"])]
    return list(dict.fromkeys(t for t in tags if t))


def mindmap_markdown(db: Database, mindmap_id: str) -> tuple[str, str]:
    row = mindmap_store.get_mindmap(db, mindmap_id)
    if row is None:
        raise NotFound("Mind map", mindmap_id)
    tree = row["tree"]
    lines = [f"# {tree['label']}", ""]
    lines += _outline(tree["children"], 0)
    return f"{slug(row['title'])}.md", "\n".join(lines) + "\n"


def attachment(filename: str) -> dict[str, str]:
    """A Content-Disposition header offering the export as a download under `filename`."""
    ascii_name = filename.encode("ascii", "replace").decode().replace("?", "_")
    return {"Content-Disposition": f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"}


def _outline(nodes: list[dict[str, Any]], level: int) -> list[str]:
    lines = []
    for node in nodes:
        lines.append(f"{'  ' * level}- {node['label']}")
        lines += _outline(node["children"], level + 1)
    return lines


def _sources(sources: list[dict[str, Any]]) -> str:
    return "; ".join(dict.fromkeys(s["filename"] + (f", p. {s['page']}" if s.get("page") else "") for s in sources))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def slug(text: str) -> str:
    return re.sub(r"[^\w.-]+", "-", text, flags=re.UNICODE).strip("-.").lower()[:80] or "export"
