"""PDF extraction: page numbers, paragraphs, bookmarks as sections, OCR of scanned pages, progress, errors."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from backend.ingest.extract import extract_document
from backend.ingest.extract.pdf import DEFAULT_MAX_PAGE_PIXELS, extract_pdf_pages, ocr_pdf_pages
from backend.ingest.types import ExtractionError, ExtractProgress
from tests.support.documents import (
    make_encrypted_pdf,
    make_outlined_pdf,
    make_pdf,
    make_scanned_pdf,
    make_truncated_pdf,
    tesseract_available,
)

SCANNED_TEXT = "Photosynthesis converts light energy into chemical energy."
needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")


def filler(topic: str) -> str:
    return f"This page explains {topic} in enough words to count as a real text layer for extraction."


def test_pages_in_order_with_one_based_numbers(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "a.pdf", [filler("mitosis"), filler("meiosis"), filler("osmosis")])
    result = extract_document(path, "pdf")
    assert result.pages == 3
    assert [unit.page for unit in result.units] == [1, 2, 3]
    assert [unit.kind for unit in result.units] == ["text"] * 3
    assert "mitosis" in result.units[0].text
    assert "osmosis" in result.units[2].text
    assert result.warnings == []
    assert result.ocr_pages == 0


def test_blocks_become_paragraphs(tmp_path: Path) -> None:
    text = "Chapter One\n\n" + filler("first paragraph") + "\n\n" + filler("second paragraph")
    path = make_pdf(tmp_path / "a.pdf", [text])
    unit = extract_document(path, "pdf").units[0]
    assert unit.text.startswith("Chapter One")
    assert "\n\n" in unit.text
    assert "second paragraph" in unit.text


def test_umlauts_survive(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "de.pdf", ["Die Größe der Zellen ändert sich während der Teilung. " * 2])
    assert "Größe" in extract_document(path, "pdf").units[0].text


def test_bookmarks_become_sections(tmp_path: Path) -> None:
    pages = [filler(f"topic {n}") for n in range(1, 5)]
    toc = [(1, "Cells", 1), (2, "Membranes", 2), (1, "Plants", 4)]
    path = make_pdf(tmp_path / "a.pdf", pages, toc=toc)
    sections = [unit.section for unit in extract_document(path, "pdf").units]
    assert sections == ["Cells", "Cells > Membranes", "Cells > Membranes", "Plants"]


def test_progress_for_every_page(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "a.pdf", [filler(str(n)) for n in range(5)])
    events: list[ExtractProgress] = []
    extract_pdf_pages(path, on_progress=events.append)
    assert events == [ExtractProgress(n, 5, f"page {n} of 5") for n in range(1, 6)]


def test_blank_page_is_skipped_without_units(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "a.pdf", [filler("one"), "", filler("three")])
    result = extract_document(path, "pdf")
    assert result.pages == 3
    assert [unit.page for unit in result.units] == [1, 3]


def test_short_text_page_keeps_its_text_layer_without_ocr(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "title.pdf", ["Chapter 3: Enzymes"])
    result = extract_document(path, "pdf")
    assert [(unit.kind, unit.text) for unit in result.units] == [("text", "Chapter 3: Enzymes")]
    assert result.ocr_pages == 0


@needs_tesseract
def test_scanned_page_is_ocred(tmp_path: Path) -> None:
    path = make_scanned_pdf(tmp_path / "scan.pdf", SCANNED_TEXT)
    events: list[ExtractProgress] = []
    result = extract_document(path, "pdf", ocr_languages="eng", on_progress=events.append)
    assert len(result.units) == 1
    unit = result.units[0]
    assert (unit.kind, unit.page) == ("ocr", 1)
    assert "photosynthesis converts light" in " ".join(unit.text.lower().split())
    assert result.ocr_pages == 1
    assert events == [ExtractProgress(1, 1, "page 1 of 1 (OCR)")]


@needs_tesseract
def test_pages_read_in_one_tesseract_run_read_as_each_alone(tmp_path: Path) -> None:
    words = ("alpha", "bravo", "charlie")
    path = make_pdf(tmp_path / "scans.pdf", [f"Page {word} explains glaciers, moraines and drumlins of the last "
                                             "ice age." for word in words], scanned={1, 2, 3})
    together = ocr_pdf_pages(path, [1, 2, 3], "eng", DEFAULT_MAX_PAGE_PIXELS)
    alone = [ocr_pdf_pages(path, [number], "eng", DEFAULT_MAX_PAGE_PIXELS)[0] for number in (1, 2, 3)]
    assert together == alone  # text, words, boxes and confidences: each page's own
    assert [page.number for page in together] == [1, 2, 3]
    for page, word in zip(together, words, strict=True):
        assert f"page {word} explains" in page.text.lower()
        assert page.words


@needs_tesseract
def test_text_drawn_as_outlines_is_ocred(tmp_path: Path) -> None:
    path = make_outlined_pdf(tmp_path / "poster.pdf", SCANNED_TEXT)
    result = extract_document(path, "pdf", ocr_languages="eng")
    assert [(unit.kind, unit.page) for unit in result.units] == [("ocr", 1)]
    assert "photosynthesis converts light" in " ".join(result.units[0].text.lower().split())


@needs_tesseract
def test_mixed_document_ocrs_only_the_scanned_page(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "mixed.pdf", [filler("typed text"), SCANNED_TEXT], scanned={2})
    result = extract_document(path, "pdf")
    assert [(unit.page, unit.kind) for unit in result.units] == [(1, "text"), (2, "ocr")]
    assert "chemical energy" in result.units[1].text.lower()


def test_without_tesseract_scanned_pages_are_skipped_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_pdf(tmp_path / "scans.pdf", [SCANNED_TEXT, filler("typed"), SCANNED_TEXT], scanned={1, 3})
    events: list[ExtractProgress] = []
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))  # tesseract cannot be found
    result = extract_pdf_pages(path, on_progress=events.append)
    assert [unit.page for unit in result.units] == [2]
    assert len(result.warnings) == 1
    assert "2 page(s)" in result.warnings[0]
    assert "tesseract" in result.warnings[0]
    assert result.ocr_pages == 0
    assert [event.detail for event in events] == ["page 1 of 3", "page 2 of 3", "page 3 of 3"]


@needs_tesseract
def test_missing_language_pack_skips_with_one_warning(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "scans.pdf", ["A page with a text layer that is long enough to be kept as it is.",
                                             SCANNED_TEXT], scanned={2})
    result = extract_pdf_pages(path, ocr_languages="eng+qqq")
    assert [unit.page for unit in result.units] == [1]
    assert len(result.warnings) == 1
    assert "qqq" in result.warnings[0]


def test_missing_language_pack_with_nothing_else_to_read_fails_saying_so(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "scans.pdf", [SCANNED_TEXT, SCANNED_TEXT], scanned={1, 2})
    with pytest.raises(ExtractionError) as caught:
        extract_pdf_pages(path, ocr_languages="eng+qqq")
    assert caught.value.code == "no_text"
    assert "OCR is not available to read them" in caught.value.message
    assert "qqq" in caught.value.message


def test_encrypted_pdf_raises(tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "secret.pdf")
    with pytest.raises(ExtractionError) as caught:
        extract_document(path, "pdf")
    assert caught.value.code == "pdf_encrypted"


def test_owner_password_only_pdf_is_read(tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "restricted.pdf", "Restricted but readable notes", user_password="")
    result = extract_document(path, "pdf")
    assert [unit.text for unit in result.units] == ["Restricted but readable notes"]


def test_corrupt_pdf_raises(tmp_path: Path) -> None:
    path = make_truncated_pdf(tmp_path / "cut.pdf", keep_bytes=300)
    with pytest.raises(ExtractionError) as caught:
        extract_document(path, "pdf")
    assert caught.value.code == "pdf_corrupt"
    assert caught.value.message.startswith("This PDF is damaged")


def test_partially_truncated_pdf_keeps_what_can_be_read(tmp_path: Path) -> None:
    full = make_pdf(tmp_path / "full.pdf", [filler(f"part {n}") for n in range(1, 6)])
    data = full.read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: int(len(data) * 0.9)])
    result = extract_pdf_pages(path, ocr_languages="eng")
    assert result.units, "a repairable PDF must yield its readable pages"
    assert "part 1" in result.units[0].text


def test_printed_page_labels_are_kept_next_to_physical_pages(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "labelled.pdf", [filler("the preface"), filler("the intro"), filler("chapter one")])
    with pymupdf.open(path) as document:
        # Front matter in roman numerals, then the body numbered from 1: how books and theses print pages.
        document.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                                  {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1}])
        document.save(tmp_path / "with-labels.pdf")
    units = extract_pdf_pages(tmp_path / "with-labels.pdf").units
    assert [(unit.page, unit.page_label) for unit in units] == [(1, "i"), (2, "ii"), (3, "1")]
    assert all(unit.page_label is None for unit in extract_pdf_pages(path).units)
