"""Regressions found by pushing real Office files, web pages and text files from public projects' test
suites through a real server (the campaign in docs/benchmarks.md, "Real-file campaigns"): each file here is a minimal
reproduction, generated with python-docx / python-pptx, of what a real file did."""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import httpx
import openpyxl
import pptx
import pytest
from docx.document import Document as WordDocument
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.oxml.xmlchemy import BaseOxmlElement
from docx.text.paragraph import Paragraph
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.presentation import Presentation as Deck

from tests.support.documents import render_text_image, tesseract_available
from tests.support.vault import ingest

Unique = Callable[[str], str]


def _xml(paragraph: Paragraph) -> BaseOxmlElement:
    """The paragraph's `w:p`, through public API (its format object proxies the same element)."""
    element: BaseOxmlElement = paragraph.paragraph_format.element
    return element


def _ingest_saved(api: httpx.Client, unique: Unique, office: WordDocument | Deck, path: Path,
                  timeout_s: float = 60.0) -> dict[str, Any]:
    """Save the document built here to `path` and ingest it under a unique name; the document's row."""
    office.save(path)
    name = unique(path.name)
    return ingest(api, {name: path.read_bytes()}, timeout_s=timeout_s)[name]


def _text(api: httpx.Client, document_id: str) -> str:
    blocks = api.get(f"/api/documents/{document_id}/blocks", params={"limit": 200}).json()["blocks"]
    return "\n".join(block["text"] for block in blocks)


def test_word_text_in_tracked_insertions_content_controls_and_fields_is_read(
        api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: a paragraph's text was python-docx's `Paragraph.text`, which reads only the runs directly in
    # the paragraph or a hyperlink: every word typed with Track Changes on, in an inline content control
    # (templates, forms), in a simple field (cross-references), a smart tag or custom XML was lost
    # silently. Deleted text stays out, as Word shows the document with its changes accepted.
    w = nsdecls("w")
    document = docx.Document()
    document.add_heading("Osmosis", 1)
    paragraph = document.add_paragraph("Water crosses ")
    for fragment in (
        f'<w:ins {w} w:id="1" w:author="Tutor"><w:r><w:t xml:space="preserve">semipermeable </w:t></w:r></w:ins>',
        f'<w:del {w} w:id="2" w:author="Tutor"><w:r><w:delText>impermeable </w:delText></w:r></w:del>',
        f'<w:sdt {w}><w:sdtPr/><w:sdtContent><w:r><w:t xml:space="preserve">membranes </w:t></w:r>'
        '</w:sdtContent></w:sdt>',
        f'<w:fldSimple {w} w:instr=" REF fig1 "><w:r><w:t xml:space="preserve">(see Figure 3) </w:t></w:r>'
        '</w:fldSimple>',
        f'<w:smartTag {w} w:uri="urn:x" w:element="place"><w:r><w:t xml:space="preserve">in Heidelberg </w:t>'
        '</w:r></w:smartTag>',
        f'<w:moveFrom {w} w:id="3" w:author="Tutor"><w:r><w:t>quickly</w:t></w:r></w:moveFrom>',
        # Ruby: the characters are text, the pronunciation guide above them is not (before: both lost).
        f'<w:r {w}><w:ruby><w:rubyPr/><w:rt><w:r><w:t>はんとうまく</w:t></w:r></w:rt><w:rubyBase><w:r>'
        '<w:t>半透膜</w:t></w:r></w:rubyBase></w:ruby></w:r>',
    ):
        _xml(paragraph).append(parse_xml(fragment))
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Solute"
    _xml(table.cell(0, 1).paragraphs[0]).append(parse_xml(
        f'<w:ins {w} w:id="4" w:author="Tutor"><w:r><w:t>glucose</w:t></w:r></w:ins>'))
    doc = _ingest_saved(api, unique, document, tmp_path / "tracked.docx")
    text = _text(api, doc["id"])
    assert "Water crosses semipermeable membranes (see Figure 3) in Heidelberg 半透膜" in text
    assert "はんとうまく" not in text
    assert "impermeable" not in text
    assert "quickly" not in text
    assert "| Solute | glucose |" in text
    hits = api.get("/api/search", params={"q": "semipermeable membranes", "documents": doc["id"]}).json()["hits"]
    assert hits
    assert hits[0]["section"] == "Osmosis"


def test_line_breaks_inside_slide_paragraphs_stay_line_breaks(api: httpx.Client, unique: Unique,
                                                             tmp_path: Path) -> None:
    # python-pptx 1.0.2's act-props.pptm: a box reading "0 / no action" over two lines. python-pptx gives a
    # line break (Shift+Enter, <a:br>) as a vertical tab, which was stored as is: the viewer showed
    # "0no action" and chat passages carried a control character.
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Osmotic pressure"
    slide.placeholders[1].text_frame.text = "Units\vpascal or atmosphere"
    table = slide.shapes.add_table(1, 2, 0, 0, 4_000_000, 600_000).table
    table.cell(0, 0).text, table.cell(0, 1).text = "Solvent\vwater", "Solute"
    slide.notes_slide.notes_text_frame.text = "Ask first\vthen explain"
    doc = _ingest_saved(api, unique, deck, tmp_path / "breaks.pptx")
    [block] = api.get(f"/api/documents/{doc['id']}/blocks", params={"page": 1}).json()["blocks"]
    assert "\v" not in block["text"]
    assert "Units\npascal or atmosphere" in block["text"]
    assert "| Solvent water | Solute |" in block["text"]
    assert "Notes: Ask first\nthen explain" in block["text"]


def _with_main_type(source: Path, target: Path, plain: str, variant: str) -> Path:
    """`source` with its main part declared as `variant` (what Word or PowerPoint write for a macro-enabled
    file, a template or a slide show; the parts stay the same)."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
        for member in original.infolist():
            data = original.read(member)
            if member.filename == "[Content_Types].xml":
                assert plain.encode() in data
                data = data.replace(plain.encode(), variant.encode())
            copy.writestr(member, data)
    return target


_WORD = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_DECK = "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"


def test_macro_enabled_documents_templates_and_slide_shows_are_read(api: httpx.Client, unique: Unique,
                                                                   tmp_path: Path) -> None:
    # Before: python-docx and python-pptx refuse these by their main part's content type alone, so a
    # lecturer's .ppsx (a deck that opens as a show) or a .docm/.dotx handout was refused with "save it
    # as .pptx/.docx", and a .dotm without an extension failed as a damaged file.
    document = docx.Document()
    document.add_heading("Enzyme kinetics", 1)
    document.add_paragraph("Michaelis constant equals substrate concentration at half maximal velocity.")
    document.save(tmp_path / "plain.docx")
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Lineweaver Burk plot"
    slide.placeholders[1].text_frame.text = "Double reciprocal of the rate equation"
    deck.save(tmp_path / "plain.pptx")
    variants = {
        unique("handout.docm"): ("plain.docx", _WORD, "application/vnd.ms-word.document.macroEnabled.main+xml"),
        unique("handout.dotx"): ("plain.docx", _WORD,
                                 "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml"),
        unique("handout-template"): ("plain.docx", _WORD,
                                     "application/vnd.ms-word.template.macroEnabledTemplate.main+xml"),
        unique("lecture.ppsx"): ("plain.pptx", _DECK,
                                 "application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml"),
        unique("lecture.potx"): ("plain.pptx", _DECK,
                                 "application/vnd.openxmlformats-officedocument.presentationml.template.main+xml"),
    }
    files = {name: _with_main_type(tmp_path / source, tmp_path / f"v{index}", plain, variant).read_bytes()
             for index, (name, (source, plain, variant)) in enumerate(variants.items())}
    docs = ingest(api, files)
    for name, doc in docs.items():
        stored = api.get(f"/api/documents/{doc['id']}").json()
        assert stored["status"] == "ready", (name, stored["error"])
        expected = "Michaelis constant" if variants[name][0] == "plain.docx" else "Double reciprocal"
        assert expected in _text(api, doc["id"]), name
        assert doc["kind"] == variants[name][0].split(".")[1]
        assert doc["read_as"] == ("Read as a Word document: its name has no extension."
                                  if "template" in name else None)


def test_office_files_without_text_say_what_was_looked_at(api: httpx.Client, unique: Unique,
                                                          tmp_path: Path) -> None:
    # 40 of the campaign's 225 files (python-docx's and python-pptx's blank templates, decks of shapes and
    # pictures, a workbook of empty sheets) failed with the same "No text could be found in this file.",
    # which told nobody whether the deck had no slides or its pictures could not be read.
    docx.Document().save(tmp_path / "blank.docx")
    pictures_only = pptx.Presentation()
    for _ in range(2):
        pictures_only.slides.add_slide(pictures_only.slide_layouts[6])
    pictures_only.save(tmp_path / "shapes.pptx")
    pptx.Presentation().save(tmp_path / "no-slides.pptx")
    workbook = openpyxl.Workbook()
    workbook.create_sheet("Empty too")
    workbook.save(tmp_path / "empty.xlsx")
    names = {unique("blank.docx"): "blank.docx", unique("shapes.pptx"): "shapes.pptx",
             unique("no-slides.pptx"): "no-slides.pptx", unique("empty.xlsx"): "empty.xlsx"}
    docs = ingest(api, {name: (tmp_path / source).read_bytes() for name, source in names.items()})
    errors = {names[name]: api.get(f"/api/documents/{doc['id']}").json() for name, doc in docs.items()}
    assert {source: doc["status"] for source, doc in errors.items()} == dict.fromkeys(names.values(), "failed")
    assert errors["blank.docx"]["error"].startswith(
        "No text could be found in this file: the Word document is empty or holds only pictures")
    assert errors["shapes.pptx"]["error"].startswith(
        "No text could be found in this file: its 2 slides hold no text (not in notes, tables or charts)")
    assert errors["no-slides.pptx"]["error"] == "No text could be found in this file: the presentation has no slides."
    assert errors["empty.xlsx"]["error"] == "No text could be found in this file: the workbook's 2 sheets are empty."


def test_word_rows_cells_and_blocks_inside_content_controls_are_read(api: httpx.Client, unique: Unique,
                                                                     tmp_path: Path) -> None:
    # Before: python-docx lists only a table's direct rows and cells and the body's direct blocks, so a row
    # in a repeating-section content control (Word's forms and templates), a cell in a content control,
    # a paragraph in custom XML and a text box in a cell were dropped with their text.
    w = nsdecls("w")
    document = docx.Document()
    document.add_paragraph("Lab report form")
    end = document.element.body[-1]  # the section properties stay last
    end.addprevious(parse_xml(
        f'<w:customXml {w} w:element="summary"><w:p><w:r><w:t>Titration of acetic acid</w:t></w:r></w:p>'
        '</w:customXml>'))
    end.addprevious(parse_xml(
        f'<w:tbl {w}><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>'
        '<w:tr><w:tc><w:p><w:r><w:t>Reagent</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Volume</w:t></w:r></w:p>'
        '</w:tc></w:tr>'
        '<w:sdt><w:sdtPr/><w:sdtContent><w:tr><w:tc><w:p><w:r><w:t>Phenolphthalein</w:t></w:r></w:p></w:tc>'
        '<w:tc><w:p><w:r><w:t>2 drops</w:t></w:r></w:p></w:tc></w:tr></w:sdtContent></w:sdt>'
        '<w:tr><w:tc><w:p><w:r><w:t>Sodium hydroxide</w:t></w:r></w:p></w:tc><w:sdt><w:sdtPr/><w:sdtContent>'
        '<w:tc><w:p><w:r><w:t>24.6 mL</w:t></w:r></w:p></w:tc></w:sdtContent></w:sdt></w:tr>'
        '<w:tr><w:tc><w:p><w:r><w:t>Burette</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:pict>'
        '<v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p><w:r>'
        '<w:t>rinsed twice</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p></w:tc>'
        '</w:tr></w:tbl>'))
    doc = _ingest_saved(api, unique, document, tmp_path / "form.docx")
    blocks = api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"]
    assert "Titration of acetic acid" in "\n".join(block["text"] for block in blocks)
    table = next(block["table"] for block in blocks if block["table"])
    assert table["header"] == ["Reagent", "Volume"]
    assert table["rows"] == [["Phenolphthalein", "2 drops"], ["Sodium hydroxide", "24.6 mL"],
                             ["Burette", "rinsed twice"]]


def test_word_equations_and_symbols_are_read(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: an equation (Office Math, m:oMath) holds no w:r runs, so python-docx's text and ours left it
    # out: "The kinetic energy is  where m is the mass." Science handouts lost every formula.
    math = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'
    document = docx.Document()
    document.add_heading("Mechanics", 1)
    paragraph = document.add_paragraph("The kinetic energy is ")
    _xml(paragraph).append(parse_xml(
        f'<m:oMath {math}><m:r><m:t>E=</m:t></m:r><m:f><m:num><m:r><m:t>1</m:t></m:r></m:num><m:den><m:r>'
        '<m:t>2</m:t></m:r></m:den></m:f><m:r><m:t>m</m:t></m:r><m:sSup><m:e><m:r><m:t>v</m:t></m:r></m:e>'
        '<m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath>'))
    paragraph.add_run(" where m is the mass.")
    _xml(document.add_paragraph()).append(parse_xml(
        f'<m:oMathPara {math}><m:oMath><m:r><m:t>p=m</m:t></m:r><m:sSub><m:e><m:r><m:t>v</m:t></m:r></m:e>'
        '<m:sub><m:r><m:t>x</m:t></m:r></m:sub></m:sSub></m:oMath></m:oMathPara>'))
    _xml(document.add_paragraph("Mean: ")).append(parse_xml(
        f'<m:oMath {math}><m:r><m:t>f</m:t></m:r><m:d><m:e><m:r><m:t>x</m:t></m:r></m:e></m:d><m:r><m:t>=</m:t>'
        '</m:r><m:f><m:num><m:r><m:t>1</m:t></m:r></m:num><m:den><m:r><m:t>n</m:t></m:r></m:den></m:f><m:nary>'
        '<m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub><m:r><m:t>i=1</m:t></m:r></m:sub><m:sup><m:r><m:t>n</m:t>'
        '</m:r></m:sup><m:e><m:sSub><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sub><m:r><m:t>i</m:t></m:r></m:sub>'
        '</m:sSub></m:e></m:nary></m:oMath>'))
    # Insert > Symbol in the Symbol font (older documents' Greek letters): python-docx reads no w:sym.
    angle = document.add_paragraph("The launch angle ")
    for code in ("F071", "00B3"):
        _xml(angle).append(parse_xml(
            f'<w:r {nsdecls("w")}><w:sym w:font="Symbol" w:char="{code}"/></w:r>'))
    angle.add_run(" 30 degrees.")
    doc = _ingest_saved(api, unique, document, tmp_path / "mechanics.docx")
    text = _text(api, doc["id"])
    assert "The kinetic energy is E=1/2mv^2 where m is the mass." in text
    assert "p=mv_x" in text
    assert "Mean: f(x)=1/n∑_(i=1)^n x_i" in text
    assert "The launch angle θ≥ 30 degrees." in text


_SLIDE_NS = ('xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
             'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
             'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
             'xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" '
             'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"')


def _text_box(text: str, equation: str) -> str:
    return ('<p:sp><p:nvSpPr><p:cNvPr id="9" name="TextBox 8"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>'
            '<p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="10" cy="10"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>'
            f'<a:p><a:r><a:t>{text}</a:t></a:r>{equation}</a:p></p:txBody></p:sp>')


def test_slide_text_boxes_holding_equations_are_read(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: PowerPoint wraps a text box holding an equation in mc:AlternateContent (its fallback is a
    # picture of it), which python-pptx does not list: the box was lost whole, sentence and formula.
    equation = ('<a14:m><m:oMathPara><m:oMath><m:r><m:t>pV=nRT</m:t></m:r></m:oMath></m:oMathPara></a14:m>')
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Ideal gas"
    slide.shapes.element.append(parse_xml(
        f'<mc:AlternateContent {_SLIDE_NS}><mc:Choice Requires="a14">{_text_box("State equation ", equation)}'
        f'</mc:Choice><mc:Fallback>{_text_box("fallback copy", "")}</mc:Fallback></mc:AlternateContent>'))
    doc = _ingest_saved(api, unique, deck, tmp_path / "gas.pptx")
    [block] = api.get(f"/api/documents/{doc['id']}/blocks", params={"page": 1}).json()["blocks"]
    assert "State equation pV=nRT" in block["text"]
    assert "fallback copy" not in block["text"]


def test_chart_axis_titles_are_read(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: a chart gave its title, categories and series, not what its axes measure, often the only
    # words saying what it shows (python-pptx's cht-axis-props.pptx titles its axis "Foobar").
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Cooling curve"
    data = CategoryChartData()
    data.categories = ["0", "60", "120"]
    data.add_series("Beaker A", (80, 61, 48))
    chart = slide.shapes.add_chart(XL_CHART_TYPE.LINE, 0, 0, 6_000_000, 4_000_000, data).chart
    chart.category_axis.axis_title.text_frame.text = "Time (s)"
    chart.value_axis.axis_title.text_frame.text = "Temperature (°C)"
    doc = _ingest_saved(api, unique, deck, tmp_path / "cooling.pptx")
    [block] = api.get(f"/api/documents/{doc['id']}/blocks", params={"page": 1}).json()["blocks"]
    assert "Series: Beaker A\nAxes: Time (s); Temperature (°C)" in block["text"]


@pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")
def test_legacy_vml_pictures_in_word_documents_are_read(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: only DrawingML pictures were OCR'd; a document converted from .doc holds its pictures as VML
    # (w:pict/v:shape/v:imagedata), so a pasted scan in it added no word.
    document = docx.Document()
    document.add_heading("Leaf anatomy", 1)
    document.add_paragraph("The board after the lecture:")
    picture = render_text_image("Stomata regulate gas exchange in leaves", width=1400, height=500)
    run = document.add_paragraph().add_run()
    run.add_picture(io.BytesIO(picture))
    drawing = run.font.element.find(qn("w:drawing"))  # the run's w:r, by public API
    rel_id = drawing.xpath(".//a:blip/@r:embed")[0]
    drawing.addnext(parse_xml(
        f'<w:pict {nsdecls("w", "r")} xmlns:v="urn:schemas-microsoft-com:vml"><v:shape style="width:420pt;'
        f'height:150pt"><v:imagedata r:id="{rel_id}" o:title="" xmlns:o="urn:schemas-microsoft-com:office:office"/>'
        '</v:shape></w:pict>'))
    drawing.getparent().remove(drawing)
    document.add_paragraph("Ask the tutor about guard cells.")
    doc = _ingest_saved(api, unique, document, tmp_path / "leaf.docx", timeout_s=120)
    text = " ".join(_text(api, doc["id"]).split())
    assert "The board after the lecture: Text in picture:" in text
    assert "regulate gas exchange" in text
    assert text.index("regulate gas exchange") < text.index("Ask the tutor")


def test_markdown_tables_keep_their_header_with_every_row(api: httpx.Client, unique: Unique) -> None:
    # Before: a Markdown table was body text cut into 1,000-character passages, so rows past the first
    # passage were searched and cited without their column names and the viewer showed lines of pipes
    # (pdfplumber's README: 18 tables; a 3,000-row table made 1 passage of header and ~150 without).
    rows = "".join(f"| E{index} | additive {index} | {index * 5} mg/kg |\n" for index in range(100, 145))
    note = ("# Food additives\n\nPermitted levels.\n\n| Code | Name | Limit |\n|:-----|------|----:|\n" + rows
            + "| E951 | aspartame \\| sweetener | 600 mg/kg |\n\nLevels are per day.\n")
    name = unique("additives.md")
    doc = ingest(api, {name: note.encode()})[name]
    blocks = api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"]
    tables = [block["table"] for block in blocks if block["table"]]
    assert len(tables) == 3
    assert all(table["header"] == ["Code", "Name", "Limit"] for table in tables)
    assert tables[-1]["rows"][-1] == ["E951", "aspartame | sweetener", "600 mg/kg"]
    assert {block["section"] for block in blocks} == {"Food additives"}
    assert "Levels are per day." in blocks[-1]["text"]
    [hit] = api.get("/api/search", params={"q": "E951 aspartame", "documents": doc["id"], "k": 1}).json()["hits"]
    assert hit["text"].startswith("| Code | Name | Limit |")


def test_a_deeply_nested_equation_reads_in_linear_time(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # A hostile equation: 100 delimiters nested in each other. Reading each level's parts twice would take
    # 2^100 steps; each is read once, so the file is ready in a moment with every symbol.
    math = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'
    depth = 100
    nested = "".join(f"<m:d><m:e><m:r><m:t>x{level}</m:t></m:r>" for level in range(depth)) + "</m:e></m:d>" * depth
    document = docx.Document()
    _xml(document.add_paragraph("Nested brackets:")).append(parse_xml(f"<m:oMath {math}>{nested}</m:oMath>"))
    document.save(tmp_path / "nested.docx")
    name = unique("nested-equation.docx")
    started = time.monotonic()
    doc = ingest(api, {name: (tmp_path / "nested.docx").read_bytes()}, timeout_s=60)[name]
    assert time.monotonic() - started < 30
    text = _text(api, doc["id"])
    assert "Nested brackets:(x0(x1(x2" in text
    assert "(x99" + ")" * depth in text


def test_text_boxes_nested_in_text_boxes_are_read_once(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: a paragraph read every text box below it, nested ones included, and each of those read the
    # boxes below it again: a box at depth n was read 2^(n-1) times (14 levels: 13.8 s and the innermost
    # text 8,192 times; a hostile 30 held a reader until its CPU limit).
    inner = "<w:p><w:r><w:t>innermost note</w:t></w:r></w:p>"
    for level in range(30):
        inner = (f"<w:p><w:r><w:t>box{level}</w:t></w:r><w:r><w:pict><v:shape><v:textbox><w:txbxContent>{inner}"
                 "</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>")
    document = docx.Document()
    document.element.body[-1].addprevious(parse_xml(
        f'<w:body {nsdecls("w")} xmlns:v="urn:schemas-microsoft-com:vml">{inner}</w:body>')[0])
    document.save(tmp_path / "boxes.docx")
    name = unique("boxes.docx")
    started = time.monotonic()
    doc = ingest(api, {name: (tmp_path / "boxes.docx").read_bytes()}, timeout_s=60)[name]
    assert time.monotonic() - started < 30
    text = _text(api, doc["id"])
    assert text.count("innermost note") == 1
    assert text.count("box0") == 1
    assert text.index("box29") < text.index("box0") < text.index("innermost note")


def test_excels_separator_hint_line_names_the_delimiter_and_is_not_the_header(api: httpx.Client,
                                                                              unique: Unique) -> None:
    # Excel writes and reads a first line "sep=;" naming the delimiter (German and other locales' exports).
    # Before: it was taken for the header, so every passage named its columns "sep=" and the real header
    # was a data row.
    rows = "".join(f"Probe {index};Köln;{index},50\r\n" for index in range(25))
    name = unique("messwerte.csv")
    doc = ingest(api, {name: ("\ufeffsep=;\r\nProbe;Ort;Wert\r\n" + rows).encode("utf-8")})[name]
    tables = [block["table"] for block in api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"]]
    assert [table["header"] for table in tables] == [["Probe", "Ort", "Wert"]] * 2
    assert tables[0]["rows"][0] == ["Probe 0", "Köln", "0,50"]
    assert sum(len(table["rows"]) for table in tables) == 25


_WEB_ARCHIVE = (b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="----=mhtDocumentPart"\r\n\r\n'
                b'------=mhtDocumentPart\r\nContent-Type: text/html; charset="utf-8"\r\n'
                b"Content-Transfer-Encoding: quoted-printable\r\n\r\n"
                b"<html><body><p>Diffusion f=C3=BChrt Teilchen zum Konzentrationsausgleich.</p></body></html>\r\n"
                b"------=mhtDocumentPart--\r\n")


def test_content_a_word_document_imports_whole_is_read(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # "Export to Word" buttons (html-docx-js, docx4j) put the whole text in a w:altChunk part, HTML or a web
    # archive, which Word merges on opening. python-docx does not read it: such a file read as empty.
    document = docx.Document()
    document.add_paragraph("Exported from the course wiki.")
    chunks = (("/word/afchunk.htm", "text/html", b"<html><head><title>Wiki</title><script>track()</script></head>"
               b"<body><h1>Osmosis</h1><p>Water moves toward the higher solute concentration.</p></body></html>"),
              ("/word/afchunk.mht", "message/rfc822", _WEB_ARCHIVE))
    for partname, content_type, blob in chunks:
        rel_id = document.part.relate_to(Part(PackURI(partname), content_type, blob, document.part.package),
                                         RELATIONSHIP_TYPE.A_F_CHUNK)
        document.element.body[-1].addprevious(parse_xml(f'<w:altChunk {nsdecls("w", "r")} r:id="{rel_id}"/>'))
    doc = _ingest_saved(api, unique, document, tmp_path / "export.docx")
    text = _text(api, doc["id"])
    assert "Exported from the course wiki.\n\nOsmosis\n\nWater moves toward the higher solute concentration." in text
    assert "Diffusion führt Teilchen zum Konzentrationsausgleich." in text
    assert "track()" not in text
