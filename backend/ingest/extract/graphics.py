"""Text in a slide's graphic frames other than tables: SmartArt diagrams and charts.

python-pptx reads neither's text, and lecture decks carry much of theirs there (a process as a SmartArt
chain, a comparison as a chart). A SmartArt diagram keeps its text in a data part of its own
(`ppt/diagrams/dataN.xml`), which the frame names by the relationship id in `dgm:relIds/@r:dm`: points
(the boxes, with their text) and connections saying which point is whose child and in what place. The
text is given in that order, one line per box, a child indented under its parent — the order PowerPoint
draws it in, not the order the boxes were added. A chart gives its title, category labels and series names
(python-pptx's chart API); its numbers stay in the chart.

The data part is read with entities and network access off, like every XML part of an upload, and a frame
whose part is missing or malformed adds nothing rather than failing the deck.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from lxml import etree
from pptx.chart.chart import Chart
from pptx.shapes.graphfrm import GraphicFrame

_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_TEXT_POINTS = frozenset({"node", "asst"})  # boxes; "doc", "pres", "parTrans" and "sibTrans" are structure
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


def graphic_text(frame: GraphicFrame) -> str:
    """The text of a SmartArt diagram or a chart in this frame ("" for anything else or a broken part)."""
    try:
        if frame.has_chart:
            return chart_text(frame.chart)
        return diagram_text(frame)
    except (KeyError, ValueError, TypeError, AttributeError, etree.XMLSyntaxError):
        return ""


def diagram_text(frame: GraphicFrame) -> str:
    rel_ids = next(frame.element.iter(f"{{{_DGM}}}relIds"), None)
    data_id = rel_ids.get(f"{{{_R}}}dm") if rel_ids is not None else None
    if not data_id:
        return ""
    model = etree.fromstring(frame.part.related_part(data_id).blob, parser=_PARSER)
    return "\n".join("  " * depth + text for depth, text in _boxes(model))


def _boxes(model: etree._Element) -> Iterator[tuple[int, str]]:
    """(depth, text) of every box with text: from the document point down the parent-child connections
    in their order, then any box no connection reaches, in the file's order."""
    points = {point.get("modelId"): point for point in model.iter(f"{{{_DGM}}}pt")}
    children: dict[str | None, list[tuple[int, str | None]]] = defaultdict(list)
    for link in model.iter(f"{{{_DGM}}}cxn"):
        if link.get("type", "parOf") == "parOf":
            children[link.get("srcId")].append((int(link.get("srcOrd", "0")), link.get("destId")))
    seen: set[str | None] = set()

    def walk(point_id: str | None, depth: int) -> Iterator[tuple[int, str]]:
        if point_id in seen or point_id not in points:
            return
        seen.add(point_id)
        point = points[point_id]
        text = _point_text(point) if point.get("type", "node") in _TEXT_POINTS else ""
        if text:
            yield depth, text
        for _, child in sorted(children[point_id], key=lambda order_child: order_child[0]):
            yield from walk(child, depth + 1 if text else depth)

    for point_id, point in points.items():
        if point.get("type") == "doc":
            yield from walk(point_id, 0)
    for point_id in points:
        if point_id not in seen:
            yield from walk(point_id, 0)


def _point_text(point: etree._Element) -> str:
    paragraphs = ("".join(run.text or "" for run in paragraph.iter(f"{{{_A}}}t"))
                  for paragraph in point.iter(f"{{{_A}}}p"))
    return " / ".join(" ".join(text.split()) for text in paragraphs if text.strip())


def chart_text(chart: Chart) -> str:
    lines = []
    if chart.has_title and chart.chart_title.has_text_frame:
        title = " ".join(chart.chart_title.text_frame.text.split())
        if title:
            lines.append(f"Chart: {title}")
    categories: list[str] = []
    series: list[str] = []
    for plot in chart.plots:
        categories += [label for label in (str(category).strip() for category in plot.categories)
                       if label and label not in categories]
        series += [name for name in (str(one.name or "").strip() for one in plot.series) if name and name not in series]
    if categories:
        lines.append("Categories: " + ", ".join(categories))
    if series:
        lines.append("Series: " + ", ".join(series))
    return "\n".join(lines)
