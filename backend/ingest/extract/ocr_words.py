"""Tesseract's own dictionaries, to tell text that was read from garbage read off a page turned wrong.

Confidence alone does not: an upside-down page read as "oseoed poeulejuoo es Asea" came back at a mean
word confidence above the bar and was stored as text. Words of the configured languages do tell: a page
read upright is mostly dictionary words, one read upside down or mirrored hardly any. The word lists are
those tesseract itself uses (the LSTM word DAWG inside each language's `.traineddata`), so whatever
languages `QUIRE_OCR_LANGUAGES` names come with their own, with no other data to install. They are
unpacked with tesseract's `combine_tessdata` and `dawg2wordlist` (about a second per language) once per
machine and kept, as sorted 32-bit hashes of the lower-cased words (about 1.3 MB for English's 338,000
entries), in the system's temporary folder; a worker maps the file and looks words up by binary search.

A language whose data has no word list (or tools that are missing) makes `WordList.judges` false: the
page is then judged by confidence alone, as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import re
import shutil
import subprocess
import tempfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

CACHE_DIR_NAME = "quire-ocr-words"
_TESSDATA_LINE = re.compile(r'"(?P<path>[^"]+)"')
_LETTERS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
MIN_LETTERS = 3  # shorter words ("es", "to") match by chance in any garbage


@dataclass(frozen=True)
class WordList:
    """The hashed words of some languages; empty when none could be unpacked."""

    hashes: np.ndarray

    @property
    def judges(self) -> bool:
        return bool(self.hashes.size)

    def known(self, words: Iterable[str]) -> list[bool]:
        """For each word, whether it (lower-cased) is in the list."""
        wanted = np.fromiter((zlib.crc32(word.lower().encode()) for word in words), dtype=np.uint32)
        if not self.hashes.size or not wanted.size:
            return [False] * int(wanted.size)
        at = np.minimum(np.searchsorted(self.hashes, wanted), self.hashes.size - 1)
        return [bool(hit) for hit in self.hashes[at] == wanted]


def letter_words(text: str) -> list[str]:
    """The words of `text` made of letters (apostrophes and hyphens inside kept), MIN_LETTERS or longer."""
    return [word for word in _LETTERS.findall(text) if len(word) >= MIN_LETTERS]


@functools.lru_cache(maxsize=4)
def word_list(languages: str) -> WordList:
    """The word list of tesseract's `languages` ("eng+deu"), unpacked on first use (see the module)."""
    parts = [_language_hashes(language) for language in languages.split("+") if language]
    found = [part for part in parts if part.size]
    if not found:
        return WordList(np.zeros(0, dtype=np.uint32))
    return WordList(np.unique(np.concatenate(found)))


def _language_hashes(language: str) -> np.ndarray:
    data = _traineddata(language)
    if data is None:
        return np.zeros(0, dtype=np.uint32)
    stat = data.stat()
    key = hashlib.sha256(f"{data}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    cached = Path(tempfile.gettempdir()) / CACHE_DIR_NAME / f"{language}-{key}.npy"
    with contextlib.suppress(OSError, ValueError):
        hashes: np.ndarray = np.load(cached, mmap_mode="r")
        return hashes
    hashes = _unpack(language, data)
    if hashes.size:
        _keep(cached, hashes)
    return hashes


def _traineddata(language: str) -> Path | None:
    """Where tesseract keeps `language`'s data (it says so in its list of languages)."""
    tesseract = shutil.which("tesseract")
    if tesseract is None or not re.fullmatch(r"[A-Za-z0-9_]+", language):
        return None
    try:
        # tesseract's own path and fixed arguments: nothing from a user reaches the command line.
        listed = subprocess.run([tesseract, "--list-langs"], capture_output=True, text=True, check=True)  # noqa: S603
    except (OSError, subprocess.CalledProcessError):
        return None
    found = _TESSDATA_LINE.search(listed.stdout + listed.stderr)
    if found is None:
        return None
    path = Path(found.group("path")) / f"{language}.traineddata"
    return path if path.is_file() else None


def _unpack(language: str, data: Path) -> np.ndarray:
    """The language's word DAWG as hashes of its lower-cased words (empty if it has none)."""
    combine, dawg2wordlist = shutil.which("combine_tessdata"), shutil.which("dawg2wordlist")
    if combine is None or dawg2wordlist is None:
        log.info("tesseract's combine_tessdata/dawg2wordlist are missing: OCR is judged by confidence alone")
        return np.zeros(0, dtype=np.uint32)
    with tempfile.TemporaryDirectory(prefix="quire-ocr-words-") as folder:
        # combine_tessdata tells a component by its file name's extension.
        dawg, charset, words = (Path(folder) / f"{language}.{name}" for name in ("lstm-word-dawg", "lstm-unicharset",
                                                                                  "words"))
        try:
            # Tools found on PATH, paths of tesseract's data and of our own folder: no user input.
            subprocess.run([combine, "-e", str(data), str(dawg), str(charset)],  # noqa: S603
                           capture_output=True, check=True)
            subprocess.run([dawg2wordlist, str(charset), str(dawg), str(words)],  # noqa: S603
                           capture_output=True, check=True)
            listed = words.read_text(encoding="utf-8", errors="replace").split()
        except (OSError, subprocess.CalledProcessError):
            log.info("%s has no word list tesseract can unpack: its pages are judged by confidence", language)
            return np.zeros(0, dtype=np.uint32)
    return np.unique(np.fromiter((zlib.crc32(word.lower().encode()) for word in listed), dtype=np.uint32))


def _keep(path: Path, hashes: np.ndarray) -> None:
    """Write the hashes for the next worker (atomically: another may be writing the same file)."""
    try:
        path.parent.mkdir(mode=0o755, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npy", delete=False) as out:
            np.save(out, hashes)
        os.chmod(out.name, 0o644)  # readable by every Quire process, whichever user runs it
        os.replace(out.name, path)
    except OSError as exc:
        log.info("could not keep OCR word list %s: %s", path, exc)
