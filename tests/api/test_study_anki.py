"""The `.apkg` export of a flashcard deck over real HTTP, opened the way Anki opens it: a zip holding an
SQLite collection. One note per card with its fields, tags and source (document + page); deck, note type
and note ids stay the same across exports, so importing again updates instead of duplicating."""

from __future__ import annotations

import io
import json
import sqlite3
import uuid
import zipfile
from pathlib import Path
from typing import Any

import httpx

from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.study import card, generate
from tests.support.vault import ingest


def open_package(body: bytes, folder: Path) -> dict[str, Any]:
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        assert set(archive.namelist()) == {"collection.anki2", "media"}
        (folder / "collection.anki2").write_bytes(archive.read("collection.anki2"))
    conn = sqlite3.connect(folder / "collection.anki2")
    try:
        notes = conn.execute("SELECT id, guid, mid, tags, flds FROM notes ORDER BY id").fetchall()
        cards = conn.execute("SELECT nid, did FROM cards").fetchall()
        decks_json, models_json = conn.execute("SELECT decks, models FROM col").fetchone()
    finally:
        conn.close()
    return {"notes": [{"guid": g, "mid": mid, "tags": tags.split(), "fields": flds.split("\x1f")}
                      for _id, g, mid, tags, flds in notes],
            "cards": cards, "decks": json.loads(decks_json), "models": json.loads(models_json)}


def test_deck_exports_as_an_anki_package(api: httpx.Client, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    token = uuid.uuid4().hex[:6]
    name = f"anki-{token}.pdf"
    pdf = make_pdf(tmp_path / name, ["Mitochondria produce ATP in the cell.", "Chloroplasts capture light."])
    doc = ingest(api, {name: pdf.read_bytes()})[name]
    job = generate(api, fake_ollama, "/api/study/decks", {"scope": {"document_ids": [doc["id"]]}, "count": 10},
                   json.dumps({"cards": [card(1), card(2)]}))
    deck_id = job["result_id"]
    base = f"/api/study/decks/{deck_id}"
    manual = api.post(f"{base}/cards", json={"front": "Is <b>bold</b> & safe?", "back": "Line one\nline two",
                                              "tags": ["by-hand"]}).json()
    deck = api.get(base).json()

    export = api.get(f"{base}/export", params={"format": "apkg"})
    assert export.status_code == 200
    assert export.headers["content-type"] == "application/apkg"
    assert '.apkg"' in export.headers["content-disposition"]
    first = open_package(export.content, tmp_path)

    assert len(first["notes"]) == len(first["cards"]) == 3  # one note (and one card) per Quire card
    deck_ids = {did for _nid, did in first["cards"]}
    assert len(deck_ids) == 1
    anki_deck = first["decks"][str(deck_ids.pop())]
    assert anki_deck["name"] == f"Quire::{deck['title']}"
    (model,) = [m for m in first["models"].values() if m["name"] == "Quire flashcard"]
    assert [f["name"] for f in model["flds"]] == ["Front", "Back", "Source"]
    assert {n["mid"] for n in first["notes"]} == {int(model["id"])}

    by_front = {n["fields"][0]: n for n in first["notes"]}
    generated = by_front["What does part 1 say?"]
    source = deck["cards"][0]["sources"][0]
    assert source["filename"] == name
    assert generated["fields"][1] == "Answer 1."
    assert generated["fields"][2] == f"{name}, p. {source['page']}"  # the source, shown on the back
    assert set(generated["tags"]) == {"biology", name.lower()}
    handmade = by_front["Is &lt;b&gt;bold&lt;/b&gt; &amp; safe?"]  # the user's text, never markup
    assert handmade["fields"][1:] == ["Line one<br>line two", ""]
    assert handmade["tags"] == ["by-hand"]

    # Export again after an edit: the same deck, note type and notes (by guid), with the new text.
    api.patch(f"{base}/cards/{manual['id']}", json={"back": "Edited back"})
    second = open_package(api.get(f"{base}/export", params={"format": "apkg"}).content, tmp_path)
    assert {did for _n, did in second["cards"]} == {did for _n, did in first["cards"]}
    assert {n["mid"] for n in second["notes"]} == {n["mid"] for n in first["notes"]}
    assert {n["guid"] for n in second["notes"]} == {n["guid"] for n in first["notes"]}
    assert {n["fields"][0]: n["fields"][1] for n in second["notes"]}[handmade["fields"][0]] == "Edited back"

    other = generate(api, fake_ollama, "/api/study/decks", {"scope": {"document_ids": [doc["id"]]}, "count": 10},
                     json.dumps({"cards": [card(1)]}))["result_id"]
    third = open_package(api.get(f"/api/study/decks/{other}/export", params={"format": "apkg"}).content, tmp_path)
    assert {did for _n, did in third["cards"]}.isdisjoint({did for _n, did in first["cards"]})
    assert {n["guid"] for n in third["notes"]}.isdisjoint({n["guid"] for n in first["notes"]})

    assert api.get(f"{base}/export", params={"format": "pdf"}).status_code == 422
    missing = api.get("/api/study/decks/00000000-0000-4000-8000-000000000000/export", params={"format": "apkg"})
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
