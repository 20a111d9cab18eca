"""OCR of one PDF page with tesseract: render within a pixel budget, straighten, recognise, judge.

- **Pixel cap.** A page is rendered at OCR_DPI unless its pixmap would exceed `max_pixels`; then the
  resolution is lowered to fit, and a page that would need less than MIN_OCR_DPI to fit is refused
  (a 200-inch poster page must not become a multi-gigabyte bitmap).
- **Orientation.** Recognition runs with ``--psm 1`` (page segmentation with tesseract's orientation
  and script detection), which reads pages turned by 90/180/270 degrees in the same pass at no extra
  cost. When a page still reads poorly, tesseract's OSD (`image_to_osd`) is asked explicitly and the
  page re-read turned upright; OSD fails on pages with too little text, so that is guarded.
- **Skew.** A projection-profile search over small angles on a downscaled copy (a few milliseconds)
  straightens scans tilted by up to MAX_SKEW_DEG before recognition.
- **Confidence.** Words come from `image_to_data` with their confidences; a page whose mean word
  confidence stays under LOW_CONFIDENCE is not stored as text but reported ("text could not be read
  reliably"): mirrored or upside-down garbage must not become searchable, citable text.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass

import numpy as np
import pymupdf
import pytesseract
from PIL import Image

OCR_DPI = 144
MIN_OCR_DPI = 48  # below this, body text is too small for tesseract: refusing beats reading noise
OCR_TIMEOUT_S = 120  # per tesseract call; the sandbox's CPU and wall caps bound the page as a whole
LOW_CONFIDENCE = 45.0  # mean word confidence (0-100); upside-down text reads at ~30, clean scans at ~90
MAX_SKEW_DEG = 5.0
_SKEW_STEP_DEG = 0.25
_SKEW_SAMPLE_PX = 800
_MIN_SKEW_DEG = 0.3  # smaller tilts are within what tesseract's line finder absorbs


@dataclass(frozen=True)
class PageOcr:
    """What OCR made of one page: its text (empty when unreadable) and what the user should know."""

    number: int
    text: str
    confidence: float | None
    warning: str | None = None
    failed: bool = False  # tesseract itself failed or timed out on this page
    too_large: bool = False  # refused: rendering it readably would exceed the pixel cap


def missing_ocr(languages: str) -> str | None:
    """What OCR lacks (tesseract itself or language packs), or None when it can run."""
    if shutil.which("tesseract") is None:
        return "OCR needs tesseract, which is not installed"
    try:
        installed = set(pytesseract.get_languages(config=""))
    except (pytesseract.TesseractError, pytesseract.TesseractNotFoundError, OSError):
        return "OCR needs tesseract, which could not be started"
    missing = [language for language in languages.split("+") if language and language not in installed]
    if missing:
        return "OCR needs the tesseract language pack(s) " + ", ".join(missing)
    return None


def render_dpi(page: pymupdf.Page, max_pixels: int) -> int | None:
    """The resolution to render `page` at within `max_pixels`, or None if it would be unreadably low."""
    width_in, height_in = page.rect.width / 72, page.rect.height / 72
    pixels = width_in * height_in * OCR_DPI * OCR_DPI
    if pixels <= max_pixels:
        return OCR_DPI
    dpi = int(OCR_DPI * math.sqrt(max_pixels / pixels))
    return dpi if dpi >= MIN_OCR_DPI else None


def ocr_page(page: pymupdf.Page, languages: str, max_pixels: int, with_osd: bool = True) -> PageOcr:
    """Render and read one page (1-based `page.number + 1` in the result)."""
    number = page.number + 1
    dpi = render_dpi(page, max_pixels)
    if dpi is None:
        inches = f"{page.rect.width / 72:.0f} x {page.rect.height / 72:.0f} inches"
        return PageOcr(number, "", None, f"page {number}: too large to read safely ({inches}); it was skipped",
                       too_large=True)
    pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    image = Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
    del pixmap
    try:
        return _read(number, deskew(image), languages, with_osd)
    except (pytesseract.TesseractError, RuntimeError):
        # RuntimeError: pytesseract's timeout; one unreadable page must not sink the document.
        return PageOcr(number, "", None, failed=True)


def _read(number: int, image: Image.Image, languages: str, with_osd: bool) -> PageOcr:
    text, confidence = read_upright(image, languages, with_osd)
    if confidence is not None and confidence < LOW_CONFIDENCE:
        return PageOcr(number, "", confidence,
                       f"page {number}: text could not be read reliably (OCR confidence {confidence:.0f}%); "
                       "it was left out")
    return PageOcr(number, text, confidence)


def read_upright(image: Image.Image, languages: str, with_osd: bool = True) -> tuple[str, float | None]:
    """`recognise`, read again turned upright (OSD) when it reads poorly and turning helps."""
    text, confidence = recognise(image, languages, with_osd)
    if confidence is not None and confidence < LOW_CONFIDENCE and with_osd:
        turned = _upright(image)
        if turned is not None:
            retry_text, retry_confidence = recognise(turned, languages, with_osd)
            if retry_confidence is not None and retry_confidence > confidence:
                text, confidence = retry_text, retry_confidence
    return text, confidence


def recognise(image: Image.Image, languages: str, with_osd: bool = True) -> tuple[str, float | None]:
    """Text with paragraphs and lines as tesseract found them, and the mean word confidence (None: no words)."""
    config = "--psm 1" if with_osd else "--psm 3"
    data = pytesseract.image_to_data(image, lang=languages, config=config, timeout=OCR_TIMEOUT_S,
                                     output_type=pytesseract.Output.DICT)
    paragraphs: dict[tuple[int, int], dict[int, list[str]]] = {}
    confidences: list[float] = []
    for index, word in enumerate(data["text"]):
        confidence = float(data["conf"][index])
        if confidence < 0 or not word.strip():
            continue
        confidences.append(confidence)
        key = (data["block_num"][index], data["par_num"][index])
        paragraphs.setdefault(key, {}).setdefault(data["line_num"][index], []).append(word.strip())
    text = "\n\n".join("\n".join(" ".join(words) for words in lines.values()) for lines in paragraphs.values())
    mean = sum(confidences) / len(confidences) if confidences else None
    return text, mean


def _upright(image: Image.Image) -> Image.Image | None:
    """The image turned the way tesseract's OSD says it should be read, or None if OSD has no opinion."""
    try:
        osd = pytesseract.image_to_osd(image, config="--psm 0", timeout=OCR_TIMEOUT_S,
                                       output_type=pytesseract.Output.DICT)
    except (pytesseract.TesseractError, RuntimeError):
        return None  # too little text to decide the orientation
    rotate = int(osd.get("rotate", 0)) % 360
    if rotate == 0:
        return None
    # OSD's `rotate` is clockwise; PIL turns counter-clockwise.
    return image.rotate(-rotate, expand=True, fillcolor=255)


def deskew(image: Image.Image) -> Image.Image:
    """The image straightened when its text lines tilt by a measurable small angle."""
    angle = skew_angle(image)
    if abs(angle) < _MIN_SKEW_DEG:
        return image
    return image.rotate(angle, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=255)


def skew_angle(image: Image.Image) -> float:
    """The counter-clockwise rotation (degrees) that makes text lines horizontal: the angle whose
    row profile of dark pixels is the most peaked (lines and gaps alternate sharply when level)."""
    sample = image.copy()
    sample.thumbnail((_SKEW_SAMPLE_PX, _SKEW_SAMPLE_PX))
    ink = Image.fromarray(((np.asarray(sample) < 128) * 255).astype(np.uint8))
    if not np.asarray(ink).any():
        return 0.0
    best_angle, best_score = 0.0, -1.0
    steps = int(MAX_SKEW_DEG / _SKEW_STEP_DEG)
    for step in range(-steps, steps + 1):
        angle = step * _SKEW_STEP_DEG
        rows = np.asarray(ink.rotate(angle, resample=Image.Resampling.NEAREST), dtype=np.float32).sum(axis=1)
        score = float(np.square(np.diff(rows)).sum())
        if score > best_score:
            best_angle, best_score = angle, score
    return best_angle
