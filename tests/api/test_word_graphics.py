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


def _strings(values: list[str]) -> str:
    points = "".join(f'<c:pt idx="{i}"><c:v>{value}</c:v></c:pt>' for i, value in enumerate(values))
    return f'<c:strRef><c:f>Sheet1</c:f><c:strCache><c:ptCount val="{len(values)}"/>{points}</c:strCache></c:strRef>'


def _series(order: int, name: str, categories: list[str]) -> str:
    values = "".join(f'<c:pt idx="{i}"><c:v>{i + 1}</c:v></c:pt>' for i in range(len(categories)))
    return (f'<c:ser><c:idx val="{order}"/><c:order val="{order}"/><c:tx>{_strings([name])}</c:tx>'
            f'<c:cat>{_strings(categories)}</c:cat><c:val><c:numRef><c:f>Sheet1</c:f><c:numCache>'
            f'<c:ptCount val="{len(categories)}"/>{values}</c:numCache></c:numRef></c:val></c:ser>')


# A title typed in two runs; two series (stored second first) over the same three categories.
PHOTOSYNTHESIS = (
    f'<c:chartSpace xmlns:c="{CHART}" xmlns:a="{A}" xmlns:r="{R}"><c:chart><c:title><c:tx><c:rich><a:bodyPr/>'
    '<a:p><a:r><a:t>Light versus </a:t></a:r><a:r><a:t>dark reactions</a:t></a:r></a:p></c:rich></c:tx></c:title>'
    '<c:plotArea><c:barChart><c:barDir val="col"/>'
    + _series(1, "Oxygen released", ["Thylakoid", "Stroma", "Calvin cycle"])
    + _series(0, "Glucose made", ["Thylakoid", "Stroma", "Calvin cycle"])
    + '</c:barChart></c:plotArea></c:chart></c:chartSpace>'
)


def _drawing(graphic_data: str) -> str:
    return (f'<w:drawing><wp:inline xmlns:wp="{WP}"><wp:extent cx="5486400" cy="3200400"/>'
            '<wp:docPr id="30" name="Graphic"/><wp:cNvGraphicFramePr/>'
            f'<a:graphic xmlns:a="{A}">{graphic_data}</a:graphic></wp:inline></w:drawing>')


def _handout() -> bytes:
    """A heading and a paragraph; a SmartArt diagram (wrapped as Word wraps drawings, its fallback a copy
    that must not be read twice) in a paragraph of its own; under a second heading a chart after a line of
    text; under a third a diagram whose data part is broken."""
    document = docx.Document()
    document.add_heading("Cell division", level=1)
    document.add_paragraph("Mitosis splits one nucleus into two.")
    document.add_paragraph("@@DIAGRAM@@")
    document.add_heading("Photosynthesis", level=1)
    document.add_paragraph("Plants store energy as sugar.").add_run("@@CHART@@")
    document.add_heading("Broken figure", level=1)
    document.add_paragraph("A figure that did not survive.").add_run("@@BROKEN@@")
    plain = io.BytesIO()
    document.save(plain)
    wrapped = (f'<mc:AlternateContent xmlns:mc="{MC}"><mc:Choice Requires="wp14">{_drawing(diagram_data("rIdDm"))}'
               f'</mc:Choice><mc:Fallback>{_drawing(diagram_data("rIdDm"))}</mc:Fallback></mc:AlternateContent>')
    runs = {"@@DIAGRAM@@": wrapped, "@@CHART@@": _drawing(chart_data("rIdChart")),
            "@@BROKEN@@": _drawing(diagram_data("rIdBroken"))}
    rels = "word/_rels/document.xml.rels"
    return with_parts(plain.getvalue(), {
        "word/document.xml": [(f"<w:t>{marker}</w:t>".encode(), xml.encode()) for marker, xml in runs.items()],
    }, {
        "word/diagrams/data1.xml": (rels, "rIdDm", DIAGRAM_DATA, MITOSIS.encode()),
        "word/charts/chart1.xml": (rels, "rIdChart", CHART_REL, PHOTOSYNTHESIS.encode()),
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
    sections = {block["section"] for block in blocks if "Prometaphase" in block["text"]}
    assert sections == {"Cell division"}
    sections = {block["section"] for block in blocks if "Calvin cycle" in block["text"]}
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
