"""A flashcard deck as an Anki package (`.apkg`): one note per card (per cloze note) with the card's tags
and, on the back, where it came from (document and page or slide). Each kind keeps its type: front/back
cards use a Basic-style note type, typed-answer cards one whose template asks for the answer
(`{{type:Back}}`), and cloze notes a Cloze note type (Anki's own shape: fields Text and Back Extra,
`{{cloze:Text}}`), so Anki makes one card per deletion itself.

Re-importing must update, not duplicate: Anki matches notes by guid and decks and note types by id, so
all three derive from Quire's own ids (the deck's and each card's UUID), never from a counter or a time.
"""

from __future__ import annotations

import hashlib
import html
import io
import itertools
import sqlite3
import time
import zipfile
from collections.abc import Callable, Sequence
from typing import Any

import genanki

from backend.scratch import scratch_folder
from backend.store.decks import CardRow

# Anki ids are 64-bit, but the range genanki and Anki's own importers use for generated ids is [2^30, 2^31).
_ID_BASE, _ID_SPAN = 1 << 30, 1 << 30
_SLIDE_SUFFIXES = (".pptx", ".ppt", ".odp", ".key")
CSS = """.card { font-family: sans-serif; font-size: 20px; text-align: left; line-height: 1.4; }
.source { margin-top: 1.2em; font-size: 14px; color: #666; }"""


def stable_id(*parts: str) -> int:
    digest = hashlib.sha256("|".join(parts).encode()).digest()
    return _ID_BASE + int.from_bytes(digest[:8], "big") % _ID_SPAN


def source_line(sources: Sequence[dict[str, Any]]) -> str:
    """"cells.pdf, p. 2; slides.pptx, slide 4" — each source once, in order."""
    def where(source: dict[str, Any]) -> str:
        if not source.get("page"):
            return str(source["filename"])
        unit = "slide" if source["filename"].lower().endswith(_SLIDE_SUFFIXES) else "p."
        return f"{source['filename']}, {unit} {source['page']}"

    return "; ".join(dict.fromkeys(where(s) for s in sources))


def _html(text: str) -> str:
    return html.escape(text).replace("\n", "<br>")


def _model(deck_id: str) -> genanki.Model:
    return genanki.Model(
        stable_id("quire-model", deck_id), "Quire flashcard",
        fields=[{"name": "Front"}, {"name": "Back"}, {"name": "Source"}],
        templates=[{"name": "Card 1", "qfmt": "{{Front}}",
                    "afmt": '{{FrontSide}}<hr id="answer">{{Back}}' + _SOURCE}],
        css=CSS,
    )


def _typed_model(deck_id: str) -> genanki.Model:
    return genanki.Model(
        stable_id("quire-typed-model", deck_id), "Quire typed answer",
        fields=[{"name": "Front"}, {"name": "Back"}, {"name": "Source"}],
        templates=[{"name": "Card 1", "qfmt": "{{Front}}<br><br>{{type:Back}}",
                    "afmt": '{{Front}}<hr id="answer">{{type:Back}}' + _SOURCE}],
        css=CSS,
    )


def _cloze_model(deck_id: str) -> genanki.Model:
    return genanki.Model(
        stable_id("quire-cloze-model", deck_id), "Quire cloze",
        fields=[{"name": "Text"}, {"name": "Back Extra"}, {"name": "Source"}],
        templates=[{"name": "Cloze", "qfmt": "{{cloze:Text}}",
                    "afmt": "{{cloze:Text}}<br>{{Back Extra}}" + _SOURCE}],
        css=CSS + "\n.cloze { font-weight: bold; color: blue; }",
        model_type=genanki.Model.CLOZE,
    )


_SOURCE = '{{#Source}}<div class="source">Source: {{Source}}</div>{{/Source}}'


def deck_package(deck_id: str, title: str, cards: Sequence[CardRow], tags_of: Callable[[CardRow], list[str]]) -> bytes:
    """The `.apkg` bytes for a deck; `tags_of(card)` gives each card's Anki tags."""
    models = {"basic": _model(deck_id), "typed": _typed_model(deck_id), "cloze": _cloze_model(deck_id)}
    deck = genanki.Deck(stable_id("quire-deck", deck_id), f"Quire::{title}")
    notes_done: set[str] = set()
    for card in cards:
        fields = [_html(card["front"]), _html(card["back"]), html.escape(source_line(card["sources"]))]
        guid = genanki.guid_for("quire-card", card["id"])
        if card["kind"] == "cloze" and card["note_id"]:
            if card["note_id"] in notes_done:  # one note for all its deletions: Anki makes their cards
                continue
            notes_done.add(card["note_id"])
            guid = genanki.guid_for("quire-note", card["note_id"])
        deck.add_note(genanki.Note(model=models[card["kind"]], guid=guid, fields=fields, tags=tags_of(card)))
    return _write(genanki.Package(deck))


def _write(package: genanki.Package) -> bytes:
    """The package as bytes. Written here rather than with `write_to_file`, which leaves its temporary
    SQLite copy of the cards behind in the system's temp folder."""
    with scratch_folder("apkg") as folder:
        collection = folder / "collection.anki2"
        conn = sqlite3.connect(collection)
        try:
            now = time.time()  # newer than any earlier export, so Anki's import updates changed notes
            package.write_to_db(conn.cursor(), now, itertools.count(int(now * 1000)))
            conn.commit()
        finally:
            conn.close()
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(collection, "collection.anki2")
            archive.writestr("media", "{}")
        return out.getvalue()
