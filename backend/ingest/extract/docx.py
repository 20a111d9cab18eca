"""Word documents: paragraphs and tables in document order, headings as breadcrumbs.

The body XML is walked directly (descending into content controls and text boxes) so each table lands
between the paragraphs it sits between. Heading 1..9 and Title styles, or styles based on them, open sections;
tables become atomic pipe-row units of kind ``table`` with the header repeated every 20 rows. A table
nested in a cell (layout tables, forms) is read into that cell, its rows separated by ``;``. Footnotes
and endnotes (which python-docx does not read) follow the body as one ``Footnotes`` / ``Endnotes``
section, each note as ``[n] text``.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol

import docx
from docx.document import Document
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml import parse_xml
from docx.oxml.ns import qn
from docx.oxml.xmlchemy import BaseOxmlElement
from docx.styles.style import BaseStyle, CharacterStyle
from docx.table import Table
from docx.text.paragraph import Paragraph

from backend.ingest.extract.archive import check_zip_contents, corrupt_office_file
from backend.ingest.extract.common import Outline, row_group_units
from backend.ingest.types import ExtractedUnit, ExtractResult

_HEADING_STYLE = re.compile(r"Heading (\d)")
_STYLE_DEPTH = 5  # how far up `based on` chains to look for a heading style
_PARAGRAPH, _TABLE, _CONTENT_CONTROL, _TEXT_BOX = qn("w:p"), qn("w:tbl"), qn("w:sdt"), qn("w:txbxContent")
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_DOCX_ERRORS = (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, SyntaxError)
_NOTES = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml": ("Footnotes", qn("w:footnote")),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml": ("Endnotes", qn("w:endnote")),
}
_SEPARATOR_NOTES = frozenset({"separator", "continuationSeparator", "continuationNotice"})


def extract_docx(path: Path) -> ExtractResult:
    check_zip_contents(path, "docx")
    try:
        # From a file object: the stored file's name carries no suffix python-docx could rely on.
        with path.open("rb") as stream:
            document = docx.Document(stream)
        outline = Outline("text", separator="\n\n")
        for block in _blocks(document):
            if isinstance(block, Table):
                outline.add_units(_table_units(block, outline.section))
            elif text := block.text.strip():
                level = _heading_level(block)
                if level is None:
                    outline.text(text)
                else:
                    outline.heading(level, " ".join(text.split()), text)
        return ExtractResult(units=[*outline.finish(), *_note_units(document)])
    except _DOCX_ERRORS as exc:
        raise corrupt_office_file("docx") from exc


def _blocks(document: Document) -> Iterator[Paragraph | Table]:
    yield from _walk(document.element.body, document)


def _walk(element: BaseOxmlElement, document: Document) -> Iterator[Paragraph | Table]:
    # The document is a valid parent: paragraphs and tables only ask their parent for `.part`.
    for child in element.iterchildren():
        if child.tag == _PARAGRAPH:
            yield Paragraph(child, document)
            for box in child.iter(_TEXT_BOX):
                # Word writes each text box twice (a DrawingML shape and a VML fallback): read it once.
                if not any(ancestor.tag == _FALLBACK for ancestor in box.iterancestors()):
                    yield from _walk(box, document)
        elif child.tag == _TABLE:
            yield Table(child, document)
        elif child.tag == _CONTENT_CONTROL:
            content = child.find(qn("w:sdtContent"))
            if content is not None:
                yield from _walk(content, document)


def _note_units(document: Document) -> list[ExtractedUnit]:
    """The document's footnotes and endnotes, one unit per kind (the chunker splits long ones)."""
    units = []
    for part in document.part.package.iter_parts():
        if part.content_type not in _NOTES:
            continue
        section, tag = _NOTES[part.content_type]
        notes = []
        for note in parse_xml(part.blob).iter(tag):
            if note.get(qn("w:type")) in _SEPARATOR_NOTES:
                continue
            paragraphs = ("".join(node.text or "" for node in paragraph.iter(qn("w:t")))
                          for paragraph in note.iter(qn("w:p")))
            if text := "\n".join(paragraph for paragraph in paragraphs if paragraph.strip()).strip():
                notes.append(f"[{note.get(qn('w:id'))}] {text}")
        if notes:
            units.append(ExtractedUnit(text="\n\n".join(notes), kind="text", section=section))
    return units


def _heading_level(paragraph: Paragraph) -> int | None:
    """0 for Title, n for Heading n (also through `based on` chains), None for body text."""
    style: BaseStyle | None = paragraph.style
    for _ in range(_STYLE_DEPTH):
        if style is None:
            return None
        if style.name == "Title":
            return 0
        if match := _HEADING_STYLE.fullmatch(style.name or ""):
            return int(match.group(1))
        style = style.base_style if isinstance(style, CharacterStyle) else None
    return None


def _table_units(table: Table, section: str | None) -> list[ExtractedUnit]:
    rows = [_row_texts(row.cells) for row in table.rows]
    rows = [row for row in rows if any(row)]
    if not rows:
        return []
    return row_group_units(rows[0], rows[1:], kind="table", section=section)


class _GridCell(Protocol):
    """A table cell as python-docx's public API describes it."""

    @property
    def grid_span(self) -> int: ...
    def iter_inner_content(self) -> Iterator[Paragraph | Table]: ...


def _row_texts(cells: Sequence[_GridCell]) -> list[str]:
    """Cell texts, with a horizontally merged cell counted once: python-docx lists a merged cell once per
    grid column it spans (`grid_span`), so its repeats are skipped."""
    texts: list[str] = []
    repeats = 0
    for cell in cells:
        if repeats:
            repeats -= 1
            continue
        texts.append(_cell_text(cell))
        repeats = max(cell.grid_span, 1) - 1
    return texts


def _cell_text(cell: _GridCell) -> str:
    """The cell's paragraphs and the tables nested in it, in order (python-docx's `cell.text` leaves nested
    tables out, so their text was lost). XML depth is bounded by the parser (256), so is the recursion."""
    parts: list[str] = []
    for item in cell.iter_inner_content():
        if isinstance(item, Table):
            rows = (" | ".join(text for text in _row_texts(row.cells) if text) for row in item.rows)
            parts.append("; ".join(row for row in rows if row))
        else:
            parts.append(item.text)
    return "\n".join(part for part in parts if part.strip()).strip()
