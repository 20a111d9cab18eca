"""PDF pages for the viewer: a page rendered to PNG at a bounded size, and where a passage sits on it.

Pages are rendered with PyMuPDF (already used to extract them) rather than by PDF.js in the browser:
nothing extra to download or ship, it works offline, the browser never parses the uploaded file, and no
script from a document can run (MuPDF does not execute PDF JavaScript). This module runs in the viewer's
sandbox workers, never in the server's own process (`render_job` and `passage_job`, see
backend/viewer/page_workers.py): a page can be made arbitrarily expensive to draw.

A cited passage is a slice of the page's extracted text, so its words appear in the page's word list in
the same order. Aligning the two word sequences (difflib) finds the passage's words even where the
extracted text joined hyphenated words or collapsed whitespace; their boxes are merged per text line.

Boxes are in the coordinates of the page as it is shown (and drawn): MuPDF gives a text layer's words on
the page as stored, so on a page with a /Rotate flag of 90, 180 or 270 each box is turned with the page
(`Page.rotation_matrix`); before, such pages showed bars across the text. A scanned page has no text
layer: its words are those OCR read (`page_words`, stored by ingestion in shown-page points, whatever turn
made the scan readable), passed in by the caller.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pymupdf

from backend.errors import ErrorCode
from backend.sandbox import JobError

MIN_SCALE = 0.25
MAX_SCALE = 3.0
MAX_PIXELS = 4_000_000  # about 2,000 x 2,000: sharp on a large screen, a bounded cost per request
MAX_PASSAGE_WORDS = 600
# Aligning costs up to (page words x passage words): a dense printed page has 1,000-2,000 words, while a
# few-KB file can put 200,000 on one page (8 s of CPU per request, beyond the viewer's CPU limit). Beyond
# this the page is shown without boxes.
MAX_PAGE_WORDS = 20_000
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_DEHYPHENATE
_EDGE_PUNCTUATION = re.compile(r"^\W+|\W+$")
_MUPDF_ERRORS = (pymupdf.mupdf.FzErrorBase, RuntimeError, ValueError)
PagedType = Literal["pdf", "image"]  # MuPDF's file types of the documents shown as page images
_NOUN: dict[PagedType, str] = {"pdf": "PDF", "image": "picture"}


class PageError(JobError):
    """The PDF or page cannot be shown: `unreadable_pdf` or `page_out_of_range`."""

    code: ErrorCode

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(code, message)


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class PageHighlights:
    page: int
    width: float
    height: float
    rects: list[Rect]
    matched_words: int
    passage_words: int


def _open(path: Path, filetype: PagedType) -> pymupdf.Document:
    """The PDF, or a picture uploaded on its own as MuPDF's image document: its frames are the pages,
    turned upright by the EXIF orientation as they were for OCR (backend/ingest/extract/image.py)."""
    try:
        return pymupdf.open(path, filetype=filetype)
    except _MUPDF_ERRORS as exc:
        raise PageError("unreadable_pdf", f"This {_NOUN[filetype]} cannot be opened for viewing.") from exc


def _load_page(document: pymupdf.Document, number: int) -> pymupdf.Page:
    if not 1 <= number <= document.page_count:
        raise PageError("page_out_of_range", f"This PDF has pages 1 to {document.page_count}.")
    page: pymupdf.Page = document.load_page(number - 1)
    return page


def bounded_scale(width: float, height: float, requested: float) -> float:
    """`requested` clamped to [MIN_SCALE, MAX_SCALE] and to at most MAX_PIXELS pixels for the page."""
    scale = min(max(requested, MIN_SCALE), MAX_SCALE)
    area = max(width * height, 1.0)
    # 1% margin: MuPDF rounds the pixel size up to whole pixels on each side.
    return min(scale, 0.99 * math.sqrt(MAX_PIXELS / area))


def render_page_png(path: Path, number: int, scale: float, filetype: PagedType = "pdf") -> bytes:
    """Page `number` (1-based) as PNG, `scale` x its size in points (bounded, see `bounded_scale`)."""
    with _open(path, filetype) as document:
        page = _load_page(document, number)
        factor = bounded_scale(page.rect.width, page.rect.height, scale)
        try:
            pixmap = page.get_pixmap(matrix=pymupdf.Matrix(factor, factor), alpha=False)
            png: bytes = pixmap.tobytes("png")
            return png
        except _MUPDF_ERRORS as exc:
            raise PageError("unreadable_pdf", f"Page {number} of this {_NOUN[filetype]} cannot be rendered.") from exc


def render_job(path: str, number: int, scale: float, filetype: PagedType, _report: Any) -> bytes:
    """`render_page_png` as a sandbox job."""
    return render_page_png(Path(path), number, scale, filetype)


def _norm(word: str) -> str:
    return _EDGE_PUNCTUATION.sub("", unicodedata.normalize("NFKC", word).casefold())


def passage_words(text: str) -> list[str]:
    words = [_norm(word) for word in text.split()]
    return [word for word in words if word][:MAX_PASSAGE_WORDS]


# A word on the shown page: x0, y0, x1, y1 (points), its text, and the key of its line.
Word = tuple[float, float, float, float, str, tuple[int, int]]
# A word OCR read, as stored (backend/store/page_words.py): x0, y0, x1, y1, text, line.
OcrWord = tuple[float, float, float, float, str, int]


def _layer_words(page: pymupdf.Page) -> list[Word]:
    """The text layer's words, turned with the page's /Rotate into the coordinates it is shown in."""
    turn = page.rotation_matrix
    words: list[Word] = []
    for x0, y0, x1, y1, text, block_no, line_no, _word_no in page.get_text("words", flags=_TEXT_FLAGS):
        box = pymupdf.Rect(x0, y0, x1, y1) * turn if page.rotation else pymupdf.Rect(x0, y0, x1, y1)
        words.append((box.x0, box.y0, box.x1, box.y1, str(text), (int(block_no), int(line_no))))
    return words


def _page_words(page: pymupdf.Page, ocr_words: list[OcrWord] | None) -> list[Word]:
    """What OCR read on the page when it was read so, else its text layer's words as shown."""
    if ocr_words is not None:
        return [(x0, y0, x1, y1, text, (0, line)) for x0, y0, x1, y1, text, line in ocr_words]
    return _layer_words(page)


def find_passage(path: Path, number: int, passage: str, filetype: PagedType = "pdf",
                 ocr_words: list[OcrWord] | None = None) -> PageHighlights:
    """The line boxes (points, the page as shown) of `passage`'s words on page `number`: among its text
    layer's words, or among `ocr_words` when OCR read the page (a scan, a picture)."""
    wanted = passage_words(passage)
    with _open(path, filetype) as document:
        page = _load_page(document, number)
        words = _page_words(page, ocr_words)
        size = page.rect
    indexed = [(index, _norm(word[4])) for index, word in enumerate(words)]
    indexed = [(index, text) for index, text in indexed if text]
    on_page = [text for _, text in indexed]
    matched: list[int] = []
    if wanted and on_page and len(on_page) <= MAX_PAGE_WORDS:
        matcher = difflib.SequenceMatcher(None, on_page, wanted, autojunk=False)
        # A run of one or two words is likely a common word matched by chance, unless the passage is short.
        shortest = 1 if len(wanted) < 4 else 3
        for block in matcher.get_matching_blocks():
            if block.size >= shortest:
                matched.extend(indexed[i][0] for i in range(block.a, block.a + block.size))
    return PageHighlights(page=number, width=size.width, height=size.height,
                          rects=_line_rects([words[i] for i in sorted(set(matched))]),
                          matched_words=len(set(matched)), passage_words=len(wanted))


def find_words(path: Path, number: int, words: Sequence[str], filetype: PagedType = "pdf",
               ocr_words: list[OcrWord] | None = None) -> PageHighlights:
    """The line boxes of every word on page `number` that begins with one of `words` (a search's words, as
    the text views mark them): each wherever it stands, in any order. Matching them as one passage in
    order (`find_passage`) left out words the page holds elsewhere, and a lone word of a longer query.
    The page's words are those `find_passage` reads: the text layer as shown, or what OCR read."""
    wanted = tuple(dict.fromkeys(w for w in (_norm(word) for word in words) if w))
    with _open(path, filetype) as document:
        page = _load_page(document, number)
        found = _page_words(page, ocr_words)
        size = page.rect
    matched = [word for word in found[:MAX_PAGE_WORDS] if wanted and _norm(word[4]).startswith(wanted)]
    return PageHighlights(page=number, width=size.width, height=size.height, rects=_line_rects(matched),
                          matched_words=len(matched), passage_words=len(wanted))


def words_job(path: str, number: int, words: list[str], filetype: PagedType, ocr_words: list[OcrWord] | None,
              _report: Any) -> PageHighlights:
    """`find_words` as a sandbox job."""
    return find_words(Path(path), number, words, filetype, ocr_words)


def passage_job(path: str, number: int, passage: str, filetype: PagedType, ocr_words: list[OcrWord] | None,
                _report: Any) -> PageHighlights:
    """`find_passage` as a sandbox job."""
    return find_passage(Path(path), number, passage, filetype, ocr_words)


def _line_rects(words: list[Word]) -> list[Rect]:
    """One box per text line covering the given words of that line."""
    lines: dict[tuple[int, int], list[float]] = {}
    for x0, y0, x1, y1, _text, line in words:
        box = lines.get(line)
        if box is None:
            lines[line] = [x0, y0, x1, y1]
        else:
            box[0], box[1], box[2], box[3] = min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)
    return [Rect(round(b[0], 2), round(b[1], 2), round(b[2], 2), round(b[3], 2)) for b in lines.values()]
