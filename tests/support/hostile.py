"""Hostile files, generated on the spot, and a meter for a server's memory and CPU including its children.

The files are those of issue #15's reliability campaign: a tiny PDF whose one page would render to
gigabytes, 5,000 nested Markdown list items, a 30 MB one-line text, and a DOCX holding 250 MB of XML
(inside the zip-bomb limits of backend/ingest/extract/archive.py); and of a hostile-user pass over
uploads: a few-KB workbook whose sheet spans every cell Excel allows, and a PDF whose text layer is glyph
numbers (a font without a character map), and a page of a few KB holding tens of thousands of words;
and of the viewer's sandbox: a page that takes half a minute of CPU to draw.
"""

from __future__ import annotations

import contextlib
import io
import random
import threading
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl
import psutil
import pymupdf
from PIL import Image

_WORDS = ("alpha", "beta", "gamma", "delta", "sigma", "omega", "theta", "kappa")
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml"'
    ' ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Target="word/document.xml"'
    ' Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/></Relationships>'
)


def giant_page_pdf(path: Path) -> Path:
    """A few-KB PDF with one 200 x 200 inch page (the largest PDF allows) filled by a small scanned image:
    rendered for OCR at the usual 144 dpi it would be a 28,800 x 28,800 pixel bitmap (~0.8 GB gray)."""
    image = Image.effect_noise((64, 64), 64).convert("L")
    document = pymupdf.open()
    page = document.new_page(width=14_400, height=14_400)
    page.insert_image(page.rect, stream=_png(image))
    document.save(path, deflate=True)
    document.close()
    return path


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def nested_list_markdown(items: int = 5_000) -> bytes:
    """`items` list items, each nested one level deeper than the one before (~25 MB of indentation)."""
    lines = ["# Deeply nested list", ""] + ["  " * depth + f"- nested item {depth}" for depth in range(items)]
    return "\n".join(lines).encode()


def one_line_text(megabytes: int = 30) -> bytes:
    """`megabytes` MB of words without a single line break."""
    phrase = b"lorem ipsum dolor sit amet consectetur adipiscing elit "
    size = megabytes * 1024 * 1024
    return (phrase * (size // len(phrase) + 1))[:size]


def huge_xml_docx(path: Path, xml_megabytes: int = 250) -> Path:
    """A valid DOCX whose body XML inflates to `xml_megabytes` MB of short paragraphs. Its compression
    ratio (~7x) and total size stay inside the zip-bomb limits, so only the parser's work is at stake."""
    rng = random.Random(7)
    paragraphs = "".join(
        f"<w:p><w:r><w:t>{' '.join(rng.choice(_WORDS) for _ in range(12))}</w:t></w:r></w:p>" for _ in range(300)
    ).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", _CONTENT_TYPES)
        archive.writestr("_rels/.rels", _RELS)
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            member.write(f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{_W}"><w:body>'.encode())
            written = 0
            while written < xml_megabytes * 1024 * 1024:
                member.write(paragraphs)
                written += len(paragraphs)
            member.write(b"</w:body></w:document>")
    return path


def workbook_spanning_every_cell(path: Path) -> Path:
    """A ~5 KB workbook, written by openpyxl, with a glossary in A1:B2, a note in the last row Excel has
    (1,048,576) and a formatted empty cell in its last column (XFD): the sheet's declared dimension is
    A1:XFD1048576, i.e. 17 billion cells, while it holds five values."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.append(["Term", "Meaning"])
    sheet.append(["osmosis", "water crossing a semipermeable membrane"])
    sheet.cell(row=1_048_576, column=1, value="last row note")
    sheet.cell(row=1, column=16_384).number_format = "0%"
    workbook.save(path)
    return path


GARBLED_LINES = ("Photosynthesis converts light energy into chemical energy in green plants.",
                 "Chlorophyll absorbs mostly blue and red light and reflects green light.")


def garbled_text_pdf(path: Path, lines: Sequence[str] = GARBLED_LINES, *, font: str = "tiro", fontsize: float = 13,
                     origin: tuple[float, float] = (72, 100)) -> Path:
    """A PDF whose text is drawn correctly but extracts as glyph numbers ("1IPUPTZOUIFTJT\x01..."), as
    PDFs with subset fonts lacking a ToUnicode map do: PyMuPDF writes `lines` (30 pt apart from `origin`)
    with an embedded subset of `font`, then the font's ToUnicode entry is removed."""
    document = pymupdf.open()
    page = document.new_page()
    writer = pymupdf.TextWriter(page.rect)
    for number, line in enumerate(lines):
        writer.append((origin[0], origin[1] + 30 * number), line, font=pymupdf.Font(font), fontsize=fontsize)
    writer.write_text(page)
    document.subset_fonts()
    for xref in range(1, document.xref_length()):
        if document.xref_get_key(xref, "ToUnicode")[0] != "null":
            document.xref_set_key(xref, "ToUnicode", "null")
    document.save(path)
    document.close()
    return path


def crowded_page_pdf(path: Path, lines: int = 200, words_per_line: int = 150) -> Path:
    """One page holding `lines` x `words_per_line` words ("the cell the cell ...") in a 0.5 pt font."""
    document = pymupdf.open()
    page = document.new_page()
    line = " ".join(["the", "cell"] * (words_per_line // 2))
    for number in range(lines):
        page.insert_text((20, 20 + 0.7 * number), line, fontsize=0.5)
    document.save(path, deflate=True)
    document.close()
    return path


def tangled_lines_pdf(path: Path, lines: int = 60_000, seed: int = 1) -> Path:
    """A ~600 KB PDF whose one page, under a sentence of text (enough of a text layer not to be OCR'd),
    strokes `lines` random lines across itself: PyMuPDF takes about 30 s of CPU to draw it at the
    viewer's scale (1.5) on the development machine. The lines are written as a raw content stream, as
    a hostile file would hold them (drawing them one by one through PyMuPDF would take minutes)."""
    rng = random.Random(seed)
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 72), "This page is drawn with a great many crossing lines, each one thin.", fontsize=12)
    strokes = ["0.1 w"] + [
        f"{rng.uniform(0, 612):.1f} {rng.uniform(0, 792):.1f} m {rng.uniform(0, 612):.1f} {rng.uniform(0, 792):.1f} l S"
        for _ in range(lines)
    ]
    xref = document.get_new_xref()
    document.update_object(xref, "<<>>")
    document.update_stream(xref, "\n".join(strokes).encode())
    _, text_contents = document.xref_get_key(page.xref, "Contents")
    document.xref_set_key(page.xref, "Contents", f"[{text_contents.strip('[]')} {xref} 0 R]")
    document.save(path, deflate=True, garbage=3)
    document.close()
    return path


def tree(pid: int) -> list[psutil.Process]:
    """The process and all its descendants (extraction workers, the forkserver, tesseract)."""
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def tree_rss(pid: int) -> int:
    """Resident memory of the process and its descendants, summed (shared pages counted in each)."""
    total = 0
    for process in tree(pid):
        try:
            total += process.memory_info().rss
        except psutil.Error:
            continue  # a worker that ended between listing and reading
    return total


def tree_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) used so far by each live process of the tree."""
    used = {}
    for process in tree(pid):
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        used[process.pid] = times.user + times.system
    return used


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds the tree used between two `tree_cpu_seconds` samples (a process that started in
    between counts from zero; one that ended in between is not seen)."""
    return sum(used - before.get(pid, 0.0) for pid, used in after.items())


@dataclass
class PeakMeter:
    """Samples a process tree's summed RSS every `interval_s` on a background thread; `peak` is the most."""

    pid: int
    interval_s: float = 0.05
    peak: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> PeakMeter:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(psutil.Error):
                self.peak = max(self.peak, tree_rss(self.pid))
            self._stop.wait(self.interval_s)
