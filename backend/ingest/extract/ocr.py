"""OCR of pages and pictures with tesseract: render within a pixel budget, prepare, read upright, judge.

- **Pixel cap.** A page is rendered at OCR_DPI unless its pixmap would exceed `max_pixels`; then the
  resolution is lowered to fit, and a page that would need less than MIN_OCR_DPI to fit is refused
  (a 200-inch poster page must not become a multi-gigabyte bitmap).
- **Prepared** (ocr_image.py): lighting evened out, text lines made horizontal (a page turned by a
  quarter is turned back, a tilt of up to 5 degrees straightened).
- **Upright.** The prepared page is read with tesseract's orientation detection on (``--psm 1``), which
  reads a page upside down in the same pass at no extra cost. A reading that is mostly words of the
  configured languages' dictionaries is kept: no second run.
  Otherwise tesseract's OSD is asked which way the page is up and the page is read turned that way (the
  other way up when OSD has no opinion, which it lacks on pages with little text), and of the readings
  the one with more confidently read dictionary words wins (ocr_words.py).
- **Judged.** A reading whose mean word confidence stays under LOW_CONFIDENCE, or whose words are
  mostly not words of the configured languages (READABLE_SHARE, judged on MIN_JUDGED_WORDS or more), is
  not stored as text: the page is *unreadable*, named in a warning of its own, and its image stays
  viewable. Mirrored, upside-down or noise "text" must not become searchable, citable text.
- **Words and boxes.** Each word keeps its box, mapped back through every turn to the page as it is shown
  (its /Rotate applied), in PDF points, so the viewer can box a passage on a scan.
- **Several pages, one tesseract.** `ocr_pages` reads a few pages' first readings in one tesseract run
  over a list of their images: starting tesseract and loading its languages costs about 0.3 s of CPU with
  eng+deu, half of what reading a page costs, and a run over a list reads each page exactly as a run of
  its own would (the same words, boxes and confidences). Second looks run one image at a time.

No wall-clock limit: tesseract runs as long as it needs; the sandbox bounds its CPU time and memory
(backend/sandbox.py), and a page whose tesseract breaks them is reported as failed, not as empty. When a
run over several pages breaks them, each page is read again on its own, so only the page at fault fails.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf
import pytesseract
from PIL import Image

from backend.ingest.extract.ocr_image import Affine, Prepared, level
from backend.ingest.extract.ocr_words import WordList, letter_words, word_list
from backend.ingest.types import PageWord
from backend.scratch import scratch_folder

OCR_DPI = 144
MIN_OCR_DPI = 48  # below this, body text is too small for tesseract: refusing beats reading noise
LOW_CONFIDENCE = 45.0  # mean word confidence (0-100)
CONFIDENT = 60.0  # a word read at least this confidently counts when two orientations are compared
# Shares of letter words (3+ letters) that are dictionary words, measured with English + German
# dictionaries on the tuning pages (generated, not the corpus: English and German text in three fonts,
# 150-300 dpi, four orientations, skewed, faded, unevenly lit, noisy): read upright 0.96-1.00 at a mean
# confidence of 93-96; French and Spanish pages (no dictionary of their own) 0.79 and 0.70 at 93-94; read
# the wrong way up 0.15-0.35 at 36-48. A reading is text when its share reaches READABLE_SHARE, or
# PARTLY_READABLE_SHARE at a mean confidence of CONFIDENT_READING: a poor scan read right keeps its text.
READABLE_SHARE = 0.5
PARTLY_READABLE_SHARE = 0.3
CONFIDENT_READING = 70.0
GOOD_SHARE = READABLE_SHARE  # a first reading this good is kept without a second look
MIN_JUDGED_WORDS = 8  # fewer letter words say too little about a page to judge it by its words
WordTable = dict[str, list[Any]]  # tesseract's words by column (`image_to_data`'s DICT output)
_OSD_MIN_CONFIDENCE = 1.0  # OSD's own orientation confidence; below it the guess is a coin toss


def _mapped(word: PageWord, to: Affine, scale: float = 1.0) -> PageWord:
    """The word with its box mapped through `to` and scaled (pixels to points)."""
    x0, y0, x1, y1 = to.box(word.x0, word.y0, word.x1, word.y1)
    return PageWord(word.text, round(x0 * scale, 2), round(y0 * scale, 2), round(x1 * scale, 2),
                    round(y1 * scale, 2), word.line)


@dataclass(frozen=True)
class Reading:
    """One reading of an image: its text (paragraphs and lines as tesseract found them) and its words."""

    text: str
    words: list[PageWord]  # boxes in pixels of the image read
    confidence: float | None  # mean word confidence; None: no words
    letter_words: int
    known_words: int
    confident_known: int

    def share(self, judges: bool) -> float | None:
        """Dictionary words among letter words, when there are enough to judge by (else None)."""
        if not judges or self.letter_words < MIN_JUDGED_WORDS:
            return None
        return self.known_words / self.letter_words

    def readable(self, judges: bool) -> bool:
        if self.confidence is None or self.confidence < LOW_CONFIDENCE:
            return False
        share = self.share(judges)
        return (share is None or share >= READABLE_SHARE
                or (share >= PARTLY_READABLE_SHARE and self.confidence >= CONFIDENT_READING))

    def good(self, judges: bool) -> bool:
        share = self.share(judges)
        return self.readable(judges) and (share is None or share >= GOOD_SHARE)

    def rank(self) -> tuple[int, float]:
        return self.confident_known, self.confidence or 0.0


@dataclass(frozen=True)
class PageOcr:
    """What OCR made of one page: its text (empty when unreadable), its words in page points, and what the
    user should know."""

    number: int
    text: str
    confidence: float | None
    warning: str | None = None
    failed: bool = False  # tesseract itself failed on this page (it broke its CPU or memory limit)
    too_large: bool = False  # refused: rendering it readably would exceed the pixel cap
    unreadable: bool = False  # read, but what came out is not text (see the module docstring)
    words: list[PageWord] = field(default_factory=list)  # in page points


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


def ocr_pages(pages: Sequence[pymupdf.Page], languages: str, max_pixels: int) -> list[PageOcr]:
    """Render and read `pages` (their first readings in one tesseract run), in their order; each result
    numbered as its page (`page.number + 1`), its words in page points."""
    results: dict[int, PageOcr] = {}
    prepared: list[Prepared] = []
    scales: list[float] = []  # page points per pixel of each rendered image
    numbers: list[int] = []
    for page in pages:
        number = page.number + 1
        dpi = render_dpi(page, max_pixels)
        if dpi is None:
            inches = f"{page.rect.width / 72:.0f} x {page.rect.height / 72:.0f} inches"
            results[number] = PageOcr(number, "", None, f"page {number}: too large to read safely ({inches}); "
                                      "it was skipped", too_large=True)
            continue
        pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        prepared.append(level(Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)))
        scales.append(page.rect.width / pixmap.width)
        numbers.append(number)
        del pixmap
    judges = word_list(languages).judges
    for number, scale, reading in zip(numbers, scales, read_prepared(prepared, languages), strict=True):
        if reading is None:
            # Its tesseract was killed for the CPU time or memory it took: one page must not sink the document.
            results[number] = PageOcr(number, "", None, failed=True)
        elif not reading.words:  # nothing on it to read (a blank page, a photo of a wall): no text, not unreadable
            results[number] = PageOcr(number, "", None)
        elif not reading.readable(judges):
            results[number] = PageOcr(number, "", reading.confidence, unreadable_warning(number), unreadable=True)
        else:
            results[number] = PageOcr(number, reading.text, reading.confidence,
                                      words=[_mapped(word, Affine(), scale) for word in reading.words])
    return [results[page.number + 1] for page in pages]


def unreadable_warning(number: int) -> str:
    """A page warning's words (the web app adds "open the page image" as a link to it)."""
    return f"page {number} could not be read reliably"


def failed_warning(number: int) -> str:
    return f"page {number} could not be read: its OCR needed more CPU time or memory than it may use"


def read_prepared(images: Sequence[Prepared], languages: str) -> list[Reading | None]:
    """The best reading of each prepared image, word boxes in its source's pixels; None for an image
    whose tesseract broke its CPU or memory limit."""
    words = word_list(languages)
    with scratch_folder("ocr") as folder:
        firsts = _first_readings(images, languages, words, folder)
    readings: list[Reading | None] = []
    for prepared, first in zip(images, firsts, strict=True):
        if first is None or first.good(words.judges):
            readings.append(first)
            continue
        try:
            seconds = [_recognise(prepared.turned(turn), languages, words) for turn in _other_ways_up(prepared)]
        except pytesseract.TesseractError:
            readings.append(None)
            continue
        readings.append(max([first, *seconds], key=Reading.rank))
    return readings


def _first_readings(images: Sequence[Prepared], languages: str, words: WordList,
                    folder: Path) -> list[Reading | None]:
    """Each image read with orientation detection, all in one tesseract run (its list of images)."""
    if not images:
        return []
    files = []
    for index, prepared in enumerate(images):
        file = folder / f"image-{index}.png"
        prepared.image.save(file, compress_level=1)  # tesseract reads it at once: size does not matter
        files.append(file)
    listing = folder / "images.txt"
    listing.write_text("".join(f"{file}\n" for file in files))
    try:
        data = pytesseract.image_to_data(str(files[0] if len(files) == 1 else listing), lang=languages,
                                         config="--psm 1", output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError:
        if len(images) == 1:
            return [None]
        # One image broke the run's limits: read each on its own, so only that image is lost.
        return [_first_readings([prepared], languages, words, folder)[0] for prepared in images]
    pages: list[WordTable] = [{key: [] for key in data} for _ in images]
    for index, number in enumerate(data["page_num"]):
        for key, values in data.items():
            pages[int(number) - 1][key].append(values[index])
    return [_reading(page, prepared, words) for page, prepared in zip(pages, images, strict=True)]


def _other_ways_up(prepared: Prepared) -> list[int]:
    """The counter-clockwise turns worth a second reading: OSD's, or upside down when OSD has no opinion
    (levelling already turned a sideways page, so upside down is the likely mistake)."""
    try:
        osd = pytesseract.image_to_osd(prepared.image, config="--psm 0", output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError:
        return [180]  # too little text for OSD
    # OSD's `rotate` is the clockwise turn that makes the page upright.
    turn = (-int(osd.get("rotate", 0))) % 360
    if turn == 0 or float(osd.get("orientation_conf", 0.0)) < _OSD_MIN_CONFIDENCE:
        return [180]
    return [turn] if turn == 180 else [turn, 180]


def _recognise(prepared: Prepared, languages: str, words: WordList) -> Reading:
    """One tesseract reading of the prepared image, as it is turned (no orientation detection)."""
    data = pytesseract.image_to_data(prepared.image, lang=languages, config="--psm 3",
                                     output_type=pytesseract.Output.DICT)
    return _reading(data, prepared, words)


def _reading(data: WordTable, prepared: Prepared, words: WordList) -> Reading:
    """The reading tesseract's word table (`image_to_data`'s columns, one image's rows) makes of `prepared`."""
    paragraphs: dict[tuple[int, int], dict[int, list[str]]] = {}
    found: list[PageWord] = []
    confidences: list[float] = []
    lines: dict[tuple[int, int, int], int] = {}
    for index, text in enumerate(data["text"]):
        confidence = float(data["conf"][index])
        word = text.strip()
        if confidence < 0 or not word:
            continue
        confidences.append(confidence)
        key = (data["block_num"][index], data["par_num"][index])
        paragraphs.setdefault(key, {}).setdefault(data["line_num"][index], []).append(word)
        line = lines.setdefault((*key, data["line_num"][index]), len(lines))
        left, top = float(data["left"][index]), float(data["top"][index])
        box = PageWord(word, left, top, left + float(data["width"][index]), top + float(data["height"][index]), line)
        found.append(_mapped(box, prepared.to_source))
    text = "\n\n".join("\n".join(" ".join(line) for line in par.values()) for par in paragraphs.values())
    lettered = [(word, confidence) for word, confidence in zip(data["text"], data["conf"], strict=True)
                for word in letter_words(word) if float(confidence) >= 0]
    known = words.known(word for word, _ in lettered)
    return Reading(text=text, words=found, confidence=sum(confidences) / len(confidences) if confidences else None,
                   letter_words=len(lettered), known_words=sum(known),
                   confident_known=sum(hit and float(conf) >= CONFIDENT
                                       for hit, (_, conf) in zip(known, lettered, strict=True)))
