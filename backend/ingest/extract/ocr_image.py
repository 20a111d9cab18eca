"""A page image made ready for tesseract, with the map back to where each pixel came from.

Scans arrive grey on grey, unevenly lit, tilted, sideways or upside down; tesseract binarises with one
global (Otsu) threshold and expects level lines. So, before recognition:

- **Even lighting** (`flatten`): the page's background is estimated on a copy shrunk 8x (a maximum filter
  removes the dark text, a blur smooths what is left) and the image divided by it, so paper that goes
  from white to grey across a photo becomes white everywhere, and ink stands out from it however faint.
  Text printed in mid-grey on grey paper (a faded copy) reads after this; before, tesseract found no word
  at all on such pages of the tuning set, and only half the words of a page lit from one side.
- **Lines level** (`line_direction`): a projection-profile search over small angles on a copy at most
  SKEW_SAMPLE_PX wide, over both axes at once: when the columns' profile is the more peaked, the text
  runs up or down the page (turned by 90 or 270 degrees), which is then turned a quarter first, so the
  skew is measured along the lines.
- **Upright** is decided by recognition itself (backend/ingest/extract/ocr.py): tesseract's orientation
  detection, and when in doubt the page read both ways.

Every step is a `Turn` of the image, and each keeps the affine map from the new image's pixels back to
the old one's, so a word's box found on the prepared image is placed on the page as it is shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter

MAX_SKEW_DEG = 5.0
SKEW_SAMPLE_PX = 800
_SKEW_STEP_DEG = 0.25
_MIN_SKEW_DEG = 0.3  # smaller tilts are within what tesseract's line finder absorbs
_BACKGROUND_SHRINK = 8
_MARGIN = 0.1
# Columns must be this much more peaked than rows to call the lines sideways: on the tuning pages the
# ratio was at most 0.56 for upright or upside-down text and at least 2.4 for text turned a quarter;
# aligned columns (a table, code) raise it for upright pages, and recognition reads a page turned a
# quarter anyway, so a margin costs less than a wrong turn.
SIDEWAYS_RATIO = 1.5


@dataclass(frozen=True)
class Affine:
    """x, y in one image -> (a x + b y + c, d x + e y + f) in another (PIL's AFFINE data order)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 0.0
    e: float = 1.0
    f: float = 0.0

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f

    def then(self, outer: Affine) -> Affine:
        """This map followed by `outer`."""
        return Affine(outer.a * self.a + outer.b * self.d, outer.a * self.b + outer.b * self.e,
                      outer.a * self.c + outer.b * self.f + outer.c,
                      outer.d * self.a + outer.e * self.d, outer.d * self.b + outer.e * self.e,
                      outer.d * self.c + outer.e * self.f + outer.f)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """The upright box around the rectangle's four corners, mapped."""
        corners = [self.apply(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Prepared:
    """An image to read and the map from its pixels to those of the image it was made from."""

    image: Image.Image
    to_source: Affine

    def turned(self, degrees: float, *, resample: Image.Resampling = Image.Resampling.BILINEAR) -> Prepared:
        """This image turned counter-clockwise by `degrees` (on a larger canvas, filled white)."""
        if degrees % 360 == 0:
            return self
        turned, back = rotate(self.image, degrees, resample)
        return Prepared(turned, back.then(self.to_source))

    def scaled(self, factor: float) -> Prepared:
        size = (round(self.image.width * factor), round(self.image.height * factor))
        back = Affine(a=self.image.width / size[0], e=self.image.height / size[1])
        return Prepared(self.image.resize(size, Image.Resampling.LANCZOS), back.then(self.to_source))


def rotate(image: Image.Image, degrees: float, resample: Image.Resampling) -> tuple[Image.Image, Affine]:
    """`image` turned counter-clockwise by `degrees` with the whole of it kept, and the map from the
    turned image's pixels back to the original's. Quarter turns are exact (a transpose)."""
    quarter = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_270}
    width, height = image.size
    turns = degrees % 360
    if turns in quarter:
        back = {90: Affine(a=0, b=-1, c=width, d=1, e=0, f=0),
                180: Affine(a=-1, b=0, c=width, d=0, e=-1, f=height),
                270: Affine(a=0, b=1, c=0, d=-1, e=0, f=height)}[int(turns)]
        return image.transpose(quarter[int(turns)]), back
    radians = math.radians(degrees)
    cos, sin = math.cos(radians), math.sin(radians)
    new_width = math.ceil(abs(width * cos) + abs(height * sin))
    new_height = math.ceil(abs(width * sin) + abs(height * cos))
    # Output (x, y) -> input: undo the counter-clockwise turn about the centres (y grows downwards).
    dx, dy = new_width / 2, new_height / 2
    back = Affine(a=cos, b=-sin, c=width / 2 - cos * dx + sin * dy, d=sin, e=cos, f=height / 2 - sin * dx - cos * dy)
    data = (back.a, back.b, back.c, back.d, back.e, back.f)
    turned = image.transform((new_width, new_height), Image.Transform.AFFINE, data, resample=resample, fillcolor=255)
    return turned, back


def flatten(image: Image.Image) -> Image.Image:
    """The grey image with its background made evenly white and its darkest ink black (see the module)."""
    small = image.resize((max(image.width // _BACKGROUND_SHRINK, 1), max(image.height // _BACKGROUND_SHRINK, 1)),
                         Image.Resampling.BOX)
    background = small.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(2))
    paper = np.asarray(background.resize(image.size, Image.Resampling.BILINEAR), dtype=np.float32)
    ink = np.asarray(image, dtype=np.float32)
    # No contrast stretch after: on a page with little text the darkest half per cent is paper, and
    # stretching it turned the paper's last grey levels into stripes that hid the text.
    return Image.fromarray(np.clip(ink * 255 / np.maximum(paper, 1), 0, 255).astype(np.uint8))


def line_direction(image: Image.Image) -> tuple[bool, float]:
    """Whether the text lines run up or down the image (sideways), and the counter-clockwise angle (degrees)
    that levels them once turned a quarter if sideways: the angle whose row (or column) profile of dark
    pixels is the most peaked (lines and gaps alternate sharply when level)."""
    # The page without its margins: a scan's edges (the scanner's lid, a shadow, paper beyond the page)
    # are long dark bands that outweigh the lines' rhythm.
    width, height = image.size
    sample = image.crop((round(width * _MARGIN), round(height * _MARGIN), round(width * (1 - _MARGIN)),
                         round(height * (1 - _MARGIN))))
    sample.thumbnail((SKEW_SAMPLE_PX, SKEW_SAMPLE_PX))
    grey = np.asarray(sample)
    ink = Image.fromarray(((grey < ink_threshold(grey)) * 255).astype(np.uint8))
    if not np.asarray(ink).any():
        return False, 0.0
    best = {False: (-1.0, 0.0), True: (-1.0, 0.0)}  # sideways -> (score, angle)
    steps = int(MAX_SKEW_DEG / _SKEW_STEP_DEG)
    for step in range(-steps, steps + 1):
        angle = step * _SKEW_STEP_DEG
        turned = np.asarray(ink.rotate(angle, resample=Image.Resampling.NEAREST), dtype=np.float32)
        for sideways, axis in ((False, 1), (True, 0)):
            score = float(np.square(np.diff(turned.sum(axis=axis))).sum())
            if score > best[sideways][0]:
                best[sideways] = (score, angle)
    # Measured on the sideways image, the tilt of its columns is the tilt of the lines once turned a
    # quarter (counter-clockwise), with the same sign.
    sideways = best[True][0] > SIDEWAYS_RATIO * best[False][0]
    return sideways, best[sideways][1]


def ink_threshold(grey: np.ndarray) -> int:
    """Otsu's threshold between ink and paper (what tesseract binarises with): faint grey ink on evened
    paper is ink too, which a fixed threshold of 128 took for paper."""
    counts = np.bincount(grey.ravel(), minlength=256).astype(np.float64)
    levels = np.arange(256, dtype=np.float64)
    below, below_sum = np.cumsum(counts), np.cumsum(counts * levels)
    above = below[-1] - below
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = below * above * np.square(below_sum / below - (below_sum[-1] - below_sum) / above)
    return int(np.nanargmax(spread)) + 1 if np.isfinite(spread).any() else 128


def level(image: Image.Image) -> Prepared:
    """The flattened image with its lines horizontal (turned a quarter if sideways, skew removed): up or
    down is left to recognition."""
    prepared = Prepared(flatten(image), Affine())
    sideways, angle = line_direction(prepared.image)
    if sideways:
        prepared = prepared.turned(90)
    if abs(angle) >= _MIN_SKEW_DEG:
        prepared = prepared.turned(angle)
    return prepared
