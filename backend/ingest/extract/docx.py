"""Word documents: paragraphs and tables in document order, headings as breadcrumbs.

The body XML is walked directly (descending into content controls and text boxes) so each table lands
between the paragraphs it sits between. Heading 1..9 and Title styles, or styles based on them, open sections;
tables become atomic pipe-row units of kind ``table`` with the header repeated every 20 rows. A table
nested in a cell (layout tables, forms) is read into that cell, its rows separated by ``;``.
Footnotes and endnotes are text the author wrote (a source, a definition, a caveat): each follows the
paragraph or table that refers to it, as "Footnote n: …", so it is searched and cited in its section.
Headers, footers and review comments are left out: page furniture and remarks about the text, not text.

Content imported whole (`w:altChunk`: HTML, MHT, text) is read where it stands (docx_chunks.py).
Paragraphs' and tables' text is read as Word shows it (docx_text.py): from all of a paragraph's runs
(tracked insertions, content controls, fields), rows and cells also inside content controls.

Pictures (a pasted slide, a scanned page, a photo of the board) are OCR'd as a deck's are (pictures.py:
`scan_docx` is the text pass and lists them, each is read in a job of its own, `DocxScan.assemble` puts
the text in): a picture's text follows the paragraph that holds it, in that paragraph's section, as
"Text in picture: …"; one in a table follows the table. Pictures found through python-docx's public API
are read (`Run.iter_inner_content` → `Drawing`): inline and floating pictures in body paragraphs,
hyperlinks, text boxes and content controls, and in table cells, and legacy VML pictures (`w:pict`,
`v:imagedata`, as documents converted from .doc hold them) by their relationship; not pictures inside
drawing canvases, charts or SmartArt.

The text of SmartArt diagrams and charts (graphics.py, shared with slides) follows the paragraph that
draws them, before its pictures' text; one in a table follows the table.
"""

from __future__ import annotations

import hashlib
import re
import zipfile
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import docx
from docx.document import Document
from docx.drawing import Drawing
from docx.enum.style import WD_STYLE_TYPE
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml import parse_xml
from docx.oxml.ns import qn
from docx.oxml.xmlchemy import BaseOxmlElement
from docx.styles.style import BaseStyle, CharacterStyle
from docx.table import Table
from docx.text.paragraph import Paragraph

from backend.ingest.extract.archive import check_zip_contents, corrupt_office_file, office_stream
from backend.ingest.extract.common import Outline, row_group_units
from backend.ingest.extract.docx_chunks import ALT_CHUNK, ImportedChunks
from backend.ingest.extract.docx_text import (
    PARAGRAPH,
    TABLE,
    holds_no_picture,
    paragraph_runs,
    paragraph_text,
    table_paragraphs,
    table_rows,
    text_boxes,
    unwrapped,
    vml_pictures,
)
from backend.ingest.extract.graphics import graphic_text
from backend.ingest.extract.pdf import DEFAULT_MAX_PAGE_PIXELS
from backend.ingest.extract.pictures import (
    PictureOcr,
    PicturePart,
    PictureScan,
    extract_in_process,
    media_members,
    picture_paragraph,
    picture_warnings,
    worth_reading,
)
from backend.ingest.types import ExtractedUnit, ExtractResult

_HEADING_STYLE = re.compile(r"Heading (\d)")
_STYLE_DEPTH = 5  # how far up `based on` chains to look for a heading style
# (reference tag in the body, note tag in its part, relationship to the part, how the note is introduced)
_NOTE_KINDS = (
    (qn("w:footnoteReference"), qn("w:footnote"), RELATIONSHIP_TYPE.FOOTNOTES, "Footnote"),
    (qn("w:endnoteReference"), qn("w:endnote"), RELATIONSHIP_TYPE.ENDNOTES, "Endnote"),
)
_NOT_NOTES = {"separator", "continuationSeparator", "continuationNotice"}  # the note parts' rules, not notes
_DOCX_ERRORS = (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, SyntaxError)


@dataclass(frozen=True)
class DocxHeading:
    level: int
    title: str  # whitespace collapsed, for the breadcrumb
    raw: str


@dataclass(frozen=True)
class ImportedChunk:
    """The text of content the document imports whole (`w:altChunk`, docx_chunks.py), by paragraph."""

    paragraphs: list[str]


_Block = Paragraph | Table | ImportedChunk


@dataclass(frozen=True)
class DocxTable:
    rows: list[list[str]]  # cell texts, empty rows left out


@dataclass(frozen=True)
class DocxScan(PictureScan):
    """`total` counts the distinct pictures to read, `pictures` maps each member to its number among them;
    `parts` are the body in reading order, as the outline takes it."""

    parts: list[DocxHeading | str | DocxTable | PicturePart]
    progress_noun = "picture"

    def texts(self) -> Iterator[str]:
        for part in self.parts:
            if isinstance(part, str):
                yield part
            elif isinstance(part, DocxHeading):
                yield part.raw
            elif isinstance(part, DocxTable):
                yield from (unit.text for unit in _table_units(part.rows, None))

    def assemble(self, read: dict[str, PictureOcr], ocr_missing: str | None) -> ExtractResult:
        """One unit per section (tables apart), each picture's text in place; warnings name the sections of
        the pictures concerned."""
        outline = Outline("text", separator="\n\n")
        sections: dict[str, list[str | None]] = {}  # member -> the sections it is shown in
        for part in self.parts:
            if isinstance(part, DocxHeading):
                outline.heading(part.level, part.title, part.raw)
            elif isinstance(part, DocxTable):
                outline.add_units(_table_units(part.rows, outline.section))
            elif isinstance(part, PicturePart):
                sections.setdefault(part.member, []).append(outline.section)
                if text := picture_paragraph(read.get(part.member)):
                    outline.text(text)
            else:
                outline.text(part)

        def where(members: Collection[str]) -> str:
            names = dict.fromkeys(section for member in members for section in sections.get(member, []))
            named = [f'"{name}"' for name in names if name is not None]
            if not named:
                return "in the document"
            return "under " + ", ".join(named) + (" and before the first heading" if None in names else "")

        return ExtractResult(units=outline.finish(), warnings=picture_warnings(self.pictures, read, ocr_missing, where))


def extract_docx(path: Path, *, ocr_languages: str = "eng+deu",
                 max_pixels: int = DEFAULT_MAX_PAGE_PIXELS) -> ExtractResult:
    """The document in this process, OCR'ing pictures one after another (the sandbox reads them in parallel)."""
    return extract_in_process(path, scan_docx(path), ocr_languages, max_pixels)


def scan_docx(path: Path) -> DocxScan:
    """The body's paragraphs, headings, tables and notes in reading order, and the pictures to OCR."""
    check_zip_contents(path, "docx")
    try:
        # From a file object: the stored file's name carries no suffix python-docx could rely on.
        with office_stream(path, "docx") as stream:
            document = docx.Document(stream)
        notes = _Notes(document)
        related = document.part.related_parts

        def related_blob(rel_id: str) -> bytes:
            blob: bytes = related[rel_id].blob
            return blob

        pictures, headings = _Pictures(path), _HeadingLevels(document)
        parts: list[DocxHeading | str | DocxTable | PicturePart] = []
        for element, block in _blocks(document):
            if isinstance(block, ImportedChunk):
                parts.extend(block.paragraphs)
            elif isinstance(block, Table):
                rows = table_rows(element, document)
                parts.append(DocxTable([row for row in rows if any(row)]))
                if text := graphic_text(element, related_blob):
                    parts.append(text)
                # Once each: a picture shown in several cells is placed once, after the table.
                parts.extend(dict.fromkeys(pictures.in_paragraphs(table_paragraphs(element, document))))
            else:
                if text := paragraph_text(block).strip():
                    level = headings.of(element)
                    parts.append(text if level is None else DocxHeading(level, " ".join(text.split()), text))
                if text := graphic_text(element, related_blob):
                    parts.append(text)
                parts.extend(pictures.in_paragraphs([block]))
            parts.extend(notes.referenced_in(element))
    except _DOCX_ERRORS as exc:
        raise corrupt_office_file("docx") from exc
    return DocxScan(len(pictures.numbers), {member: [number] for member, number in pictures.numbers.items()},
                    parts)


class _Pictures:
    """The pictures worth OCR'ing that paragraphs hold, by zip member (found by content, as a deck's: see
    pictures.media_members), numbered in the order they are first met."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._members: dict[str, str] | None = None  # read when the first picture is met
        self._worth: dict[str, str | None] = {}  # SHA-1 -> member, None when not worth reading
        self.numbers: dict[str, int] = {}

    def in_paragraphs(self, paragraphs: Iterable[Paragraph]) -> Iterator[PicturePart]:
        for paragraph in paragraphs:
            if holds_no_picture(paragraph):
                continue
            members = [self._member(content) for run in paragraph_runs(paragraph)
                       for content in run.iter_inner_content() if isinstance(content, Drawing) and content.has_picture]
            # Legacy VML pictures (`w:pict`), as in documents converted from .doc: by their relationship.
            members += [self._vml_member(paragraph, rel_id) for rel_id in vml_pictures(paragraph)]
            for member in members:
                if member is not None:
                    self.numbers.setdefault(member, len(self.numbers) + 1)
                    yield PicturePart(member)

    def _member(self, drawing: Drawing) -> str | None:
        try:
            image = drawing.image
        except MemoryError:
            raise
        # A picture part that is no picture or a damaged one is passed over, as an EMF or WMF (which
        # python-docx does not know) is. Its header parsers raise their own errors, KeyError, struct.error
        # and, on a JPEG cut short, a bare Exception.
        except Exception:  # noqa: BLE001
            return None
        return self._worth_reading(image.sha1, image.blob)

    def _vml_member(self, paragraph: Paragraph, rel_id: str) -> str | None:
        part = paragraph.part.related_parts.get(rel_id)  # none for a linked picture
        if part is None:
            return None
        blob: bytes = part.blob
        return self._worth_reading(hashlib.sha1(blob).hexdigest(), blob)  # noqa: S324 - a content key

    def _worth_reading(self, sha1: str, blob: bytes) -> str | None:
        if sha1 not in self._worth:
            if self._members is None:
                with zipfile.ZipFile(self._path) as archive:
                    self._members = media_members(archive)
            member = self._members.get(sha1)
            self._worth[sha1] = member if member is not None and worth_reading(blob, None) else None
        return self._worth[sha1]


def _blocks(document: Document) -> Iterator[tuple[BaseOxmlElement, _Block]]:
    """Each paragraph and table in reading order, with its XML element (where its note references are)."""
    yield from _walk(document.element.body, document, ImportedChunks(document.part.related_parts))


def _walk(element: BaseOxmlElement, document: Document,
          chunks: ImportedChunks) -> Iterator[tuple[BaseOxmlElement, _Block]]:
    # The document is a valid parent: paragraphs and tables only ask their parent for `.part`.
    for child in unwrapped(element, PARAGRAPH, TABLE, ALT_CHUNK):
        if child.tag == PARAGRAPH:
            yield child, Paragraph(child, document)
            for box in text_boxes(child):
                yield from _walk(box, document, chunks)
        elif child.tag == ALT_CHUNK:
            yield child, ImportedChunk(chunks.paragraphs(child))
        else:
            yield child, Table(child, document)


class _Notes:
    """The document's footnotes and endnotes by id, handed out as the body refers to them, numbered in
    that order (as Word numbers them by default)."""

    def __init__(self, document: Document) -> None:
        self._document = document
        self._texts: dict[tuple[str, str], str] = {}  # (reference tag, note id) → text
        self._numbers = {reference: 0 for reference, _, _, _ in _NOTE_KINDS}
        for rel in document.part.rels.values():
            kind = next((k for k in _NOTE_KINDS if k[2] == rel.reltype), None)
            if kind is None or rel.is_external:
                continue
            reference, note_tag, _, _ = kind
            for note in parse_xml(rel.target_part.blob).iterchildren(note_tag):
                if note.get(qn("w:type")) in _NOT_NOTES:
                    continue
                # Whitespace collapsed: a note opens with its reference mark, then a tab or spaces.
                lines = (" ".join(paragraph_text(Paragraph(p, document)).split()) for p in note.iter(PARAGRAPH))
                text = "\n".join(line for line in lines if line)
                if text:
                    self._texts[(reference, note.get(qn("w:id")) or "")] = text

    def referenced_in(self, block: BaseOxmlElement) -> Iterator[str]:
        """"Footnote n: text" for each note the paragraph or table (its XML element) refers to, in order."""
        if not self._texts:
            return
        for element in block.iter(*(k[0] for k in _NOTE_KINDS)):
            label = next(k[3] for k in _NOTE_KINDS if k[0] == element.tag)
            text = self._texts.get((element.tag, element.get(qn("w:id")) or ""))
            if text is not None:
                self._numbers[element.tag] += 1
                yield f"{label} {self._numbers[element.tag]}: {text}"


class _HeadingLevels:
    """Each paragraph's heading level, looked up once per style. `Paragraph.style` scans the document's whole
    style list on every call (for a paragraph without a style of its own, to find the default): a handbook
    of 4,750 paragraphs spent two thirds of its reading there. The style is resolved as python-docx does: the
    paragraph style of the paragraph's `w:pStyle` id, else the default paragraph style."""

    def __init__(self, document: Document) -> None:
        self._styles = {style.style_id: style for style in document.styles if style.type == WD_STYLE_TYPE.PARAGRAPH}
        self._default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
        self._levels: dict[str | None, int | None] = {}

    def of(self, paragraph: BaseOxmlElement) -> int | None:
        """0 for Title, n for Heading n, None for body text."""
        properties = paragraph.find(qn("w:pPr"))
        named = properties.find(qn("w:pStyle")) if properties is not None else None
        style_id = named.get(qn("w:val")) if named is not None else None
        if style_id not in self._levels:
            self._levels[style_id] = _heading_level(self._styles.get(style_id or "", self._default))
        return self._levels[style_id]


def _heading_level(style: BaseStyle | None) -> int | None:
    """0 for Title, n for Heading n (also through `based on` chains), None for body text."""
    for _ in range(_STYLE_DEPTH):
        if style is None:
            return None
        if style.name == "Title":
            return 0
        if match := _HEADING_STYLE.fullmatch(style.name or ""):
            return int(match.group(1))
        style = style.base_style if isinstance(style, CharacterStyle) else None
    return None


def _table_units(rows: list[list[str]], section: str | None) -> list[ExtractedUnit]:
    if not rows:
        return []
    return row_group_units(rows[0], rows[1:], kind="table", section=section)
