"""Word text as Word shows it: a paragraph's runs wherever they are nested, and tables' rows and cells
read from their XML, also where content controls or custom XML wrap them.

python-docx's `Paragraph.text` reads only the runs that are the paragraph's children or a hyperlink's: the
runs of tracked insertions (`w:ins`, `w:moveTo`), inline content controls (`w:sdt`), simple fields
(`w:fldSimple`), smart tags and custom XML were silently lost. Deleted text (`w:del`, `w:moveFrom`) stays
out, as Word shows the document with its changes accepted. Equations (Office Math, `m:oMath`) are not runs
at all, so python-docx left them out too: they are read in a linear form (omml.py), "E=mc^2", "(a+b)/c".
Symbols inserted in the Symbol font (`w:sym`, Greek letters and math signs in older documents) are read
as the Unicode characters they show.

Its `Table.rows` and a row's `cells` likewise list only direct children, so a row or cell inside a content
control (Word's repeating sections in forms and templates wrap rows in `w:sdt`) or custom XML was lost with
its text; here rows and cells are found through those wrappers. Merged cells read as python-docx reads them:
a horizontally merged cell once, a vertically merged one with its top cell's text in each row it spans.
A text box in a cell is read with the cell (before, its text was lost); a table nested in a cell is read
into that cell, its rows separated by ``;``.
"""

from __future__ import annotations

from collections.abc import Iterator

from docx.document import Document
from docx.oxml.ns import qn
from docx.oxml.xmlchemy import BaseOxmlElement
from docx.text.paragraph import Paragraph
from docx.text.run import Run

from backend.ingest.extract.graphics import MC_FALLBACK
from backend.ingest.extract.omml import EQUATION, math_text

PARAGRAPH, TABLE, TEXT_BOX = qn("w:p"), qn("w:tbl"), qn("w:txbxContent")
# Around blocks, rows or cells: content controls (their `w:sdtPr` holds no content) and custom XML.
WRAPPERS = frozenset({qn("w:sdt"), qn("w:sdtContent"), qn("w:customXml")})
# A run under one of these is not part of the paragraph's current text: deleted or moved away by a tracked
# change, the fallback copy of alternate content (its mc:Choice is read), or the pronunciation guide set
# above East Asian characters (ruby text; the characters themselves, `w:rubyBase`, are read).
_NOT_SHOWN = frozenset({qn("w:del"), qn("w:moveFrom"), MC_FALLBACK, qn("w:rt")})
_RUN, _ROW, _CELL = qn("w:r"), qn("w:tr"), qn("w:tc")
_VAL = qn("w:val")
_SYMBOL, _FONT, _CHAR = qn("w:sym"), qn("w:font"), qn("w:char")
# The Symbol font's letters and signs in Unicode (Adobe's Symbol encoding): Greek letters by their Latin key.
_SYMBOL_FONT: dict[int, str] = {
    **dict(zip(range(0x41, 0x5B), "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ", strict=True)),
    **dict(zip(range(0x61, 0x7B), "αβχδεφγηιϕκλμνοπθρστυϖωξψζ", strict=True)),
    0x22: "∀", 0x24: "∃", 0x27: "∋", 0x2A: "∗", 0x2D: "−", 0x40: "≅", 0x5E: "⊥", 0x7E: "∼", 0xA1: "ϒ",
    0xA2: "′", 0xA3: "≤", 0xA5: "∞", 0xA7: "♣", 0xAB: "↔", 0xAC: "←", 0xAD: "↑", 0xAE: "→", 0xAF: "↓",
    0xB0: "°", 0xB1: "±", 0xB2: "″", 0xB3: "≥", 0xB4: "×", 0xB5: "∝", 0xB6: "∂", 0xB7: "•", 0xB8: "÷",
    0xB9: "≠", 0xBA: "≡", 0xBB: "≈", 0xBC: "…", 0xC0: "ℵ", 0xC4: "⊗", 0xC5: "⊕", 0xC6: "∅", 0xC7: "∩",
    0xC8: "∪", 0xC9: "⊃", 0xCA: "⊇", 0xCB: "⊄", 0xCC: "⊂", 0xCD: "⊆", 0xCE: "∈", 0xCF: "∉", 0xD0: "∠",
    0xD1: "∇", 0xD5: "∏", 0xD6: "√", 0xD7: "⋅", 0xD8: "¬", 0xD9: "∧", 0xDA: "∨", 0xDB: "⇔", 0xDC: "⇐",
    0xDD: "⇑", 0xDE: "⇒", 0xDF: "⇓", 0xE5: "∑", 0xF2: "∫",
}
_VML_IMAGE = "{urn:schemas-microsoft-com:vml}imagedata"
_DRAWING = qn("w:drawing")
_REL_ID = qn("r:id")
_OFFICE_REL_ID = "{urn:schemas-microsoft-com:office:office}relid"


def paragraph_runs(paragraph: Paragraph) -> Iterator[Run]:
    """The paragraph's runs in document order, wherever they are nested (tracked insertions, content
    controls, fields, smart tags, hyperlinks), except deleted ones and those of paragraphs nested in it
    (a text box's, read as paragraphs of their own)."""
    element = _element(paragraph)
    for run in element.iter(_RUN):
        if _shown(run, element):
            yield Run(run, paragraph)


def paragraph_text(paragraph: Paragraph) -> str:
    """The paragraph's text as Word shows it with its tracked changes accepted, equations in a linear form."""
    element = _element(paragraph)
    parts: list[str] = []
    for item in element.iter(_RUN, EQUATION):
        if _shown(item, element):
            parts.append(math_text(item) if item.tag == EQUATION else Run(item, paragraph).text + _symbols(item))
    return "".join(parts)


def _symbols(run: BaseOxmlElement) -> str:
    """The characters of the run's `w:sym` elements (Insert > Symbol in the Symbol font: Greek letters and
    math signs, as older documents hold them) that the Symbol font maps to Unicode; python-docx reads none
    ("the angle θ" read as "the angle "). Other symbol fonts (Wingdings: arrows, ticks) are decoration."""
    chars = []
    for symbol in run.iterchildren(_SYMBOL):
        if (symbol.get(_FONT) or "").strip().lower() != "symbol":
            continue
        try:
            code = int(symbol.get(_CHAR) or "", 16)
        except ValueError:
            continue
        char = _SYMBOL_FONT.get(code & 0xFF)  # Word writes F0xx (the private-use copy) or 00xx
        if char is not None:
            chars.append(char)
    return "".join(chars)


def _element(paragraph: Paragraph) -> BaseOxmlElement:
    # The paragraph's own element, through public API (its format object proxies the same `w:p`).
    element: BaseOxmlElement = paragraph.paragraph_format.element
    return element


def _shown(node: BaseOxmlElement, paragraph: BaseOxmlElement) -> bool:
    """Whether a run or equation is part of the paragraph's current text: not deleted, not in a paragraph
    nested in it, not inside an equation (read as a whole)."""
    for ancestor in node.iterancestors():
        if ancestor is paragraph:
            return True
        if ancestor.tag in _NOT_SHOWN or ancestor.tag in (PARAGRAPH, EQUATION):
            return False
    return True


def holds_no_picture(paragraph: Paragraph) -> bool:
    """No drawing and no VML image anywhere in the paragraph: most paragraphs, told by one scan of its tree
    rather than by asking each run for its inner content (a third of reading a long document)."""
    return next(_element(paragraph).iter(_DRAWING, _VML_IMAGE), None) is None


def vml_pictures(paragraph: Paragraph) -> Iterator[str]:
    """The relationship ids of the legacy VML pictures (`v:imagedata`) the paragraph shows, in order (not a
    fallback copy of a DrawingML picture, not a nested paragraph's)."""
    element = _element(paragraph)
    for image in element.iter(_VML_IMAGE):
        rel_id = image.get(_REL_ID) or image.get(_OFFICE_REL_ID)
        if rel_id and _shown(image, element):
            yield rel_id


def text_boxes(paragraph: BaseOxmlElement) -> Iterator[BaseOxmlElement]:
    """The text boxes a paragraph draws, once each: Word writes each twice (a DrawingML shape and a VML
    fallback). Only its own, not those inside them: a box in a box is its paragraph's to give, else every
    box would be read once per box around it (2^n times at depth n, a hostile file's way to hang us)."""
    for box in paragraph.iter(TEXT_BOX):
        if box is paragraph:
            continue
        for ancestor in box.iterancestors():
            if ancestor is paragraph:
                yield box
                break
            if ancestor.tag in (MC_FALLBACK, TEXT_BOX):
                break


def unwrapped(element: BaseOxmlElement, *tags: str) -> Iterator[BaseOxmlElement]:
    """The children of `element` with one of `tags`, in order, also those inside wrappers (WRAPPERS)."""
    for child in element.iterchildren():
        if child.tag in tags:
            yield child
        elif child.tag in WRAPPERS:
            yield from unwrapped(child, *tags)


def table_rows(table: BaseOxmlElement, document: Document) -> list[list[str]]:
    """Each row's cell texts (a horizontally merged cell once, a vertically merged one repeated)."""
    rows: list[list[str]] = []
    above: dict[int, str] = {}  # grid column -> text of the cell a vertical merge continues
    for row in unwrapped(table, _ROW):
        texts: list[str] = []
        column = _int_property(row, "w:trPr", "w:gridBefore", 0)
        for cell in unwrapped(row, _CELL):
            properties = cell.find(qn("w:tcPr"))
            merge = properties.find(qn("w:vMerge")) if properties is not None else None
            if merge is not None and merge.get(_VAL, "continue") == "continue":
                text = above.get(column, "")
            else:
                text = above[column] = _cell_text(cell, document)
            texts.append(text)
            column += max(_int_property(cell, "w:tcPr", "w:gridSpan", 1), 1)
        rows.append(texts)
    return rows


def table_paragraphs(table: BaseOxmlElement, document: Document) -> Iterator[Paragraph]:
    """Every paragraph in the table's cells (nested tables' and text boxes' too), in order."""
    return (Paragraph(paragraph, document) for paragraph in table.iter(PARAGRAPH))


def _cell_text(cell: BaseOxmlElement, document: Document) -> str:
    """The cell's paragraphs, their text boxes and the tables nested in it, in order. XML depth is bounded
    by the parser (256), so is the recursion."""
    parts: list[str] = []
    for item in unwrapped(cell, PARAGRAPH, TABLE):
        if item.tag == TABLE:
            rows = (" | ".join(text for text in row if text) for row in table_rows(item, document))
            parts.append("; ".join(row for row in rows if row))
        else:
            parts.append(paragraph_text(Paragraph(item, document)))
            for box in text_boxes(item):
                parts.extend(paragraph_text(Paragraph(p, document)) for p in box.iter(PARAGRAPH))
    return "\n".join(part for part in parts if part.strip()).strip()


def _int_property(element: BaseOxmlElement, properties_tag: str, tag: str, default: int) -> int:
    properties = element.find(qn(properties_tag))
    found = properties.find(qn(tag)) if properties is not None else None
    try:
        return int(found.get(_VAL, default)) if found is not None else default
    except ValueError:
        return default
