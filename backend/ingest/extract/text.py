"""Plain-text files: encoding detection shared by TXT, CSV, Markdown and HTML, and the TXT extractor.

`decode_text` never returns nothing for a non-empty file: it tries the BOMs, UTF-16 without a BOM
(as `iconv -t UTF-16LE` or SQL Server's `bcp -w` write it), strict UTF-8, Western single-byte text,
charset-normalizer's guess, and finally Latin-1, which decodes any byte string.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from pathlib import Path

import charset_normalizer

from backend.ingest.types import ExtractedUnit, ExtractResult

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n+")
# Characters legitimately found between two letters of Western text (O’Brien, Mo–Fr).
_INWORD_PUNCTUATION = frozenset("’‘–—‑·")
_MAX_NON_ASCII_LETTER_SHARE = 0.5
# UTF-16 without a BOM is recognised by its zero bytes: in Latin-script text nearly every other byte is
# zero (the odd ones for little-endian), and the others almost never are.
_UTF16_SAMPLE = 4096
_UTF16_MIN_ZERO_SHARE = 0.3
_UTF16_MAX_OTHER_ZERO_SHARE = 0.02


def read_text_file(path: Path) -> str:
    """The text of `path`, decoded by `decode_text`, with newlines normalised to ``\\n``."""
    return decode_text(path.read_bytes())


def decode_text(data: bytes) -> str:
    """Decode bytes of unknown encoding; newlines come back as ``\\n``."""
    return _normalise_newlines(_decode(data))


def _decode(data: bytes) -> str:
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace")
    codec = "utf-16" if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else bomless_utf16(data)
    if codec is not None:
        return data.decode(codec, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    western = _decode_cp1252(data)
    if western is not None and _looks_western(western):
        # charset-normalizer misreads short German/French text (it guessed cp1006 for "Grüße, café"),
        # so plausible CP1252 wins before asking it.
        return western
    best = charset_normalizer.from_bytes(data).best()
    if best is not None:
        return str(best)
    return western if western is not None else data.decode("latin-1")


def bomless_utf16(data: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` when `data` (or its start) reads as UTF-16 text without a BOM."""
    sample = data[: _UTF16_SAMPLE]
    sample = sample[: len(sample) // 2 * 2]
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    even_zeros, odd_zeros = sample[0::2].count(0), sample[1::2].count(0)
    for codec, zeros, others in (("utf-16-le", odd_zeros, even_zeros), ("utf-16-be", even_zeros, odd_zeros)):
        if zeros >= _UTF16_MIN_ZERO_SHARE * pairs and others <= _UTF16_MAX_OTHER_ZERO_SHARE * pairs:
            try:
                codecs.getincrementaldecoder(codec)().decode(sample, final=False)
            except UnicodeDecodeError:
                return None
            return codec
    return None


def _decode_cp1252(data: bytes) -> str | None:
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return None


def _looks_western(text: str) -> bool:
    """True when `text` reads like CP1252 text: mostly ASCII letters, accents that are letters,
    and no symbols wedged inside words (how Polish or Cyrillic bytes look when misread as CP1252)."""
    letters = non_ascii_letters = 0
    previous = ""
    for index, char in enumerate(text):
        if char.isalpha():
            letters += 1
            non_ascii_letters += not char.isascii()
        elif not char.isascii() and char not in _INWORD_PUNCTUATION and previous.isalpha():
            following = text[index + 1 : index + 2]
            if following.isalpha() or unicodedata.category(char).startswith("C"):
                return False
        previous = char
    return letters > 0 and non_ascii_letters <= letters * _MAX_NON_ASCII_LETTER_SHARE


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def split_paragraphs(text: str) -> list[str]:
    """Paragraphs separated by blank lines, stripped, empty ones dropped."""
    return [part.strip() for part in _PARAGRAPH_BREAK.split(text) if part.strip()]


def extract_text(path: Path) -> ExtractResult:
    """A plain-text file as one unit per paragraph (the chunker merges small neighbours)."""
    paragraphs = split_paragraphs(read_text_file(path))
    return ExtractResult(units=[ExtractedUnit(text=paragraph, kind="text") for paragraph in paragraphs])
