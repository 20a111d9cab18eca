"""Generators of real test documents (PDF, scanned PDF, DOCX, PPTX, XLSX, CSV, zip bombs, broken files).

Every `make_*` function writes one file to the given path and returns that path, so tests for the
extractors, the upload API and the browser can share the same fixtures. Content is passed in plainly
(page texts, headings, table rows) so a test can assert exactly what should come back out.
"""

from __future__ import annotations

import io
import shutil
import struct
import textwrap
import zipfile
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pymupdf
from PIL import Image, ImageDraw, ImageFont

if TYPE_CHECKING:
    from pptx.slide import Slide as PptxSlide

_DEJAVU_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
)
# A TrueType font PDFs embed as a CID font (scripts/setup.sh installs fonts-dejavu-core for development).
DEJAVU_SANS = next((Path(candidate) for candidate in _DEJAVU_CANDIDATES if Path(candidate).exists()),
                   Path(_DEJAVU_CANDIDATES[0]))


# ---------------------------------------------------------------- PDF


def make_pdf(
    path: Path,
    pages: Sequence[str],
    *,
    scanned: Collection[int] = (),
    toc: Sequence[tuple[int, str, int]] = (),
    fontsize: float = 11,
) -> Path:
    """Write a PDF with one page per text. Text wraps inside the page margins.

    `scanned` lists 1-based page numbers rendered as an image instead of text (no text layer),
    the way a scanner produces them. `toc` entries are ``(level, title, page)`` bookmarks.
    Raises ValueError when a page's text does not fit on an A4 page at `fontsize`.
    """
    doc = pymupdf.open()
    for number, text in enumerate(pages, start=1):
        page = doc.new_page(width=595, height=842)
        if number in scanned:
            page.insert_image(page.rect, stream=render_text_image(text))
        elif text:
            room = page.insert_textbox(pymupdf.Rect(50, 50, 545, 792), text, fontsize=fontsize)
            if room < 0:
                raise ValueError(f"text of page {number} does not fit on one page")
    if toc:
        doc.set_toc([list(entry) for entry in toc])
    doc.save(path, deflate=True)  # compressed like real files: scanned pages stay small
    doc.close()
    return path


def make_scanned_pdf(path: Path, text: str) -> Path:
    """A one-page PDF whose only content is an image of `text` (needs OCR to be read)."""
    return make_pdf(path, [text], scanned={1})


def make_outlined_pdf(path: Path, text: str) -> Path:
    """A one-page PDF showing `text` as vector outlines: no text layer and no image (as some design and
    slide tools export it), so only OCR of the rendered page can read it."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(50, 50, 545, 792), text, fontsize=16)
    outlined = pymupdf.open("svg", page.get_svg_image(text_as_path=True).encode())
    path.write_bytes(outlined.convert_to_pdf())
    return path


def make_encrypted_pdf(path: Path, text: str = "Secret notes", *, user_password: str = "letmein") -> Path:
    """An AES-256 encrypted PDF. With ``user_password=""`` it opens without a password
    (only an owner password restricts permissions), which readers and Quire must accept."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), text)
    doc.save(
        path,
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        user_pw=user_password,
        owner_pw="owner-" + (user_password or "only"),
    )
    doc.close()
    return path


def make_truncated_pdf(path: Path, keep_bytes: int = 400) -> Path:
    """A real multi-page PDF cut off after `keep_bytes` bytes (a broken download).

    Small values leave nothing a reader can repair; the file still starts with ``%PDF-``.
    """
    source = path.with_suffix(".full.pdf")
    make_pdf(source, [f"Page {n} of a document that will be cut short." for n in range(1, 6)])
    path.write_bytes(source.read_bytes()[:keep_bytes])
    source.unlink()
    return path


def render_text_image(text: str, *, width: int = 1240, height: int = 1754, font_px: int = 40) -> bytes:
    """PNG bytes of black `text` on white, A4 at 150 dpi, wrapped at ~40 characters a line."""
    image = Image.new("L", (width, height), color=255)
    draw = ImageDraw.Draw(image)
    font = _font(font_px)
    y = 120
    for paragraph in text.split("\n"):
        for line in textwrap.wrap(paragraph, width=40) or [""]:
            draw.text((110, y), line, font=font, fill=0)
            y += int(font_px * 1.5)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for candidate in _DEJAVU_CANDIDATES:
        if Path(candidate).exists():
            return ImageFont.truetype(candidate, size)
    return ImageFont.load_default(size)


def tesseract_available() -> bool:
    """True when OCR tests can run (the tesseract binary is on PATH)."""
    return shutil.which("tesseract") is not None


# ---------------------------------------------------------------- DOCX


@dataclass(frozen=True)
class Heading:
    """A heading paragraph; level 0 is the document Title style."""

    text: str
    level: int = 1


@dataclass(frozen=True)
class Para:
    """A paragraph; `pictures` (PNG or JPEG bytes) follow its text in it, each 6 inches wide."""

    text: str
    pictures: Sequence[bytes] = ()


@dataclass(frozen=True)
class Table:
    """Rows of cell texts; the first row is the header."""

    rows: Sequence[Sequence[str]]


def make_docx(path: Path, blocks: Sequence[Heading | Para | Table]) -> Path:
    """A Word document with headings, paragraphs (with their pictures) and tables in the given order."""
    import docx
    import docx.shared

    document = docx.Document()
    for block in blocks:
        if isinstance(block, Heading):
            document.add_heading(block.text, level=block.level)
        elif isinstance(block, Para):
            paragraph = document.add_paragraph(block.text)
            for picture in block.pictures:
                paragraph.add_run().add_picture(io.BytesIO(picture), width=docx.shared.Inches(6))
        else:
            table = document.add_table(rows=len(block.rows), cols=len(block.rows[0]))
            for row, values in zip(table.rows, block.rows, strict=True):
                for cell, value in zip(row.cells, values, strict=True):
                    cell.text = value
    document.save(str(path))
    return path


# ---------------------------------------------------------------- PPTX


@dataclass(frozen=True)
class Slide:
    """One slide: a title, bullet lines, an optional table, texts inside a group shape, notes."""

    title: str | None = None
    bullets: Sequence[str] = ()
    table: Sequence[Sequence[str]] | None = None
    grouped: Sequence[str] = ()
    notes: str | None = None


def make_pptx(path: Path, slides: Sequence[Slide]) -> Path:
    """A PowerPoint deck, one slide per `Slide` (title-and-content layout, or blank without title)."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    for spec in slides:
        layout = deck.slide_layouts[1] if spec.title is not None else deck.slide_layouts[6]
        slide = deck.slides.add_slide(layout)
        if spec.title is not None:
            slide.shapes.title.text = spec.title
            slide.placeholders[1].text_frame.text = "\n".join(spec.bullets)
        elif spec.bullets:
            box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(8), Inches(2))
            box.text_frame.text = "\n".join(spec.bullets)
        if spec.table:
            _add_pptx_table(slide, spec.table)
        if spec.grouped:
            group = slide.shapes.add_group_shape()
            for offset, text in enumerate(spec.grouped):
                box = group.shapes.add_textbox(Inches(1), Inches(5 + offset * 0.5), Inches(4), Inches(0.5))
                box.text_frame.text = text
        if spec.notes:
            slide.notes_slide.notes_text_frame.text = spec.notes
    deck.save(str(path))
    return path


def _add_pptx_table(slide: PptxSlide, rows: Sequence[Sequence[str]]) -> None:
    from pptx.util import Inches

    shape = slide.shapes.add_table(len(rows), len(rows[0]), Inches(1), Inches(3.5), Inches(8), Inches(1.5))
    for r, values in enumerate(rows):
        for c, value in enumerate(values):
            shape.table.cell(r, c).text = value


# ---------------------------------------------------------------- XLSX / CSV


def make_xlsx(path: Path, sheets: Mapping[str, Sequence[Sequence[object]]]) -> Path:
    """A workbook with one sheet per entry; values may be str, int, float, bool, date, datetime, None."""
    from openpyxl import Workbook

    workbook = Workbook()
    workbook.remove(workbook.active)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(title=name)
        for row in rows:
            sheet.append(list(row))
    workbook.save(path)
    return path


def make_csv(
    path: Path, rows: Sequence[Sequence[str]], *, delimiter: str = ",", encoding: str = "utf-8"
) -> Path:
    """A CSV file written with the csv module (quoting as needed) in the given encoding."""
    import csv

    with path.open("w", encoding=encoding, newline="") as handle:
        csv.writer(handle, delimiter=delimiter).writerows(rows)
    return path


# ---------------------------------------------------------------- zips and bombs


def make_zip(path: Path, members: Mapping[str, bytes | str]) -> Path:
    """A deflated zip with the given members (e.g. a fake Office file with chosen parts)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@dataclass(frozen=True)
class ZipBomb:
    """How `make_zip_bomb` misbehaves.

    * ``ratio``: one member of `megabytes` MB of zeros (compresses > 1000:1).
    * ``declared``: small real content, but the central directory claims `megabytes` MB per member.
    * ``members``: `members` tiny entries.
    """

    style: str = "ratio"
    megabytes: int = 12
    members: int = 10_001
    prefix: str = "word/"
    extra: Mapping[str, str] = field(default_factory=dict)


def make_zip_bomb(path: Path, bomb: ZipBomb | None = None) -> Path:
    """An Office-shaped zip (``[Content_Types].xml`` plus parts under `prefix`) that is a bomb."""
    bomb = bomb or ZipBomb()
    members: dict[str, bytes | str] = {"[Content_Types].xml": "<Types/>", **bomb.extra}
    if bomb.style == "ratio":
        members[bomb.prefix + "document.xml"] = bytes(bomb.megabytes * 1024 * 1024)
    elif bomb.style == "members":
        members.update({f"{bomb.prefix}part{n}.xml": b"" for n in range(bomb.members)})
    else:
        members[bomb.prefix + "document.xml"] = b"<w:document/>"
    make_zip(path, members)
    if bomb.style == "declared":
        _lie_about_sizes(path, bomb.megabytes * 1024 * 1024)
    return path


def _lie_about_sizes(path: Path, size: int) -> None:
    """Rewrite every central-directory entry's uncompressed size (offset 24 in the header)."""
    data = bytearray(path.read_bytes())
    position = data.find(b"PK\x01\x02")
    while position != -1:
        struct.pack_into("<I", data, position + 24, size)
        position = data.find(b"PK\x01\x02", position + 4)
    path.write_bytes(bytes(data))
