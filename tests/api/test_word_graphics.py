"""Text a Word document draws in SmartArt diagrams and charts is read, over HTTP to a real server: shown
right after the paragraph that holds the drawing, in its section, and found by search there. python-docx
reads neither, so before this the words were in the file and nowhere in Quire."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import docx
import httpx

from tests.support.graphics import (
    BROKEN_DATA,
    CHART,
    CHART_REL,
    DIAGRAM_DATA,
    MITOSIS,
    A,
    R,
    chart_data,
    diagram_data,
    with_parts,
)
from tests.support.vault import ingest

Unique = Callable[[str], str]

MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
WPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
VML = "urn:schemas-microsoft-com:vml"


def _strings(values: list[str]) -> str:
    points = "".join(f'<c:pt idx="{i}"><c:v>{value}</c:v></c:pt>' for i, value in enumerate(values))
    return f'<c:strRef><c:f>Sheet1</c:f><c:strCache><c:ptCount val="{len(values)}"/>{points}</c:strCache></c:strRef>'


def _series(order: int, name: str, categories: list[str]) -> str:
    values = "".join(f'<c:pt idx="{i}"><c:v>{i + 1}</c:v></c:pt>' for i in range(len(categories)))
    return (f'<c:ser><c:idx val="{order}"/><c:order val="{order}"/><c:tx>{_strings([name])}</c:tx>'
            f'<c:cat>{_strings(categories)}</c:cat><c:val><c:numRef><c:f>Sheet1</c:f><c:numCache>'
            f'<c:ptCount val="{len(categories)}"/>{values}</c:numCache></c:numRef></c:val></c:ser>')


def _chart_part(title_runs: list[str], series: list[str], categories: list[str]) -> bytes:
    """A column chart: its title typed in these runs, the series stored in reverse of their order."""
    title = "".join(f"<a:r><a:t>{run}</a:t></a:r>" for run in title_runs)
    stored = "".join(_series(order, name, categories) for order, name in reversed(list(enumerate(series))))
    return (f'<c:chartSpace xmlns:c="{CHART}" xmlns:a="{A}" xmlns:r="{R}"><c:chart><c:title><c:tx><c:rich>'
            f'<a:bodyPr/><a:p>{title}</a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:barDir val="col"/>'
            f'{stored}</c:barChart></c:plotArea></c:chart></c:chartSpace>').encode()


def _drawing(graphic_data: str) -> str:
    return (f'<w:drawing><wp:inline xmlns:wp="{WP}"><wp:extent cx="5486400" cy="3200400"/>'
            '<wp:docPr id="30" name="Graphic"/><wp:cNvGraphicFramePr/>'
            f'<a:graphic xmlns:a="{A}">{graphic_data}</a:graphic></wp:inline></w:drawing>')


def _text_box(paragraph: str) -> str:
    """A text box holding this paragraph, written as Word writes one: a DrawingML shape, then a VML copy."""
    content = f"<w:txbxContent>{paragraph}</w:txbxContent>"
    shape = (f'<a:graphicData uri="{WPS}"><wps:wsp xmlns:wps="{WPS}"><wps:txbx>{content}</wps:txbx><wps:bodyPr/>'
             '</wps:wsp></a:graphicData>')
    return (f'<mc:AlternateContent xmlns:mc="{MC}"><mc:Choice Requires="wps">{_drawing(shape)}</mc:Choice>'
            f'<mc:Fallback><w:pict><v:rect xmlns:v="{VML}"><v:textbox>{content}</v:textbox></v:rect></w:pict>'
            '</mc:Fallback></mc:AlternateContent>')


def _handout() -> bytes:
    """A heading and a paragraph; a SmartArt diagram (wrapped as Word wraps drawings, its fallback a copy
    that must not be read twice) in a paragraph of its own; under a second heading a chart after a line of
    text, a table with a chart in a cell and a text box holding a chart; under a third a diagram whose
    data part is broken."""
    document = docx.Document()
    document.add_heading("Cell division", level=1)
    document.add_paragraph("Mitosis splits one nucleus into two.")
    document.add_paragraph("@@DIAGRAM@@")
    document.add_heading("Photosynthesis", level=1)
    document.add_paragraph("Plants store energy as sugar.").add_run("@@CHART@@")
    table = document.add_table(rows=2, cols=2)
    cells = [cell for row in table.rows for cell in row.cells]
    for cell, text in zip(cells, ("Pigment", "Colour", "Chlorophyll", "green"), strict=True):
        cell.text = text
    table.cell(1, 1).paragraphs[0].add_run("@@CELL@@")
    document.add_paragraph("See the box.").add_run("@@BOX@@")
    document.add_heading("Broken figure", level=1)
    document.add_paragraph("A figure that did not survive.").add_run("@@BROKEN@@")
    plain = io.BytesIO()
    document.save(plain)
    wrapped = (f'<mc:AlternateContent xmlns:mc="{MC}"><mc:Choice Requires="wp14">{_drawing(diagram_data("rIdDm"))}'
               f'</mc:Choice><mc:Fallback>{_drawing(diagram_data("rIdDm"))}</mc:Fallback></mc:AlternateContent>')
    boxed = f'<w:p><w:r><w:t>Boxed note</w:t></w:r><w:r>{_drawing(chart_data("rIdBoxChart"))}</w:r></w:p>'
    runs = {"@@DIAGRAM@@": wrapped, "@@CHART@@": _drawing(chart_data("rIdChart")),
            "@@CELL@@": _drawing(chart_data("rIdCellChart")), "@@BOX@@": _text_box(boxed),
            "@@BROKEN@@": _drawing(diagram_data("rIdBroken"))}
    rels = "word/_rels/document.xml.rels"
    return with_parts(plain.getvalue(), {
        "word/document.xml": [(f"<w:t>{marker}</w:t>".encode(), xml.encode()) for marker, xml in runs.items()],
    }, {
        "word/diagrams/data1.xml": (rels, "rIdDm", DIAGRAM_DATA, MITOSIS.encode()),
        "word/charts/chart1.xml": (rels, "rIdChart", CHART_REL, _chart_part(
            ["Light versus ", "dark reactions"], ["Glucose made", "Oxygen released"],
            ["Thylakoid", "Stroma", "Calvin cycle"])),
        "word/charts/chart2.xml": (rels, "rIdCellChart", CHART_REL, _chart_part(
            ["Absorption"], ["Chlorophyll a"], ["Blue light", "Red light"])),
        "word/charts/chart3.xml": (rels, "rIdBoxChart", CHART_REL, _chart_part(
            ["Stomata"], ["Open"], ["Morning", "Noon"])),
        "word/diagrams/data2.xml": (rels, "rIdBroken", DIAGRAM_DATA, BROKEN_DATA),
    })


def _blocks(api: httpx.Client, document_id: str) -> list[dict[str, Any]]:
    return list(api.get(f"/api/documents/{document_id}/blocks", params={"limit": 200}).json()["blocks"])


def test_smartart_and_chart_text_in_a_word_document_is_read_in_its_section(api: httpx.Client,
                                                                           unique: Unique) -> None:
    name = unique("biology-handout.docx")
    document = ingest(api, {name: _handout()})[name]
    assert api.get(f"/api/documents/{document['id']}").json()["status"] == "ready"
    blocks = _blocks(api, document["id"])
    shown = "\n".join(block["text"] for block in blocks)
    # The diagram's boxes once (not again from the fallback copy), in drawing order, after its paragraph.
    assert ("Mitosis splits one nucleus into two.\n\nProphase\n  chromosomes condense\nPrometaphase\nMetaphase"
            in shown)
    assert shown.count("chromosomes condense") == 1
    assert ("Plants store energy as sugar.\n\nChart: Light versus dark reactions\n"
            "Categories: Thylakoid, Stroma, Calvin cycle\nSeries: Glucose made, Oxygen released") in shown
    # A chart in a table cell follows the table; one in a text box follows the box's paragraph, once.
    assert shown.index("Chlorophyll | green") < shown.index("Chart: Absorption\nCategories: Blue light, Red light")
    assert "See the box.\n\nBoxed note\n\nChart: Stomata\nCategories: Morning, Noon\nSeries: Open" in shown
    assert shown.count("Chart: Stomata") == 1
    sections = {block["section"] for block in blocks if "Prometaphase" in block["text"]}
    assert sections == {"Cell division"}
    sections = {block["section"] for block in blocks
                if any(word in block["text"] for word in ("Calvin cycle", "Blue light", "Stomata"))}
    assert sections == {"Photosynthesis"}
    # The broken diagram adds nothing and fails nothing: its section holds just its paragraph.
    broken = "\n".join(block["text"] for block in blocks if block["section"] == "Broken figure")
    assert broken.endswith("A figure that did not survive.")
    for query, section in (("chromosomes condense prometaphase", "Cell division"),
                           ("thylakoid stroma calvin", "Photosynthesis")):
        hits = api.get("/api/search", params={"q": query, "mode": "sparse",
                                              "documents": document["id"]}).json()["hits"]
        assert hits, query
        assert hits[0]["section"] == section, (query, hits)
