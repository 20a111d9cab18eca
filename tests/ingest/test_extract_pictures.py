"""OCR of pictures on slides, in real sandbox workers and in process: progress per slide, a picture shown on
two slides, dark text on a transparent background, and the pixel cap."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont
from pptx import Presentation
from pptx.util import Inches

from backend.ingest.extract.pptx import extract_pptx
from backend.ingest.sandbox import Limits, SandboxPool, extract_sandboxed
from backend.ingest.types import ExtractProgress
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


def test_pictures_are_read_in_workers_with_progress_per_slide(tmp_path: Path) -> None:
    shared = _text_png("Osmosis moves water across membranes")
    path = _deck(tmp_path / "deck", [[], [shared], [shared, _text_png("Diffusion needs no energy")]])
    reports: list[ExtractProgress] = []
    pool = SandboxPool(2, Limits())
    try:
        result = extract_sandboxed(pool, path, "pptx", ocr_languages="eng", on_progress=reports.append)
    finally:
        pool.close()
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
