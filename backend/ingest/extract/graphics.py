"""Text in SmartArt diagrams and charts, for slides and Word documents alike.

Neither python-pptx nor python-docx reads their text, and lecture decks and handouts carry much of theirs
there (a process as a SmartArt chain, a comparison as a chart). Both formats place them the same way: a
drawing's `a:graphicData` names, by relationship id, a part of its own that holds the text, so one reader
serves both (`graphic_text`), given the frame's XML and a way to fetch a related part's bytes.

A SmartArt diagram keeps its text in a data part (`dgm:relIds/@r:dm`): points (the boxes, with their text)
and connections saying which point is whose child and in what place. The text is given in that order, one
line per box, a child indented two spaces under its parent — the order the diagram is drawn in, not the
order the boxes were added. A chart (`c:chart/@r:id`) gives "Chart: title", "Categories: …" (the first
series' category labels of each plot, leaf level), "Series: …" (series names) and "Axes: …" (the axes'
titles, what the chart measures); its numbers stay in it.

Parts are read with entities and network access off, like every XML part of an upload, and a frame whose
part is missing or malformed adds nothing rather than failing the document.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator

from lxml import etree

_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_GRAPHIC_DATA = f"{{{_A}}}graphicData"
# Word and PowerPoint wrap drawings in mc:AlternateContent; its mc:Fallback repeats the mc:Choice.
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
MC_FALLBACK = MC + "Fallback"
_TEXT_POINTS = frozenset({"node", "asst"})  # boxes; "doc", "pres", "parTrans" and "sibTrans" are structure
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
_NS = {"c": _CHART, "a": _A}
# Levels a box is indented at most: a hostile chain of boxes nested thousands deep would otherwise make
# its text grow with the square of its length.
_MAX_INDENT = 6

RelatedBlob = Callable[[str], bytes]  # relationship id -> the bytes of the part it names (KeyError if none)


def graphic_text(frame: etree._Element, related_blob: RelatedBlob) -> str:
    """The text of the SmartArt diagrams and charts drawn in this element (a slide's graphic frame, a Word
    paragraph or table), one after another; "" for anything else; one whose part is missing or broken adds
    nothing."""
    return "\n".join(text for data in frame.iter(_GRAPHIC_DATA)
                     if _drawn_here(data, frame) and (text := _frame_text(data, related_blob)))


def _drawn_here(data: etree._Element, frame: etree._Element) -> bool:
    """Whether this graphic is the element's own: not a fallback copy of one (Word and PowerPoint wrap
    drawings in mc:AlternateContent, the mc:Fallback repeating the mc:Choice), nor one inside another
    drawing (a chart in a Word text box belongs to the text box's paragraphs, read on their own)."""
    for ancestor in data.iterancestors():
        if ancestor is frame:
            return True
        if ancestor.tag in (MC_FALLBACK, _GRAPHIC_DATA):
            return False
    return True


def _frame_text(data: etree._Element, related_blob: RelatedBlob) -> str:
    uri = data.get("uri")
    try:
        if uri == _DGM:
            rel_ids = data.find(f"{{{_DGM}}}relIds")
            data_id = rel_ids.get(f"{{{_R}}}dm") if rel_ids is not None else None
            return diagram_text(related_blob(data_id)) if data_id else ""
        if uri == _CHART:
            chart = data.find(f"{{{_CHART}}}chart")
            chart_id = chart.get(f"{{{_R}}}id") if chart is not None else None
            return chart_text(related_blob(chart_id)) if chart_id else ""
    except (KeyError, ValueError, TypeError, etree.XMLSyntaxError):
        return ""
    return ""


def diagram_text(data_part: bytes) -> str:
    """A SmartArt data part's boxes, one line each, in drawing order, children indented."""
    model = etree.fromstring(data_part, parser=_PARSER)
    return "\n".join("  " * min(depth, _MAX_INDENT) + text for depth, text in _boxes(model))


def _boxes(model: etree._Element) -> Iterator[tuple[int, str]]:
    """(depth, text) of every box with text: from the document point down the parent-child connections
    in their order, then any box no connection reaches, in the file's order."""
    points = {point.get("modelId"): point for point in model.iter(f"{{{_DGM}}}pt")}
    children: dict[str | None, list[tuple[int, str | None]]] = defaultdict(list)
    for link in model.iter(f"{{{_DGM}}}cxn"):
        if link.get("type", "parOf") == "parOf":
            children[link.get("srcId")].append((int(link.get("srcOrd", "0")), link.get("destId")))
    seen: set[str | None] = set()

    def walk(start: str | None) -> Iterator[tuple[int, str]]:
        # A stack, not recursion: a hostile part may chain boxes far deeper than Python's recursion limit.
        stack: list[tuple[str | None, int]] = [(start, 0)]
        while stack:
            point_id, depth = stack.pop()
            if point_id in seen or point_id not in points:
                continue
            seen.add(point_id)
            point = points[point_id]
            text = _point_text(point) if point.get("type", "node") in _TEXT_POINTS else ""
            if text:
                yield depth, text
            ordered = sorted(children[point_id], key=lambda order_child: order_child[0])
            stack.extend((child, depth + 1 if text else depth) for _, child in reversed(ordered))

    for point_id, point in points.items():
        if point.get("type") == "doc":
            yield from walk(point_id)
    for point_id in points:
        if point_id not in seen:
            yield from walk(point_id)


def _point_text(point: etree._Element) -> str:
    paragraphs = ("".join(run.text or "" for run in paragraph.iter(f"{{{_A}}}t"))
                  for paragraph in point.iter(f"{{{_A}}}p"))
    return " / ".join(" ".join(text.split()) for text in paragraphs if text.strip())


def chart_text(chart_part: bytes) -> str:
    """A chart part's title, category labels and series names, each kind on a line of its own."""
    chart = etree.fromstring(chart_part, parser=_PARSER)
    lines = []
    if title := _title(chart.xpath("c:chart/c:title", namespaces=_NS)):
        lines.append(f"Chart: {title}")
    categories: dict[str, None] = {}  # ordered sets: a chart may hold many thousand points
    series: dict[str, None] = {}
    for plot in chart.xpath("c:chart/c:plotArea/*[c:ser]", namespaces=_NS):
        ordered = sorted(plot.xpath("c:ser", namespaces=_NS), key=_series_order)
        if ordered:
            # The first series' labels; of hierarchical categories, the leaf level (the first c:lvl).
            points = (ordered[0].xpath("c:cat//c:lvl[1]/c:pt", namespaces=_NS)
                      or ordered[0].xpath("c:cat//c:pt", namespaces=_NS))
            for point in sorted(points, key=lambda pt: int(pt.get("idx", "0"))):
                label = " ".join("".join(point.xpath("c:v/text()", namespaces=_NS)).split())
                if label:
                    categories[label] = None
        for one in ordered:
            names = one.xpath("c:tx//c:pt/c:v/text() | c:tx/c:v/text()", namespaces=_NS)
            name = " ".join(str(names[0]).split()) if names else ""
            if name:
                series[name] = None
    if categories:
        lines.append("Categories: " + ", ".join(categories))
    if series:
        lines.append("Series: " + ", ".join(series))
    # What the axes measure ("Temperature (°C)", "Time (s)"): often the only words saying what a chart shows.
    axes = [_title(axis.xpath("c:title", namespaces=_NS))
            for axis in chart.xpath("c:chart/c:plotArea/*[self::c:catAx or self::c:valAx or self::c:dateAx "
                                    "or self::c:serAx]", namespaces=_NS)]
    if axes := list(dict.fromkeys(axis for axis in axes if axis)):
        lines.append("Axes: " + "; ".join(axes))
    return "\n".join(lines)


def _title(titles: list[etree._Element]) -> str:
    """A chart's or axis's title: typed (rich text) or taken from a cell (its cached value)."""
    parts = [text for title in titles
             for text in (*("".join(paragraph.xpath(".//a:t/text()", namespaces=_NS))
                            for paragraph in title.xpath("c:tx/c:rich//a:p", namespaces=_NS)),
                          *title.xpath("c:tx/c:strRef//c:v/text()", namespaces=_NS))]
    return " ".join(" ".join(parts).split())


def _series_order(series: etree._Element) -> int:
    order = series.xpath("c:order/@val", namespaces=_NS)
    return int(order[0]) if order else 0
