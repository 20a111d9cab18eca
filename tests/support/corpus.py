"""The shared real-document corpus (`../shared/corpus`) and its matching rules (see its README.md).

Text is compared case-insensitively after NFKC normalisation, with whitespace runs collapsed and
``| * ` \\`` read as spaces; probes from scanned pages (``"ocr": true``) match fuzzily: a difflib
ratio of at least 0.8 against a window of about as many words.
"""

from __future__ import annotations

import difflib
import io
import json
import re
import unicodedata
from typing import Any

import pymupdf
from PIL import Image

from scripts.shared_data import CORPUS

SCAN = CORPUS / "huckleberry-finn-p22-scan.pdf"
EXIF_ORIENTATION = 0x0112


def scan_image() -> Image.Image:
    """The corpus's scanned book page (its only page) at 150 dpi."""
    with pymupdf.open(SCAN) as document:
        pixmap = document[0].get_pixmap(dpi=150)
        return Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)


def sideways_photo() -> bytes:
    """The scan as a phone keeps a photo of it: a JPEG whose pixels lie on their side, with an EXIF tag
    saying how to turn them (orientation 6: rotate 90° clockwise to view)."""
    exif = Image.Exif()
    exif[EXIF_ORIENTATION] = 6
    photo = io.BytesIO()
    scan_image().rotate(90, expand=True).save(photo, "JPEG", quality=90, exif=exif.tobytes())
    return photo.getvalue()
FUZZY_RATIO = 0.8
_AS_SPACE = re.compile(r"[|*`\\]")


def manifest() -> list[dict[str, Any]]:
    return json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))["files"]


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_AS_SPACE.sub(" ", text).split())


def contains(text: str, probe: str, *, ocr: bool = False) -> bool:
    """Whether `text` holds `probe` under the corpus's rules (fuzzily for OCR probes)."""
    haystack, needle = normalise(text), normalise(probe)
    if needle in haystack:
        return True
    return ocr and best_window_ratio(haystack, needle) >= FUZZY_RATIO


def best_window_ratio(haystack: str, needle: str) -> float:
    """The best difflib ratio of `needle` against windows of about as many words of `haystack`."""
    words, size = haystack.split(), len(needle.split())
    best = 0.0
    for width in {max(size - 1, 1), size, size + 1}:
        for start in range(max(len(words) - width + 1, 1)):
            window = " ".join(words[start : start + width])
            matcher = difflib.SequenceMatcher(None, needle, window)
            if matcher.real_quick_ratio() >= FUZZY_RATIO and matcher.quick_ratio() >= FUZZY_RATIO:
                best = max(best, matcher.ratio())
    return best


def places(hit: dict[str, Any]) -> list[dict[str, Any]]:
    """The hit at its own place and at each place it stands again (`also_at`): a document repeating a
    passage — a scan of the same page in four orientations — has it as one hit, shown at its first place."""
    return [hit] + [{**hit, **place} for place in hit.get("also_at", [])]


def where_matches(where: dict[str, Any] | None, hit: dict[str, Any]) -> bool:
    """Whether a search hit sits where the probe says: page, slide, sheet or heading path."""
    if where is None:
        return True
    if "page" in where:
        return hit["page"] == where["page"]
    if "slide" in where:
        return hit["page"] == where["slide"]
    if "sheet" in where:
        return hit["section"] == f"Sheet: {where['sheet']}"
    if "heading" in where:
        return normalise(hit["section"] or "") == normalise(where["heading"])
    raise ValueError(f"unknown probe location {where}")
