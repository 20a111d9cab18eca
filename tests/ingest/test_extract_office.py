"""Office extraction: DOCX (order, breadcrumbs, tables), PPTX (slides, groups, tables, notes),
XLSX (sheets, header repetition, value formatting), and damaged or bomb-shaped archives."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from backend.ingest.extract import extract_document
from backend.ingest.extract.xlsx import format_cell
from backend.ingest.types import ExtractionError, ExtractProgress
from tests.support.documents import (
    Heading,
    Para,
    Slide,
    Table,
    ZipBomb,
    make_docx,
    make_pdf,
    make_pptx,
    make_xlsx,
    make_zip,
    make_zip_bomb,
)

# ---------------------------------------------------------------- DOCX


def test_docx_breadcrumbs_and_document_order(tmp_path: Path) -> None:
    path = make_docx(
        tmp_path / "bio.docx",
        [
            Para("Preface before any heading."),
            Heading("Cells", 1),
            Para("Cells are the unit of life."),
            Heading("Organelles", 2),
            Para("Organelles have jobs."),
            Table([["Name", "Role"], ["Mitochondria", "Energy"], ["Ribosome", "Proteins"]]),
            Para("Text after the table."),
            Heading("Plants", 1),
            Para("Plants photosynthesise."),
        ],
    )
    units = extract_document(path, "docx").units
    summary = [(unit.kind, unit.section, unit.text.split("\n")[0]) for unit in units]
    assert summary == [
        ("text", None, "Preface before any heading."),
        ("text", "Cells", "Cells"),
        ("text", "Cells > Organelles", "Organelles"),
        ("table", "Cells > Organelles", "| Name | Role |"),
        ("text", "Cells > Organelles", "Text after the table."),
        ("text", "Plants", "Plants"),
    ]
    assert "Cells are the unit of life." in units[1].text
    rows = ["| Name | Role |", "| Mitochondria | Energy |", "| Ribosome | Proteins |"]
    assert units[3].text.split("\n") == rows
    assert units[3].atomic
    assert all(unit.page is None for unit in units)


def test_docx_title_heads_the_breadcrumb(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "t.docx", [Heading("Biology", 0), Heading("Cells", 1), Para("Body.")])
    units = extract_document(path, "docx").units
    assert units[-1].section == "Biology > Cells"
    assert "Body." in units[-1].text


def test_docx_custom_style_based_on_a_heading_is_a_heading(tmp_path: Path) -> None:
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    document = docx.Document()
    chapter = document.styles.add_style("Chapter", WD_STYLE_TYPE.PARAGRAPH)
    chapter.base_style = document.styles["Heading 1"]
    document.add_paragraph("Genetics", style="Chapter")
    document.add_paragraph("Genes are inherited.")
    document.save(str(tmp_path / "c.docx"))
    (unit,) = extract_document(tmp_path / "c.docx", "docx").units
    assert (unit.section, unit.text) == ("Genetics", "Genetics\n\nGenes are inherited.")


def test_docx_paragraph_naming_a_missing_style_is_body_text(tmp_path: Path) -> None:
    import zipfile

    made = make_docx(tmp_path / "made.docx", [Heading("Cells", 1), Heading("Organelles", 1), Para("Body.")])
    broken = tmp_path / "missing-style.docx"
    with zipfile.ZipFile(made) as source, zipfile.ZipFile(broken, "w") as target:
        for member in source.infolist():
            data = source.read(member)
            if member.filename == "word/document.xml":  # the second heading names a style no longer there
                end = b'/></w:pPr><w:r><w:t>Organelles'
                data = data.replace(b'"Heading1"' + end, b'"Gone"' + end)
                assert b'w:val="Gone"' in data
            target.writestr(member, data)
    (unit,) = extract_document(broken, "docx").units  # as python-docx resolves it: the default style, body
    assert (unit.section, unit.text) == ("Cells", "Cells\n\nOrganelles\n\nBody.")


def test_docx_long_table_repeats_header_per_row_group(tmp_path: Path) -> None:
    rows = [["Year", "Event"]] + [[str(1900 + n), f"event {n}"] for n in range(45)]
    path = make_docx(tmp_path / "long.docx", [Heading("History"), Table(rows)])
    tables = [unit for unit in extract_document(path, "docx").units if unit.kind == "table"]
    assert len(tables) == 3
    assert all(unit.text.startswith("| Year | Event |\n") for unit in tables)
    assert [unit.text.count("\n") for unit in tables] == [20, 20, 5]
    assert "| 1944 | event 44 |" in tables[2].text
    assert {unit.section for unit in tables} == {"History"}


def test_docx_pipes_in_cells_are_escaped(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "p.docx", [Table([["Expr", "Means"], ["a|b", "a or\nb"]])])
    (table,) = extract_document(path, "docx").units
    assert table.text.split("\n")[1] == "| a\\|b | a or b |"


# ---------------------------------------------------------------- PPTX


def test_pptx_one_unit_per_slide_with_everything_on_it(tmp_path: Path) -> None:
    path = make_pptx(
        tmp_path / "deck.pptx",
        [
            Slide(
                "Cell division",
                bullets=["Mitosis makes two cells", "Meiosis makes gametes"],
                table=[["Phase", "Event"], ["Prophase", "Chromosomes condense"]],
                grouped=["Grouped label one", "Grouped label two"],
                notes="Remind the class about the exam.",
            ),
            Slide(None, bullets=["A slide without a title"]),
            Slide("Summary", bullets=["Done"]),
        ],
    )
    events: list[ExtractProgress] = []
    result = extract_document(path, "pptx", on_progress=events.append)
    assert result.pages == 3
    assert [(unit.page, unit.section, unit.kind) for unit in result.units] == [
        (1, "Cell division", "slide"),
        (2, None, "slide"),
        (3, "Summary", "slide"),
    ]
    first = result.units[0].text
    assert first.startswith("Cell division")
    for expected in ("Meiosis makes gametes", "| Prophase | Chromosomes condense |", "Grouped label two"):
        assert expected in first
    assert first.endswith("Notes: Remind the class about the exam.")
    assert result.units[1].text == "A slide without a title"
    assert [event.detail for event in events] == ["slide 1 of 3", "slide 2 of 3", "slide 3 of 3"]


# ---------------------------------------------------------------- XLSX


def test_xlsx_sheets_header_repetition_and_empty_rows(tmp_path: Path) -> None:
    budget = [["Item", "Cost"], *([[f"item {n}", n * 10] for n in range(25)])]
    budget.insert(5, [None, None])
    path = make_xlsx(tmp_path / "book.xlsx", {"Budget": budget, "Empty": [], "Notes": [["Remark"], ["ok"]]})
    units = extract_document(path, "xlsx").units
    assert [(unit.section, unit.kind, unit.atomic) for unit in units] == [
        ("Sheet: Budget", "sheet", True),
        ("Sheet: Budget", "sheet", True),
        ("Sheet: Notes", "sheet", True),
    ]
    first, second, notes = (unit.text.split("\n") for unit in units)
    assert first[:3] == ["[Sheet: Budget]", "| Item | Cost |", "| item 0 | 0 |"]
    assert len(first) == 22
    assert second[:2] == ["[Sheet: Budget]", "| Item | Cost |"]
    assert second[-1] == "| item 24 | 240 |"
    assert len(second) == 7
    assert "| |" not in "\n".join(first)
    assert notes == ["[Sheet: Notes]", "| Remark |", "| ok |"]
    assert units[0].header_lines == 2


def test_xlsx_values_are_formatted_for_reading(tmp_path: Path) -> None:
    rows = [
        ["When", "Amount", "Ratio", "Paid"],
        [dt.date(2024, 3, 1), 1200.0, 0.1 + 0.2, True],
        [dt.datetime(2024, 3, 2, 14, 30), 7, 1.5, False],
    ]
    path = make_xlsx(tmp_path / "v.xlsx", {"Money": rows})
    lines = extract_document(path, "xlsx").units[0].text.split("\n")
    assert lines[2] == "| 2024-03-01 | 1200 | 0.3 | TRUE |"
    assert lines[3] == "| 2024-03-02 14:30 | 7 | 1.5 | FALSE |"


@pytest.mark.parametrize(
    ("value", "number_format", "shown"),
    [
        (0.25, "0%", "25%"),
        (3.0, "General", "3"),
        (2.5e20, "General", "2.5e+20"),
        (dt.time(9, 5), "h:mm", "09:05:00"),
        ("  padded ", "General", "padded"),
        (None, None, ""),
    ],
)
def test_format_cell(value: object, number_format: str | None, shown: str) -> None:
    assert format_cell(value, number_format) == shown


# ---------------------------------------------------------------- broken archives


@pytest.mark.parametrize("kind", ["docx", "pptx", "xlsx"])
def test_damaged_office_file_raises_readable_error(tmp_path: Path, kind: str) -> None:
    prefix = {"docx": "word/", "pptx": "ppt/", "xlsx": "xl/"}[kind]
    members = {"[Content_Types].xml": "<not-closed", prefix + "x.xml": "<a/>"}
    path = make_zip(tmp_path / f"broken.{kind}", members)
    with pytest.raises(ExtractionError) as caught:
        extract_document(path, kind)  # type: ignore[arg-type]
    assert caught.value.code == f"{kind}_corrupt"
    assert "damaged" in caught.value.message


def test_lying_zip_headers_are_caught_before_parsing(tmp_path: Path) -> None:
    path = make_zip_bomb(tmp_path / "lies.docx", ZipBomb("declared", megabytes=400))
    with pytest.raises(ExtractionError) as caught:
        extract_document(path, "docx")
    assert caught.value.code == "zip_bomb"


def test_member_bigger_than_declared_is_refused(tmp_path: Path) -> None:
    # Declares 1 KB per member while one inflates to 2 MB: zipfile stops at the declared size and the
    # CRC check fails, so the parser never sees the extra data.
    path = make_zip_bomb(tmp_path / "under.xlsx", ZipBomb("ratio", megabytes=2, prefix="xl/"))
    data = bytearray(path.read_bytes())
    position = data.find(b"PK\x01\x02")
    while position != -1:
        data[position + 24 : position + 28] = (1024).to_bytes(4, "little")
        position = data.find(b"PK\x01\x02", position + 4)
    path.write_bytes(bytes(data))
    with pytest.raises(ExtractionError) as caught:
        extract_document(path, "xlsx")
    assert caught.value.code == "xlsx_corrupt"


# ---------------------------------------------------------------- stored names


def test_every_format_reads_a_file_stored_without_its_extension(tmp_path: Path) -> None:
    # Uploads are staged as docs/.pending/<uuid>: no extractor may rely on the file name's suffix.
    sources = {
        "xlsx": make_xlsx(tmp_path / "w.xlsx", {"Budget": [["Item", "Cost"], ["Quillpen", 3]]}),
        "docx": make_docx(tmp_path / "d.docx", [Heading("Quills", 1), Para("Quillpen care.")]),
        "pptx": make_pptx(tmp_path / "p.pptx", [Slide("Quills", ["Quillpen slide."])]),
        "pdf": make_pdf(tmp_path / "p.pdf", ["Quillpen page text long enough to need no OCR at all here."]),
    }
    for kind, source in sources.items():
        staged = tmp_path / f"staged-{kind}"
        staged.write_bytes(source.read_bytes())
        result = extract_document(staged, kind)  # type: ignore[arg-type]
        assert any("Quillpen" in unit.text for unit in result.units), kind


def test_docx_text_boxes_are_read_once(tmp_path: Path) -> None:
    import docx
    from docx.oxml import parse_xml

    path = make_docx(tmp_path / "boxed.docx", [Para("Before the box."), Para("After the box.")])
    document = docx.Document(str(path))
    box = ('<w:p><w:r>{}</w:r></w:p>').format(
        '<w:txbxContent><w:p><w:r><w:t>Text inside a text box about tides.</w:t></w:r></w:p></w:txbxContent>')
    shape = parse_xml(
        '<w:r xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
        ' xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
        f"<mc:AlternateContent><mc:Choice Requires='wps'>{box}</mc:Choice>"
        f"<mc:Fallback>{box}</mc:Fallback></mc:AlternateContent></w:r>"
    )
    document.paragraphs[0]._p.append(shape)
    document.save(str(path))
    text = "\n".join(unit.text for unit in extract_document(path, "docx").units)
    assert text.count("Text inside a text box about tides.") == 1
    assert text.index("Before the box.") < text.index("tides") < text.index("After the box.")
