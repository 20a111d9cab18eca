"""Content users put in slides, Word handouts and workbooks that used to be lost, over real HTTP to a real
server: text that exists only as a picture on a slide or in a Word document (OCR'd by tesseract in the
sandbox), and formulas a script wrote without cached results (shown as their formula text)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pytest
from PIL import Image
from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.util import Inches

from scripts.shared_data import CORPUS
from tests.support.corpus import contains, manifest
from tests.support.documents import Heading, Para, make_docx, render_text_image, tesseract_available
from tests.support.vault import ingest

Unique = Callable[[str], str]
needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")

SCREENSHOT = "Mitochondria produce cellular energy through oxidative phosphorylation"
GROUPED = "Ribosomes translate messenger RNA into proteins"
PLACEHOLDER = "Chloroplasts capture sunlight for photosynthesis"
LOGO = "ZEPHYRTECH"  # reads cleanly when OCR'd (checked with the size threshold at 0), so its absence can fail
BOARD = "Photosynthesis converts light energy into chemical energy"


def _picture(text: str, *, width: int = 1400, height: int = 500, font_px: int = 40) -> io.BytesIO:
    return io.BytesIO(render_text_image(text, width=width, height=height, font_px=font_px))


def _picture_deck() -> bytes:
    """Slide 1 text only; slide 2 only a picture of text (and a small logo with a word in it); slide 3 a
    picture inside a group shape; slide 4 a picture in a layout's picture placeholder."""
    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[1])
    first.shapes.title.text = "Cell biology"
    first.placeholders[1].text_frame.text = "Organelles and what they do"
    second = deck.slides.add_slide(deck.slide_layouts[6])  # blank: no text at all
    second.shapes.add_picture(_picture(SCREENSHOT), Inches(0.5), Inches(1), Inches(9), Inches(3.2))
    second.shapes.add_picture(_picture(LOGO, width=600, height=200, font_px=60), Inches(8.8), Inches(6.8),
                              Inches(1.0), Inches(0.33))
    third = deck.slides.add_slide(deck.slide_layouts[6])
    group = third.shapes.add_group_shape()
    group.shapes.add_picture(_picture(GROUPED), Inches(0.5), Inches(2), Inches(9), Inches(3.2))
    fourth = deck.slides.add_slide(deck.slide_layouts[8])  # "Picture with Caption"
    picture_holder = next(p for p in fourth.placeholders if p.placeholder_format.type == PP_PLACEHOLDER.PICTURE)
    picture_holder.insert_picture(_picture(PLACEHOLDER))
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def _hits(api: httpx.Client, query: str, document_id: str) -> list[dict[str, Any]]:
    response = api.get("/api/search", params={"q": query, "k": 10, "mode": "sparse", "documents": document_id})
    assert response.status_code == 200, response.text
    hits: list[dict[str, Any]] = response.json()["hits"]
    return hits


def _slide_text(api: httpx.Client, document_id: str, slide: int) -> str:
    blocks = api.get(f"/api/documents/{document_id}/blocks", params={"page": slide}).json()["blocks"]
    return "\n".join(block["text"] for block in blocks)


def _found_on(api: httpx.Client, phrase: str, document_id: str) -> set[int]:
    """The slides of the hits holding `phrase` (OCR keeps the picture's line breaks: whitespace is collapsed)."""
    return {hit["page"] for hit in _hits(api, phrase, document_id)
            if phrase.lower() in " ".join(hit["text"].split()).lower()}


@needs_tesseract
def test_text_in_pictures_on_slides_is_searchable_on_its_slide(api: httpx.Client, unique: Unique) -> None:
    # Before: pictures were skipped, so slide 2 had no text at all and the deck's slides 2-4 were not found.
    name = unique("organelles.pptx")
    doc = ingest(api, {name: _picture_deck()}, timeout_s=120)[name]
    listed = next(d for d in api.get("/api/documents").json() if d["id"] == doc["id"])
    assert listed["status"] == "ready"
    assert _found_on(api, "oxidative phosphorylation", doc["id"]) == {2}
    assert _found_on(api, "messenger RNA into proteins", doc["id"]) == {3}  # inside a group shape
    assert _found_on(api, "capture sunlight", doc["id"]) == {4}  # in a picture placeholder
    shown = _slide_text(api, doc["id"], 2)
    assert shown.startswith("Text in picture:")
    assert "Mitochondria produce cellular energy" in " ".join(shown.split())
    # The logo (under 2% of the slide) was not read: its word is nowhere in the document.
    everything = api.get(f"/api/documents/{doc['id']}/blocks", params={"limit": 200}).json()["blocks"]
    assert LOGO.lower() not in " ".join(block["text"] for block in everything).lower()
    assert not _hits(api, LOGO, doc["id"])


@needs_tesseract
def test_a_real_deck_keeps_its_badges_out_and_reads_an_added_screenshot(api: httpx.Client, unique: Unique) -> None:
    # The corpus lecture deck with one slide added that holds only a screenshot of text. Its university
    # badge OCRs to "UMSI" when read; it covers 0.7% of slides 1 and 34, so it must not be.
    deck = Presentation(str(CORPUS / "py4e-02-expressions.pptx"))
    added = deck.slides.add_slide(deck.slide_layouts[3])  # "Blank"
    added.shapes.add_picture(_picture("Integer division truncates toward negative infinity"),
                             Inches(1), Inches(1), Inches(14), Inches(5))
    out = io.BytesIO()
    deck.save(out)
    name = unique("py4e-expressions-with-screenshot.pptx")
    doc = ingest(api, {name: out.getvalue()}, timeout_s=180)[name]
    assert _found_on(api, "truncates toward negative infinity", doc["id"]) == {35}
    assert "Text in picture:" in _slide_text(api, doc["id"], 35)
    for slide in (1, 29, 34):  # badges on 1 and 34, a photo without text on 29
        text = _slide_text(api, doc["id"], slide)
        assert text  # the slide's own text is still there
        assert "Text in picture:" not in text
        assert "UMSI" not in text
    assert _found_on(api, "express the classic math operations", doc["id"]) == {16}


def _handout(path: Path, *pictures: bytes) -> bytes:
    """A Word handout: a heading, a paragraph holding the pictures (after its own words), a paragraph after
    it, then the next heading and its paragraph."""
    return make_docx(path, [
        Heading("Plant cells"), Para("The board at the end of the chloroplast lecture:", pictures=pictures),
        Para("Ask the tutor about anything on the board."), Heading("Animal cells"),
        Para("Animal cells have no cell wall."),
    ]).read_bytes()


def _all_blocks(api: httpx.Client, document_id: str) -> list[dict[str, Any]]:
    """Every block of the document in reading order, as the text viewer pages through them."""
    blocks: list[dict[str, Any]] = []
    while True:
        window = api.get(f"/api/documents/{document_id}/blocks", params={"start": len(blocks), "limit": 200}).json()
        blocks += window["blocks"]
        if not window["has_after"]:
            return blocks


def _document(api: httpx.Client, document_id: str) -> dict[str, Any]:
    response = api.get(f"/api/documents/{document_id}")
    assert response.status_code == 200, response.text
    document: dict[str, Any] = response.json()
    return document


@needs_tesseract
def test_text_in_a_word_documents_picture_is_searchable_in_its_section(api: httpx.Client, unique: Unique,
                                                                       tmp_path: Path) -> None:
    # Before: a DOCX's pictures were skipped, so the words on the board were nowhere in the vault.
    name = unique("plant-cells-handout.docx")
    doc = ingest(api, {name: _handout(tmp_path / "handout", _picture(BOARD).getvalue())}, timeout_s=120)[name]
    assert _document(api, doc["id"])["status"] == "ready"
    hits = [hit for hit in _hits(api, "light energy into chemical energy", doc["id"])
            if "light energy into chemical" in " ".join(hit["text"].split())]
    assert hits, "the picture's words were not found"
    assert {hit["section"] for hit in hits} == {"Plant cells"}
    # The text viewer shows it right after the paragraph that holds the picture, before the next paragraph.
    blocks = _all_blocks(api, doc["id"])
    shown = "\n".join(block["text"] for block in blocks)
    at = shown.index("Text in picture:")
    assert shown.index("end of the chloroplast lecture:") < at < shown.index("Ask the tutor about")
    assert "Photosynthesis converts light energy" in " ".join(shown[at:].split())
    picture_block = next(block for block in blocks if "Text in picture:" in block["text"])
    assert picture_block["section"] == "Plant cells"
    assert all("Text in picture:" not in block["text"] for block in blocks if block["section"] == "Animal cells")


@needs_tesseract
def test_a_corrupt_picture_in_a_word_document_leaves_it_ready(api: httpx.Client, unique: Unique,
                                                              tmp_path: Path) -> None:
    # Four pictures in one paragraph: one legible; one whose bytes are no image at all but are declared
    # image/png (python-docx cannot read its header); one a PNG cut short (its header reads, its pixels
    # do not decode); one a JPEG cut short inside its header (python-docx's parser raises a bare Exception).
    legible = _picture(BOARD).getvalue()
    garbage_source = _picture("first placeholder", width=800, height=200).getvalue()
    cut_source = _picture("second placeholder", width=900, height=200).getvalue()
    jpeg = io.BytesIO()
    Image.open(_picture("third placeholder", width=1000, height=200)).convert("RGB").save(jpeg, format="JPEG")
    jpeg_source = jpeg.getvalue()
    built = io.BytesIO(_handout(tmp_path / "handout", legible, garbage_source, cut_source, jpeg_source))
    out = io.BytesIO()
    with zipfile.ZipFile(built) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item)
            if data == garbage_source:
                data = b"this is not a picture at all " * 40
            elif data == cut_source:
                data = data[: len(data) // 2]
            elif data == jpeg_source:
                data = data[:100]
            target.writestr(item, data)
    name = unique("handout-with-broken-pictures.docx")
    doc = ingest(api, {name: out.getvalue()}, timeout_s=120)[name]
    document = _document(api, doc["id"])
    assert document["status"] == "ready", document
    shown = "\n".join(block["text"] for block in _all_blocks(api, doc["id"]))
    assert "Ask the tutor about anything on the board." in shown  # the document's own text is all there
    assert "Animal cells have no cell wall." in shown
    assert shown.count("Text in picture:") == 1  # the legible picture is read, the broken ones add nothing
    assert "light energy into chemical" in " ".join(shown.split())
    assert "placeholder" not in shown


@needs_tesseract
def test_the_corpus_word_sample_keeps_its_text_and_gains_no_picture_noise(api: httpx.Client, unique: Unique) -> None:
    # Its one picture (a drawing of a duck) holds no text: OCR'ing it must add nothing.
    name = unique("docling-word-sample.docx")
    doc = ingest(api, {name: (CORPUS / "docling-word-sample.docx").read_bytes()}, timeout_s=120)[name]
    document = _document(api, doc["id"])
    assert document["status"] == "ready"
    assert document["warnings"] == []
    blocks = _all_blocks(api, doc["id"])
    assert all("Text in picture" not in block["text"] for block in blocks)
    probes = next(entry["probes"] for entry in manifest() if entry["file"] == "docling-word-sample.docx")
    assert probes
    for probe in probes:
        assert any(contains(hit["text"], probe["text"]) for hit in _hits(api, probe["text"], doc["id"])), probe


def test_formulas_without_cached_values_show_their_formula(api: httpx.Client, unique: Unique,
                                                           tmp_path: Path) -> None:
    # openpyxl, like pandas and many exporters, writes formulas without a cached result. Before: such a
    # cell read as empty, so the totals row came out as "| Total |" and the formula was lost.
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Budget"
    for row in (["Item", "Cost", "With tax"], ["Rent", 500, "=B2*1.2"], ["Food", 250, "=B3*1.2"],
                ["Books", 80, "=B4*1.2"], ["Total", "=SUM(B2:B4)", "=SUM(C2:C4)"]):
        sheet.append(row)
    path = tmp_path / "budget.xlsx"
    workbook.save(path)
    name = unique("budget.xlsx")
    doc = ingest(api, {name: path.read_bytes()}, timeout_s=60)[name]
    blocks = api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"]
    rows = [row for block in blocks if block.get("table") for row in block["table"]["rows"]]
    assert ["Total", "=SUM(B2:B4)", "=SUM(C2:C4)"] in rows
    assert ["Rent", "500", "=B2*1.2"] in rows  # a value stays a value beside its row's formula
    hits = _hits(api, "Total", doc["id"])
    assert any("=SUM(B2:B4)" in hit["text"] for hit in hits)
