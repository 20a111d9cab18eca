"""Preparing a page image for OCR (backend/ingest/extract/ocr_image.py): every turn keeps the map back to
the original pixels (so word boxes land on the page as shown), faint text on unevenly lit paper is evened
out, and sideways or tilted lines are found from the image."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from backend.ingest.extract.ocr_image import Affine, Prepared, flatten, ink_threshold, level, line_direction


def _ink_box(image: Image.Image) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(np.asarray(image) < 128)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


@pytest.mark.parametrize("degrees", [90, 180, 270, 3.5, -2.0, 93.5])
def test_a_turned_image_maps_its_pixels_back_to_where_they_came_from(degrees: float) -> None:
    image = Image.new("L", (600, 400), 255)
    ImageDraw.Draw(image).rectangle((420, 60, 480, 90), fill=0)
    turned = Prepared(image, Affine()).turned(degrees).turned(0)
    x0, y0, x1, y1 = turned.to_source.box(*_ink_box(turned.image))
    # The box of the turned square, mapped back, holds the square (a tilted square's box is a little larger).
    assert (x0, y0) == pytest.approx((420, 60), abs=4)
    assert (x1, y1) == pytest.approx((481, 91), abs=4)


WORDS = ["glaciers", "carve", "deep", "valleys", "and", "leave", "moraines", "drumlins", "eskers", "kettle", "lakes",
         "erratics", "behind", "them"]


def _lines(size: tuple[int, int] = (1200, 1600), ink: int = 0, paper: int = 255) -> Image.Image:
    """A page of lines of text, each line different (as a page's are)."""
    image = Image.new("L", size, paper)
    draw, font = ImageDraw.Draw(image), ImageFont.load_default(size=22)
    for number, y in enumerate(range(150, size[1] - 150, 40)):
        line = " ".join(WORDS[(number * 5 + k * 3) % len(WORDS)] for k in range(12)).capitalize()
        draw.text((120, y), line, font=font, fill=ink)
    return image


@pytest.mark.parametrize(("turn", "sideways"), [(0, False), (90, True), (180, False), (270, True)])
@pytest.mark.parametrize("tilt", [0.0, 2.5, -4.0])
def test_sideways_and_tilted_lines_are_found(turn: int, sideways: bool, tilt: float) -> None:
    image = _lines().rotate(tilt, expand=True, fillcolor=255).rotate(turn, expand=True, fillcolor=255)
    found_sideways, angle = line_direction(flatten(image))
    assert found_sideways == sideways
    assert angle == pytest.approx(-tilt, abs=0.3)
    # Levelled, the lines run across: rows are more peaked than columns.
    levelled = np.asarray(level(image).image) < 128
    rows, columns = levelled.sum(axis=1), levelled.sum(axis=0)
    assert np.square(np.diff(rows)).sum() > np.square(np.diff(columns)).sum()


def test_faint_text_on_unevenly_lit_paper_stands_out_after_flattening() -> None:
    faint = np.asarray(_lines(ink=150, paper=200), dtype=np.float32)
    lit = Image.fromarray((faint * np.linspace(0.6, 1.0, faint.shape[1])[None, :]).astype(np.uint8))
    even = np.asarray(flatten(lit))
    paper = even[even > ink_threshold(even)]
    # The paper is one even white from the dark side to the bright one; before, Otsu's threshold on the
    # raw image cut right through the paper's gradient.
    assert paper.min() > 200
    left, right = even[:, :300], even[:, -300:]
    assert abs(float(left[left > 200].mean()) - float(right[right > 200].mean())) < 6
