"""Text a deck draws in SmartArt diagrams and charts is read, over HTTP to a real server: found by search at
its slide, and shown in the slide's text in the order PowerPoint draws the boxes. python-pptx reads
neither, so before this the words were in the file and nowhere in Quire."""

from __future__ import annotations

import io
from collections.abc import Callable

import httpx
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Inches

from tests.support.graphics import BROKEN_DATA, DIAGRAM_DATA, MITOSIS, diagram_data, with_parts
from tests.support.vault import ingest

Unique = Callable[[str], str]


def _frame(rel_id: str) -> str:
    return (
        '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="40" name="Diagram 1"/><p:cNvGraphicFramePr/><p:nvPr/>'
        '</p:nvGraphicFramePr><p:xfrm><a:off x="914400" y="1828800"/><a:ext cx="6096000" cy="3048000"/></p:xfrm>'
        f'<a:graphic>{diagram_data(rel_id)}</a:graphic></p:graphicFrame>'
    )


def _lecture_deck() -> bytes:
    """Slide 1: a chart; slide 2: a SmartArt diagram; slide 3: a SmartArt diagram whose data part is broken."""
    deck = Presentation()
    titles = ("Cell respiration", "Mitosis phases", "Broken diagram")
    for title in titles:
        deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = title
    data = CategoryChartData()
    data.categories = ["Glycolysis", "Krebs cycle", "Electron transport"]
    data.add_series("ATP yield", (2, 2, 34))
    chart = deck.slides[0].shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(6),
                                            Inches(4), data).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "ATP per stage"
    plain = io.BytesIO()
    deck.save(plain)
    # Slide 2 holds a SmartArt diagram, slide 3 one whose data part is broken.
    edits = {f"ppt/slides/slide{slide}.xml": [(b"</p:spTree>", _frame("rIdDgm").encode() + b"</p:spTree>")]
             for slide in (2, 3)}
    return with_parts(plain.getvalue(), edits, {
        "ppt/diagrams/data2.xml": ("ppt/slides/_rels/slide2.xml.rels", "rIdDgm", DIAGRAM_DATA, MITOSIS.encode()),
        "ppt/diagrams/data3.xml": ("ppt/slides/_rels/slide3.xml.rels", "rIdDgm", DIAGRAM_DATA, BROKEN_DATA),
    })


def test_smartart_and_chart_text_is_read_in_drawing_order(api: httpx.Client, unique: Unique) -> None:
    name = unique("biology.pptx")
    document = ingest(api, {name: _lecture_deck()})[name]
    blocks = api.get(f"/api/documents/{document['id']}/blocks").json()["blocks"]
    slides = {block["page"]: block["text"] for block in blocks}
    assert "Chart: ATP per stage\nCategories: Glycolysis, Krebs cycle, Electron transport\nSeries: ATP yield" \
        in slides[1]
    assert "Prophase\n  chromosomes condense\nPrometaphase\nMetaphase" in slides[2]
    assert slides[3] == "Broken diagram"  # a broken data part adds nothing and fails nothing
    assert api.get(f"/api/documents/{document['id']}").json()["status"] == "ready"
    hits = api.get("/api/search", params={"q": "chromosomes condense", "mode": "sparse",
                                           "documents": document["id"]}).json()["hits"]
    assert (hits[0]["page"], hits[0]["section"]) == (2, "Mitosis phases")
    hits = api.get("/api/search", params={"q": "Krebs cycle glycolysis", "mode": "sparse",
                                           "documents": document["id"]}).json()["hits"]
    assert hits[0]["page"] == 1
