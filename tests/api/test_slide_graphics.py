"""Text a deck draws in SmartArt diagrams and charts is read, over HTTP to a real server: found by search at
its slide, and shown in the slide's text in the order PowerPoint draws the boxes. python-pptx reads
neither, so before this the words were in the file and nowhere in Quire."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import httpx
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Inches

from tests.support.vault import ingest

Unique = Callable[[str], str]

DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
DIAGRAM_DATA = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData"
DATA_TYPE = "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml"


def _box(model_id: str, text: str) -> str:
    return f'<dgm:pt modelId="{model_id}"><dgm:t><a:bodyPr/><a:p><a:r><a:t>{text}</a:t></a:r></a:p></dgm:t></dgm:pt>'


# Boxes stored in the order they were added (Metaphase first), drawn in the connections' order; a
# connector point (parTrans) carries no text of its own.
MITOSIS = (
    f'<dgm:dataModel xmlns:dgm="{DGM}" xmlns:a="{A}"><dgm:ptLst>'
    '<dgm:pt modelId="0" type="doc"><dgm:t><a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt>'
    + _box("3", "Metaphase") + _box("1", "Prophase") + _box("2", "Prometaphase")
    + _box("4", "chromosomes condense")
    + '<dgm:pt modelId="9" type="parTrans"><dgm:t><a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt>'
    '</dgm:ptLst><dgm:cxnLst>'
    '<dgm:cxn modelId="10" srcId="0" destId="1" srcOrd="0" destOrd="0"/>'
    '<dgm:cxn modelId="11" srcId="0" destId="2" srcOrd="1" destOrd="0"/>'
    '<dgm:cxn modelId="12" srcId="0" destId="3" srcOrd="2" destOrd="0"/>'
    '<dgm:cxn modelId="13" srcId="1" destId="4" srcOrd="0" destOrd="0" parTransId="9"/>'
    '</dgm:cxnLst></dgm:dataModel>'
)


def _frame(rel_id: str) -> str:
    return (
        '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="40" name="Diagram 1"/><p:cNvGraphicFramePr/><p:nvPr/>'
        '</p:nvGraphicFramePr><p:xfrm><a:off x="914400" y="1828800"/><a:ext cx="6096000" cy="3048000"/></p:xfrm>'
        f'<a:graphic><a:graphicData uri="{DGM}"><dgm:relIds xmlns:dgm="{DGM}" r:dm="{rel_id}" r:lo="{rel_id}" '
        f'r:qs="{rel_id}" r:cs="{rel_id}"/></a:graphicData></a:graphic></p:graphicFrame>'
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
    return _with_diagrams(plain.getvalue(), {2: MITOSIS.encode(), 3: b"<dgm:dataModel <<< not xml"})


def _with_diagrams(deck: bytes, diagrams: dict[int, bytes]) -> bytes:
    """The deck with a SmartArt frame on each given slide, its data part holding the given bytes."""
    source = zipfile.ZipFile(io.BytesIO(deck))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            for slide, _ in diagrams.items():
                if item.filename == f"ppt/slides/slide{slide}.xml":
                    data = data.replace(b"</p:spTree>", _frame("rIdDgm").encode() + b"</p:spTree>")
                elif item.filename == f"ppt/slides/_rels/slide{slide}.xml.rels":
                    data = data.replace(b"</Relationships>", f'<Relationship Id="rIdDgm" Type="{DIAGRAM_DATA}" '
                                        f'Target="../diagrams/data{slide}.xml"/></Relationships>'.encode())
            if item.filename == "[Content_Types].xml":
                overrides = "".join(f'<Override PartName="/ppt/diagrams/data{slide}.xml" ContentType="{DATA_TYPE}"/>'
                                    for slide in diagrams)
                data = data.replace(b"</Types>", overrides.encode() + b"</Types>")
            target.writestr(item, data)
        for slide, xml in diagrams.items():
            target.writestr(f"ppt/diagrams/data{slide}.xml", xml)
    return out.getvalue()


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
