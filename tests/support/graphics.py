"""SmartArt and chart parts for tests, and a way to put them into an Office file python-pptx or python-docx
wrote: neither library can add a SmartArt diagram (nor python-docx a chart), so the tests write the parts
into the zip with their relationships and content types, as Office would."""

from __future__ import annotations

import io
import zipfile

DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
DIAGRAM_DATA = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData"
DATA_TYPE = "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml"
CHART_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart"
CHART_TYPE = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
BROKEN_DATA = b"<dgm:dataModel <<< not xml"


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


def diagram_data(rel_id: str) -> str:
    """The `a:graphicData` of a SmartArt frame whose parts are all the relationship `rel_id`."""
    return (f'<a:graphicData xmlns:a="{A}" uri="{DGM}"><dgm:relIds xmlns:dgm="{DGM}" xmlns:r="{R}" '
            f'r:dm="{rel_id}" r:lo="{rel_id}" r:qs="{rel_id}" r:cs="{rel_id}"/></a:graphicData>')


def chart_data(rel_id: str) -> str:
    """The `a:graphicData` of a chart frame whose chart part is the relationship `rel_id`."""
    return (f'<a:graphicData xmlns:a="{A}" uri="{CHART}"><c:chart xmlns:c="{CHART}" xmlns:r="{R}" '
            f'r:id="{rel_id}"/></a:graphicData>')


def with_parts(package: bytes, edits: dict[str, list[tuple[bytes, bytes]]],
               parts: dict[str, tuple[str, str, str, bytes]]) -> bytes:
    """The package with `edits` made (member -> (old, new) replacements, each old present) and `parts` added:
    part name (from the package root) -> (rels member to add the relationship to, relationship id and type,
    bytes), each with its content type."""
    source = zipfile.ZipFile(io.BytesIO(package))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            for old, new in edits.get(item.filename, []):
                assert old in data, (item.filename, old)
                data = data.replace(old, new)
            for name, (rels, rel_id, rel_type, _) in parts.items():
                if item.filename == rels:
                    target_path = "/" + name  # absolute: valid whichever folder the source part is in
                    data = data.replace(b"</Relationships>", f'<Relationship Id="{rel_id}" Type="{rel_type}" '
                                        f'Target="{target_path}"/></Relationships>'.encode())
            if item.filename == "[Content_Types].xml":
                overrides = "".join(f'<Override PartName="/{name}" ContentType="{_content_type(rel_type)}"/>'
                                    for name, (_, _, rel_type, _) in parts.items())
                data = data.replace(b"</Types>", overrides.encode() + b"</Types>")
            target.writestr(item, data)
        for name, (_, _, _, xml) in parts.items():
            target.writestr(name, xml)
    return out.getvalue()


def _content_type(rel_type: str) -> str:
    return {DIAGRAM_DATA: DATA_TYPE, CHART_REL: CHART_TYPE}[rel_type]
