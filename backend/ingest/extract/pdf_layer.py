"""How readable a PDF page's text layer is: garbled layers (glyph numbers instead of letters) and layers with
lines MuPDF could not map at all, both of which are OCR'd instead (backend/ingest/extract/pdf.py).

A text layer is garbled when a font without a character map gives glyph numbers instead of letters
("1IPUPTZOUIFTJT\\x01DPOWFSUT" for "Photosynthesis converts"): control characters for spaces, U+FFFD.
A layer can also be readable but for whole lines in one font that has no mapping (a boxed paragraph, a
heading): MuPDF gives U+FFFD for each of their glyphs, so the paragraph is lost while the page looks read
(PyMuPDF's test_2635.pdf: 632 of 2,825 characters; 001003ED.pdf: five heading lines).
"""

from __future__ import annotations

import unicodedata

# A text layer is garbled when control characters (which no real text layer carries; broken fonts turn
# spaces into them) are 5% of its visible characters, or all unreadable ones together (also private-use,
# unassigned, U+FFFD) are 30%: below that they are a formula's large brackets or a few symbol-font
# bullets in readable text (up to ~6% on the corpus' maths lecture notes), and the page is left as it is.
GARBLED_CONTROL_SHARE = 0.05
GARBLED_SHARE = 0.30
# Unreadable characters standing in lines that are mostly unreadable: from this many on (two or three
# lines of text) the page has text only OCR can read. Formulas stay below: on the corpus' maths notes and
# the 323 PDFs of the campaign at most 50 (a line of large brackets), against 167 and 632 where a heading
# or a paragraph was lost.
UNREADABLE_LINE_CHARS = 100
_GARBLED_CATEGORIES = frozenset({"Cc", "Co", "Cn", "Cs"})


def visible_chars(text: str) -> int:
    return len("".join(text.split()))  # str.split drops exactly what isspace() calls whitespace, in C


def all_readable(text: str) -> bool:
    """The cheap check that keeps clean pages (nearly all of them) out of the per-character walks below:
    without its whitespace, a layer with no unreadable character is printable (`str.isprintable` rejects
    control, private-use, unassigned and surrogate characters, all in C) and holds no U+FFFD. False only
    means "look closer": format characters (a soft hyphen) are not printable either."""
    return "\ufffd" not in text and "".join(text.split()).isprintable()


def _unreadable(char: str) -> bool:
    return char == "\ufffd" or (unicodedata.category(char) in _GARBLED_CATEGORIES and not char.isspace())


def readable_chars(text: str) -> int:
    if all_readable(text):
        return visible_chars(text)
    return sum(not char.isspace() and not _unreadable(char) for char in text)


def is_garbled(text: str) -> bool:
    """Whether a text layer is glyph numbers rather than text (see the module docstring)."""
    if all_readable(text):
        return False
    unreadable = [char for char in text if _unreadable(char)]
    if len(unreadable) < 3:
        return False
    visible = visible_chars(text)
    controls = sum(unicodedata.category(char) == "Cc" for char in unreadable)
    return controls >= GARBLED_CONTROL_SHARE * visible or len(unreadable) >= GARBLED_SHARE * visible


def has_unreadable_lines(text: str) -> bool:
    """Whether whole lines of an otherwise readable layer are unmapped glyphs (see UNREADABLE_LINE_CHARS)."""
    count = 0
    for line in text.splitlines():
        unreadable = sum(_unreadable(char) for char in line)
        if unreadable and 2 * unreadable >= visible_chars(line):
            count += unreadable
    return count >= UNREADABLE_LINE_CHARS


def check_layer(text: str) -> tuple[bool, int]:
    """`needs_ocr` and `visible_chars` of a page's layer, with one pass of the cheap check for a clean one."""
    compact = "".join(text.split())
    if "\ufffd" not in compact and compact.isprintable():
        return False, len(compact)
    return is_garbled(text) or has_unreadable_lines(text), len(compact)


def needs_ocr(text: str) -> bool:
    return not all_readable(text) and (is_garbled(text) or has_unreadable_lines(text))


def ocr_bar(layer_text: str) -> int:
    """How many readable characters OCR must read for its text to replace the page's text layer: more than
    the layer has (for a layer with unreadable lines too: OCR must read those and what the layer has); for
    a garbled layer half that, since a font's glyph numbers count as letters one for one
    ("1IPUPTZOUIFTJT") and OCR of the same glyphs may miss a few."""
    readable = readable_chars(layer_text)
    return readable // 2 if is_garbled(layer_text) else readable


def readable_layer(text: str) -> str:
    """A layer that `needs_ocr` (garbled, or with unreadable lines) without its unreadable characters: what
    can be read stays (words beside symbol-font bullets); a page of glyph codes comes out empty."""
    kept = "".join(char for char in text if not _unreadable(char)).strip()
    return kept if readable_chars(kept) else ""
