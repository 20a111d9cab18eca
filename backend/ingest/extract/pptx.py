"""PowerPoint decks: one unit per slide (kind ``slide``, page = slide number, section = slide title).

A slide's unit holds its title, the text of every text frame (also inside grouped shapes), tables as
pipe rows, and the speaker notes prefixed ``Notes:``, so a question about what the speaker said finds
the slide it belongs to.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from lxml.etree import XMLSyntaxError
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.exc import PackageNotFoundError
from pptx.shapes.autoshape import Shape
from pptx.shapes.base import BaseShape
from pptx.shapes.graphfrm import GraphicFrame
from pptx.shapes.group import GroupShape
from pptx.slide import Slide

from backend.ingest.extract.archive import check_zip_contents, corrupt_office_file
from backend.ingest.extract.common import render_row
from backend.ingest.types import ExtractedUnit, ExtractProgress, ExtractResult, ProgressCallback

_PPTX_ERRORS = (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, XMLSyntaxError)


def extract_pptx(path: Path, on_progress: ProgressCallback | None = None) -> ExtractResult:
    check_zip_contents(path, "pptx")
    try:
        # From a file object: the stored file's name carries no suffix python-pptx could rely on.
        with path.open("rb") as stream:
            slides = list(Presentation(stream).slides)
        units: list[ExtractedUnit] = []
        for number, slide in enumerate(slides, start=1):
            unit = _slide_unit(slide, number)
            if unit is not None:
                units.append(unit)
            if on_progress is not None:
                on_progress(ExtractProgress(number, len(slides), f"slide {number} of {len(slides)}"))
    except _PPTX_ERRORS as exc:
        raise corrupt_office_file("pptx") from exc
    return ExtractResult(units=units, pages=len(slides))


def _slide_unit(slide: Slide, number: int) -> ExtractedUnit | None:
    title_shape = slide.shapes.title
    title = " ".join(title_shape.text_frame.text.split()) if title_shape is not None else ""
    parts = [title] if title else []
    skip = title_shape.shape_id if title_shape is not None else None
    parts.extend(_shape_texts(shape for shape in slide.shapes if shape.shape_id != skip))
    notes = slide.notes_slide.notes_text_frame if slide.has_notes_slide else None
    if notes is not None and notes.text.strip():
        parts.append("Notes: " + notes.text.strip())
    text = "\n\n".join(part for part in parts if part.strip())
    if not text:
        return None
    return ExtractedUnit(text=text, kind="slide", page=number, section=title or None)


def _shape_texts(shapes: Iterable[BaseShape]) -> Iterator[str]:
    """Texts of shapes in tree order, descending into groups."""
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP and isinstance(shape, GroupShape):
            yield from _shape_texts(shape.shapes)
        elif isinstance(shape, GraphicFrame) and shape.has_table:
            rows = [[cell.text.strip() for cell in row.cells] for row in shape.table.rows]
            yield "\n".join(render_row(row) for row in rows if any(row))
        elif isinstance(shape, Shape) and shape.has_text_frame:  # placeholders are Shapes too
            yield shape.text_frame.text.strip()
