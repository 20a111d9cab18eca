"""PowerPoint decks: one unit per slide (kind ``slide``, page = slide number, section = slide title).

A slide's unit holds its title, the text of every text frame (also inside grouped shapes), tables as
pipe rows, the text of SmartArt diagrams and charts (graphics.py), the text OCR'd from its pictures as a
paragraph starting ``Text in picture:``, and the speaker notes prefixed ``Notes:``, so a question about
what the speaker said finds the slide it belongs to.

Reading is two passes, like a PDF's: `scan_pptx` reads every slide's text and lists the pictures worth
OCR'ing (pictures.py says which), then the pictures are OCR'd a few at a time (`pictures.ocr_members`), so
the sandbox reads them in parallel, once each however many slides show them; `PptxScan.assemble` puts the
text in. Pictures are read on every slide, also on slides full of text: a labelled diagram sits beside
bullets, and a photo without text reads as nothing (the corpus deck's one photo gives no word).

Shapes PowerPoint wraps in `mc:AlternateContent` (every text box holding an equation) are not listed by
python-pptx; their text is read from the XML, equations in a linear form (omml.py).

python-pptx gives a line break inside a paragraph (Shift+Enter, `<a:br>`) as a vertical tab; it is stored
as a newline, since a vertical tab is no line break to a browser or a model ("0\vno action" showed as
"0no action" in the viewer).
"""

from __future__ import annotations

import zipfile
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import etree
from lxml.etree import XMLSyntaxError
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.exc import PackageNotFoundError
from pptx.oxml.ns import qn
from pptx.shapes.autoshape import Shape
from pptx.shapes.base import BaseShape
from pptx.shapes.graphfrm import GraphicFrame
from pptx.shapes.group import GroupShape
from pptx.shapes.picture import Picture
from pptx.slide import Slide

from backend.ingest.extract.archive import check_zip_contents, corrupt_office_file, office_stream
from backend.ingest.extract.common import page_ranges, render_row
from backend.ingest.extract.graphics import MC, RelatedBlob, graphic_text
from backend.ingest.extract.omml import EQUATION, math_text
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
from backend.ingest.types import ExtractedUnit, ExtractProgress, ExtractResult, ProgressCallback

_MC_ALTERNATE, _MC_CHOICE = MC + "AlternateContent", MC + "Choice"
_SHAPE_TREES = frozenset({qn("p:spTree"), qn("p:grpSp")})
_A_PARAGRAPH, _A_TEXT, _A_BREAK = qn("a:p"), qn("a:t"), qn("a:br")
_PPTX_ERRORS = (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, XMLSyntaxError)
# A deck without a declared slide size shows PowerPoint's default 4:3 slide (10 x 7.5 inches, in EMU).
_DEFAULT_SLIDE_AREA = 9_144_000 * 6_858_000


@dataclass(frozen=True)
class ScannedSlide:
    number: int
    title: str
    parts: list[str | PicturePart]  # in reading order: title, shapes' texts and pictures, notes


@dataclass(frozen=True)
class PptxScan(PictureScan):
    """`total` counts slides, `pictures` maps each member to the slides that show it."""

    slides: list[ScannedSlide]
    progress_noun = "slide"

    def texts(self) -> Iterator[str]:
        return (part for slide in self.slides for part in slide.parts if isinstance(part, str))

    def assemble(self, read: dict[str, PictureOcr], ocr_missing: str | None) -> ExtractResult:
        """One unit per slide with text, the pictures' text in place; warnings name the slides concerned."""
        units: list[ExtractedUnit] = []
        for slide in self.slides:
            texts = [part if isinstance(part, str) else picture_paragraph(read.get(part.member))
                     for part in slide.parts]
            text = "\n\n".join(part for part in texts if part.strip())
            if text:
                units.append(ExtractedUnit(text=text, kind="slide", page=slide.number, section=slide.title or None))
        warnings = picture_warnings(self.pictures, read, ocr_missing, self._slides_of)
        return ExtractResult(units=units, pages=self.total, warnings=warnings)

    def _slides_of(self, members: Collection[str]) -> str:
        numbers = {number for member in members for number in self.pictures.get(member, [])}
        return "on slide(s) " + page_ranges(sorted(numbers))


def extract_pptx(path: Path, on_progress: ProgressCallback | None = None, *, ocr_languages: str = "eng+deu",
                 max_pixels: int = DEFAULT_MAX_PAGE_PIXELS) -> ExtractResult:
    """The deck in this process, OCR'ing pictures one after another (the sandbox reads them in parallel)."""
    return extract_in_process(path, scan_pptx(path, on_progress), ocr_languages, max_pixels)


def scan_pptx(path: Path, on_progress: ProgressCallback | None = None) -> PptxScan:
    """Every slide's text and the pictures to OCR; progress counts the slides with none ("slide 3 of 21")."""
    check_zip_contents(path, "pptx")
    try:
        with zipfile.ZipFile(path) as archive:
            members = media_members(archive)
        # From a file object: the stored file's name carries no suffix python-pptx could rely on.
        with office_stream(path, "pptx") as stream:
            deck = Presentation(stream)
        width, height = deck.slide_width, deck.slide_height
        area = width * height if width and height else _DEFAULT_SLIDE_AREA
        slides = list(deck.slides)
        scanned: list[ScannedSlide] = []
        pictures: dict[str, list[int]] = {}
        done = 0
        for number, slide in enumerate(slides, start=1):
            scanned.append(_scan_slide(slide, number, members, area))
            shown = {part.member for part in scanned[-1].parts if isinstance(part, PicturePart)}
            for member in shown:
                pictures.setdefault(member, []).append(number)
            if not shown:  # a slide with pictures is done when they are read
                done += 1
                if on_progress is not None:
                    on_progress(ExtractProgress(done, len(slides), f"slide {done} of {len(slides)}"))
    except _PPTX_ERRORS as exc:
        raise corrupt_office_file("pptx") from exc
    return PptxScan(len(slides), pictures, scanned)


def _scan_slide(slide: Slide, number: int, members: dict[str, str], area: int) -> ScannedSlide:
    title_shape = slide.shapes.title
    title = " ".join(title_shape.text_frame.text.split()) if title_shape is not None else ""
    parts: list[str | PicturePart] = [title] if title else []
    skip = title_shape.shape_id if title_shape is not None else None
    parts.extend(_shape_parts((shape for shape in slide.shapes if shape.shape_id != skip), members, area))
    parts.extend(_alternate_content_texts(slide.shapes.element))
    notes = slide.notes_slide.notes_text_frame if slide.has_notes_slide else None
    if notes is not None and (text := _lines(notes.text)):
        parts.append("Notes: " + text)
    return ScannedSlide(number, title, parts)


def _shape_parts(shapes: Iterable[BaseShape], members: dict[str, str], area: int) -> Iterator[str | PicturePart]:
    """Texts of shapes and pictures worth reading, in tree order, descending into groups."""
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP and isinstance(shape, GroupShape):
            yield from _shape_parts(shape.shapes, members, area)
        elif isinstance(shape, GraphicFrame) and shape.has_table:
            rows = [[_lines(cell.text) for cell in row.cells] for row in shape.table.rows]
            yield "\n".join(render_row(row) for row in rows if any(row))
        elif isinstance(shape, GraphicFrame):  # SmartArt, a chart
            yield graphic_text(shape.element, _related_blob(shape))
        elif isinstance(shape, Shape) and shape.has_text_frame:  # placeholders are Shapes too
            yield _lines(shape.text_frame.text)
        elif isinstance(shape, Picture):  # placeholders holding a picture too
            picture = _picture(shape, members, area)
            if picture is not None:
                yield picture


def _alternate_content_texts(tree: etree._Element) -> Iterator[str]:
    """The text of shapes python-pptx does not list: those PowerPoint wraps in `mc:AlternateContent`, such
    as every text box holding an equation (its mc:Choice is read, as in Word; the fallback is a picture of
    it). Before, such a box was lost whole, the sentence around the formula too."""
    for wrapper in tree.iter(_MC_ALTERNATE):
        if wrapper.getparent().tag not in _SHAPE_TREES or any(
                ancestor.tag == _MC_ALTERNATE for ancestor in wrapper.iterancestors()):
            continue
        choice = wrapper.find(_MC_CHOICE)
        if choice is None:
            continue
        lines = ("".join(math_text(node) if node.tag == EQUATION else "\n" if node.tag == _A_BREAK else node.text or ""
                         for node in paragraph.iter(_A_TEXT, _A_BREAK, EQUATION))
                 for paragraph in choice.iter(_A_PARAGRAPH))
        if text := "\n".join(line.strip() for line in lines if line.strip()):
            yield text


def _lines(text: str) -> str:
    """A text frame's text with its line breaks (python-pptx's vertical tabs) as newlines."""
    return text.replace("\v", "\n").strip()


def _related_blob(shape: GraphicFrame) -> RelatedBlob:
    part = shape.part
    return lambda rel_id: part.related_part(rel_id).blob


def _picture(shape: Picture, members: dict[str, str], area: int) -> PicturePart | None:
    try:
        image = shape.image
    except (ValueError, KeyError):  # a linked picture: its image is not in the file
        return None
    # A placeholder's size may be inherited from a layout that has none: then it is not judged by size.
    share = shape.width * shape.height / area if shape.width and shape.height else None
    member = members.get(image.sha1)
    if member is None or not worth_reading(image.blob, share):
        return None
    return PicturePart(member)
