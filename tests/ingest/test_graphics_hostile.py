"""SmartArt data a hostile file may hold: boxes chained far deeper than Python's recursion limit are all
read, in order, and the text stays proportional to the boxes (indentation is capped)."""

from __future__ import annotations

from backend.ingest.extract.graphics import diagram_text

DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def test_a_chain_of_boxes_thousands_deep_is_read_whole() -> None:
    boxes = 5_000
    points = "".join(f'<dgm:pt modelId="{i}"><dgm:t><a:p><a:r><a:t>box {i}</a:t></a:r></a:p></dgm:t></dgm:pt>'
                     for i in range(1, boxes + 1))
    links = "".join(f'<dgm:cxn modelId="c{i}" srcId="{i - 1}" destId="{i}" srcOrd="0"/>' for i in range(1, boxes + 1))
    part = (f'<dgm:dataModel xmlns:dgm="{DGM}" xmlns:a="{A}"><dgm:ptLst><dgm:pt modelId="0" type="doc"/>'
            f"{points}</dgm:ptLst><dgm:cxnLst>{links}</dgm:cxnLst></dgm:dataModel>").encode()
    lines = diagram_text(part).split("\n")
    assert [line.strip() for line in lines] == [f"box {i}" for i in range(1, boxes + 1)]
    assert lines[1] == "  box 2"
    assert max(len(line) - len(line.lstrip()) for line in lines) == 12  # six levels, however deep the chain
