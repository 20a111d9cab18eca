"""OCR of pictures on slides and in Word documents, in real sandbox workers and in process: progress per
slide (per picture in a Word document), a picture shown twice read once, dark text on a transparent
background, the pixel cap, pictures in a Word table, and a picture whose job breaks a limit."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import docx
import pytest
from docx.shared import Inches as DocxInches
from PIL import Image, ImageDraw, ImageFont
from pptx import Presentation
from pptx.util import Inches

from backend.ingest.extract.docx import extract_docx
from backend.ingest.extract.pptx import extract_pptx
from backend.ingest.sandbox import Limits, SandboxPool, extract_sandboxed
from backend.ingest.types import ExtractProgress, ExtractResult
from backend.store.kinds import DocKind
from tests.support.documents import render_text_image, tesseract_available

pytestmark = pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")


def _deck(path: Path, pictures: list[list[bytes]]) -> Path:
    """One blank slide per entry, each picture 9 x 3.2 inches (well above the 2% threshold)."""
    deck = Presentation()
    for row in pictures:
        slide = deck.slides.add_slide(deck.slide_layouts[6])
        for index, data in enumerate(row):
            slide.shapes.add_picture(io.BytesIO(data), Inches(0.5), Inches(0.5 + 3.5 * index), Inches(9),
                                     Inches(3.2))
    deck.save(str(path))
    return path


def _text_png(text: str) -> bytes:
    return render_text_image(text, width=1400, height=400)


def _in_pool(path: Path, kind: DocKind, limits: Limits, reports: list[ExtractProgress]) -> ExtractResult:
    """`path` read by a pool of two real sandbox workers under `limits`, progress appended to `reports`."""
    pool = SandboxPool(2, limits)
    try:
        return extract_sandboxed(pool, path, kind, ocr_languages="eng", on_progress=reports.append)
    finally:
        pool.close()


def test_pictures_are_read_in_workers_with_progress_per_slide(tmp_path: Path) -> None:
    shared = _text_png("Osmosis moves water across membranes")
    path = _deck(tmp_path / "deck", [[], [shared], [shared, _text_png("Diffusion needs no energy")]])
    reports: list[ExtractProgress] = []
    result = _in_pool(path, "pptx", Limits(), reports)
    by_slide = {unit.page: " ".join(unit.text.split()) for unit in result.units}
    assert set(by_slide) == {2, 3}  # slide 1 is empty
    assert by_slide[2] == "Text in picture: Osmosis moves water across membranes"
    assert "Osmosis moves water" in by_slide[3]  # the same picture, read once, on both slides
    assert "Diffusion needs no energy" in by_slide[3]
    assert reports[-1] == ExtractProgress(3, 3, "slide 3 of 3 (OCR)")
    assert [report.done for report in reports] == sorted(report.done for report in reports)


def test_dark_text_on_a_transparent_background_is_read(tmp_path: Path) -> None:
    # Flattened onto black, as a plain greyscale conversion does, the text would vanish.
    image = Image.new("RGBA", (1400, 400), (0, 0, 0, 0))
    font = ImageFont.load_default(size=40)
    ImageDraw.Draw(image).text((110, 150), "Enzymes lower activation energy", font=font, fill=(0, 0, 0, 255))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    result = extract_pptx(_deck(tmp_path / "deck", [[buffer.getvalue()]]), ocr_languages="eng")
    assert "Enzymes lower activation energy" in " ".join(result.units[0].text.split())


def test_a_picture_over_the_pixel_cap_is_skipped_with_a_warning(tmp_path: Path) -> None:
    path = _deck(tmp_path / "deck", [[], [_text_png("Too many pixels to decode")]])
    result = extract_pptx(path, ocr_languages="eng", max_pixels=500_000)  # the picture has 560,000
    assert result.units == []
    assert result.warnings == ["1 picture(s) on slide(s) 2 have more pixels than OCR may read safely; "
                               "their text is missing."]


def _word(path: Path, shared: bytes, in_table: bytes) -> Path:
    """Two sections showing the same picture, the second also a table with a picture in a cell."""
    document = docx.Document()
    document.add_heading("Transport", level=1)
    document.add_paragraph("Passive transport:").add_run().add_picture(io.BytesIO(shared), width=DocxInches(6))
    document.add_heading("Revision", level=1)
    document.add_paragraph("The same board again:").add_run().add_picture(io.BytesIO(shared), width=DocxInches(6))
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Term", "Board"
    table.cell(1, 0).text = "Diffusion"
    table.cell(1, 1).paragraphs[0].add_run().add_picture(io.BytesIO(in_table), width=DocxInches(3))
    document.add_paragraph("End of revision.")
    document.save(str(path))
    return path


def test_word_pictures_are_read_once_in_workers_and_placed_in_their_sections(tmp_path: Path) -> None:
    path = _word(tmp_path / "handout", _text_png("Osmosis moves water across membranes"),
                 _text_png("Diffusion needs no energy"))
    reports: list[ExtractProgress] = []
    result = _in_pool(path, "docx", Limits(), reports)
    assert result.warnings == []
    texts = [(unit.section, unit.kind, " ".join(unit.text.split())) for unit in result.units]
    assert texts == [
        ("Transport", "text", "Transport Passive transport: Text in picture: Osmosis moves water across membranes"),
        ("Revision", "text", "Revision The same board again: Text in picture: Osmosis moves water across membranes"),
        ("Revision", "table", "| Term | Board | | Diffusion | |"),
        ("Revision", "text", "Text in picture: Diffusion needs no energy End of revision."),
    ]
    # Two distinct pictures, each read once: the progress counts them.
    assert [report.detail for report in reports] == ["picture 1 of 2 (OCR)", "picture 2 of 2 (OCR)"]


def _dense_png() -> io.BytesIO:
    """24 megapixels of dense text (about 8,000 words): tesseract takes minutes of CPU on it."""
    image = Image.new("L", (5000, 4900), 255)
    draw, font = ImageDraw.Draw(image), ImageFont.load_default(size=24)
    for y in range(40, 4860, 36):
        draw.text((40, y), " ".join(["Mitochondria produce energy for the cell."] * 9), font=font, fill=0)
    dense = io.BytesIO()
    image.save(dense, format="PNG")
    return dense


def test_a_word_picture_whose_job_breaks_a_limit_leaves_the_text_and_a_warning(tmp_path: Path) -> None:
    # Far past a 3 s CPU limit (inherited by the tesseract the worker starts), so it is killed. The
    # document keeps its text and says which section's picture it lost.
    document = docx.Document()
    document.add_heading("Cell biology", level=1)
    document.add_paragraph("A scanned page follows.").add_run().add_picture(_dense_png(), width=DocxInches(6))
    document.add_paragraph("Read the chapter before the lab.")
    document.save(str(tmp_path / "scan"))
    result = _in_pool(tmp_path / "scan", "docx", Limits(cpu_s=3), [])
    assert [" ".join(unit.text.split()) for unit in result.units] == [
        "Cell biology A scanned page follows. Read the chapter before the lab."]
    assert result.warnings == ['OCR failed on 1 picture(s) under "Cell biology"; their text is missing.']
    # The tesseract the killed worker started went with it, rather than reading on for minutes unowned.
    deadline = time.monotonic() + 5
    while _orphaned_tesseracts() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _orphaned_tesseracts() == []


def test_a_picture_read_with_another_that_breaks_a_limit_keeps_its_text(tmp_path: Path) -> None:
    # One worker: both pictures go to one tesseract run, which the dense one makes break its 3 s of CPU.
    # Each is then read on its own, so only the dense one is lost.
    document = docx.Document()
    document.add_heading("Cell biology", level=1)
    document.add_paragraph("A scanned page follows.").add_run().add_picture(_dense_png(), width=DocxInches(6))
    document.add_heading("Osmosis", level=1)
    document.add_paragraph("A figure.").add_run().add_picture(
        io.BytesIO(_text_png("Osmosis moves water across membranes")), width=DocxInches(6))
    document.save(str(tmp_path / "two"))
    pool = SandboxPool(1, Limits(cpu_s=3))
    try:
        result = extract_sandboxed(pool, tmp_path / "two", "docx", ocr_languages="eng")
    finally:
        pool.close()
    text = " ".join(" ".join(unit.text.split()) for unit in result.units)
    assert "Text in picture: Osmosis moves water across membranes" in text
    assert "Mitochondria" not in text
    assert result.warnings == ['OCR failed on 1 picture(s) under "Cell biology"; their text is missing.']


def _orphaned_tesseracts() -> list[int]:
    """tesseract processes of this session whose parent is gone (adopted by init or a reaper outside it)."""
    session = os.getsid(0)
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
            if not stat or stat[stat.index("(") + 1:stat.rindex(")")] != "tesseract":
                continue
            parent, _, sid = (int(field) for field in stat[stat.rindex(")") + 2:].split()[1:4])
            if sid == session and (parent == 1 or os.getsid(parent) != session):
                found.append(int(entry.name))
        except (OSError, ValueError):  # gone meanwhile
            continue
    return found


def test_a_word_picture_over_the_pixel_cap_is_skipped_with_a_warning(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Before.").add_run().add_picture(io.BytesIO(_text_png("Too many pixels to decode")))
    document.add_paragraph("After.")
    document.save(str(tmp_path / "big"))
    result = extract_docx(tmp_path / "big", ocr_languages="eng", max_pixels=500_000)  # the picture has 560,000
    assert [unit.text for unit in result.units] == ["Before.\n\nAfter."]
    assert result.warnings == ["1 picture(s) in the document have more pixels than OCR may read safely; "
                               "their text is missing."]
