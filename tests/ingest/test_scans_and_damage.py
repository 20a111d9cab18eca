"""Scanned pages turned the wrong way, pages OCR cannot read reliably, and PDFs cut short — through the
upload API of a real server, with the corpus's own scan and PDFs (../shared/corpus)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import psutil
import pymupdf
import pytest
from PIL import Image, ImageOps

from tests.support.corpus import CORPUS, contains, manifest
from tests.support.documents import make_pdf, tesseract_available
from tests.support.hostile import tree
from tests.support.server import QuireServer
from tests.support.vault import TERMINAL, ingest, upload

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")
SCAN = CORPUS / "huckleberry-finn-p22-scan.pdf"
SCAN_PROBES = ("We scrouched down and laid still", "there was a light behind him")


def _scan_image() -> Image.Image:
    with pymupdf.open(SCAN) as document:
        pixmap = document[0].get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)
        return Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)


def _image_pdf(path: Path, image: Image.Image, text_page: str | None = None) -> Path:
    """A PDF of `image` as a scanned page, after a text page when `text_page` is given."""
    document = pymupdf.open()
    if text_page is not None:
        document.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 770), text_page, fontsize=11)
    png = path.with_suffix(".png")
    image.save(png)
    page = document.new_page(width=image.width * 72 / 150, height=image.height * 72 / 150)
    page.insert_image(page.rect, filename=str(png))
    document.save(path, deflate=True)
    document.close()
    return path


def _document(api: httpx.Client, name: str) -> dict:
    return next(doc for doc in api.get("/api/documents").json() if doc["filename"] == name)


def _hits_in(api: httpx.Client, query: str, document_id: str) -> list[dict]:
    # Scoped to the document: the shared test server holds other scans with the same words.
    hits = api.get("/api/search", params={"q": query, "k": 10, "mode": "sparse", "documents": document_id}).json()
    return [hit for hit in hits["hits"] if hit["document_id"] == document_id]


@needs_tesseract
def test_an_upside_down_scan_yields_readable_text(api: httpx.Client, unique: Callable[[str], str],
                                                  tmp_path: Path) -> None:
    name = unique("upside-down.pdf")
    pdf = _image_pdf(tmp_path / "upside-down.pdf", _scan_image().rotate(180))
    document = ingest(api, {name: pdf.read_bytes()}, timeout_s=180)[name]
    stored = _document(api, name)
    assert stored["status"] == "ready", stored
    assert not stored["warnings"], stored
    assert not stored["page_warnings"], stored
    for probe in SCAN_PROBES:
        hits = _hits_in(api, probe, document["id"])
        assert any(contains(hit["text"], probe, ocr=True) and hit["page"] == 1 for hit in hits), (probe, hits)


@needs_tesseract
def test_a_page_ocr_cannot_read_reliably_is_a_warning_not_text(api: httpx.Client, unique: Callable[[str], str],
                                                               tmp_path: Path) -> None:
    # A mirrored scan: no rotation makes it readable, so whatever tesseract guesses is garbage.
    name = unique("mirrored.pdf")
    typed = "Notes typed before the scanned page: the widow's garden, Tom Sawyer and the candle. " * 3
    pdf = _image_pdf(tmp_path / "mirrored.pdf", ImageOps.mirror(_scan_image()), text_page=typed)
    document = ingest(api, {name: pdf.read_bytes()}, timeout_s=180)[name]
    stored = _document(api, name)
    assert stored["status"] == "ready", stored
    # Said on its place (the upload card, the library and the viewer link to the page image), not as text.
    assert stored["page_warnings"] == [{"page": 2, "message": "page 2 could not be read reliably"}]
    assert stored["warnings"] == []
    pages = {hit["page"] for hit in _hits_in(api, "widow garden Tom Sawyer candle scrouched light", document["id"])}
    assert pages == {1}, "only the typed page may be stored as text"
    assert {block["page"] for block in api.get(f"/api/documents/{document['id']}/blocks").json()["blocks"]} == {1}
    image = api.get(f"/api/documents/{document['id']}/pages/2.png")
    assert image.status_code == 200, "the page image stays viewable"
    assert image.content.startswith(b"\x89PNG")


def test_a_pdf_cut_in_half_is_stored_with_a_warning_naming_the_lost_pages(
        api: httpx.Client, unique: Callable[[str], str], tmp_path: Path) -> None:
    full = make_pdf(tmp_path / "full.pdf", [f"Page {n} explains enzyme number {n} with enough words to be text."
                                             for n in range(1, 61)]).read_bytes()
    name = unique("cut-in-half.pdf")
    document = ingest(api, {name: full[: len(full) // 2]})[name]
    stored = _document(api, name)
    assert stored["status"] == "ready"
    assert stored["pages"] == 60
    (warning,) = stored["warnings"]
    lost = re.search(r"cut short or corrupted\): page\(s\) (\d+)-60 of 60 came out empty", warning)
    assert lost is not None, warning
    assert 20 < int(lost.group(1)) < 40  # about half the pages survive the cut
    hits = _hits_in(api, "Page 5 explains enzyme number 5", document["id"])
    assert any(hit["page"] == 5 for hit in hits)


def test_a_truncated_corpus_pdf_is_read_as_far_as_it_goes_with_a_warning(
        api: httpx.Client, unique: Callable[[str], str]) -> None:
    data = (CORPUS / "federal-register-2020-17221.pdf").read_bytes()
    name = unique("federal-register-truncated.pdf")
    document = ingest(api, {name: data[: int(len(data) * 0.9)]})[name]
    stored = _document(api, name)
    assert stored["status"] == "ready"
    assert any(warning.startswith("This PDF is damaged") for warning in stored["warnings"]), stored["warnings"]
    hits = _hits_in(api, "This section of the FEDERAL REGISTER", document["id"])
    assert any(hit["page"] == 1 for hit in hits)


@pytest.mark.slow  # OCR of a scanned PDF's pages: about 14 s (the fast tier stays under 5 min)
@needs_tesseract
def test_the_pages_of_a_scanned_pdf_are_read_in_parallel(quire: QuireServer, api: httpx.Client,
                                                         unique: Callable[[str], str], tmp_path: Path) -> None:
    assert quire.process is not None
    # Full pages: tesseract takes a second or more on each, so two workers overlap even on a busy machine.
    pages = [f"Scanned page {n} about moraines, drumlins and eskers of the last ice age. " +
             "Glaciers carve valleys and leave till, erratics and kettle lakes behind them. " * 12
             for n in range(1, 5)]
    name = unique("scanned-stack.pdf")
    response = upload(api, {name: make_pdf(tmp_path / "s.pdf", pages, scanned=range(1, 5)).read_bytes()})
    assert response.status_code == 202, response.text
    most_at_once = 0
    deadline = time.monotonic() + 180
    while api.get(f"/api/ingest/{response.json()['workflow_id']}").json()["status"] not in TERMINAL:
        assert time.monotonic() < deadline
        readers = [p for p in tree(quire.process.pid) if _is_tesseract(p)]
        most_at_once = max(most_at_once, len(readers))
        time.sleep(0.02)
    document = _document(api, name)
    assert (document["status"], document["pages"]) == ("ready", 4)
    assert most_at_once >= min(2, len(os.sched_getaffinity(0))), "pages were OCR'd one after another"
    for n in range(1, 5):
        assert any(hit["page"] == n for hit in _hits_in(api, f"Scanned page {n} moraines", document["id"]))


def _is_tesseract(process: psutil.Process) -> bool:
    try:
        return process.name() == "tesseract"
    except psutil.Error:
        return False


@pytest.mark.slow  # OCR of four scanned pages: about 19 s (the fast tier stays under 5 min)
@needs_tesseract
def test_a_public_scan_in_four_orientations_is_read_upright_on_every_page(
        api: httpx.Client, unique: Callable[[str], str]) -> None:
    # OCRmyPDF's cardinal.pdf (../shared/corpus): one brochure page upright, at 90°, upside down, at 270°,
    # turned by its makers, not by us.
    source = "linn-brochure-four-orientations-scan.pdf"
    name = unique(source)
    document = ingest(api, {name: (CORPUS / source).read_bytes()}, timeout_s=300)[name]
    stored = _document(api, name)
    assert (stored["status"], stored["pages"]) == ("ready", 4), stored
    assert (stored["warnings"], stored["page_warnings"]) == ([], []), stored
    blocks = api.get(f"/api/documents/{document['id']}/blocks").json()["blocks"]
    for probe in next(entry for entry in manifest() if entry["file"] == source)["probes"]:
        page = probe["where"]["page"]
        # Each probe on its page; search finds it (the four pages hold the same text, so which page's
        # passage ranks first is the index's choice).
        on_page = " ".join(block["text"] for block in blocks if block["page"] == page)
        assert contains(on_page, probe["text"], ocr=True), (probe, on_page[:600])
        hits = _hits_in(api, probe["text"], document["id"])
        assert any(contains(hit["text"], probe["text"], ocr=True) for hit in hits), (probe, hits)
    words = {page: re.findall(r"[a-z]{4,}", " ".join(b["text"] for b in blocks if b["page"] == page).casefold())
             for page in (1, 2, 3, 4)}
    upright = set(words[1])
    for page in (2, 3, 4):  # no garbage beside the probes: a turned page reads as the upright one does
        known = sum(word in upright for word in words[page]) / max(1, len(words[page]))
        assert known > 0.8, (page, known, words[page][:80])
