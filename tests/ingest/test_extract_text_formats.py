"""Text-based formats: encodings (UTF-8, BOMs, UTF-16, CP1252, other code pages), TXT paragraphs,
CSV dialects and header repetition, Markdown breadcrumbs around code fences, HTML article text."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from backend.ingest.extract import extract_document
from backend.ingest.extract import html as html_module
from backend.ingest.extract.markdown import split_markdown
from backend.ingest.extract.text import decode_text, read_text_file
from backend.ingest.types import ExtractionError
from tests.support.documents import make_csv

GERMAN = "Grüße, café"

# ---------------------------------------------------------------- encodings


@pytest.mark.parametrize(
    "data",
    [
        GERMAN.encode("utf-8"),
        codecs.BOM_UTF8 + GERMAN.encode("utf-8"),
        GERMAN.encode("utf-16"),
        codecs.BOM_UTF16_BE + GERMAN.encode("utf-16-be"),
        GERMAN.encode("cp1252"),
        GERMAN.encode("latin-1"),
    ],
    ids=["utf8", "utf8-bom", "utf16-le-bom", "utf16-be-bom", "cp1252", "latin1"],
)
def test_decoding_round_trips(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(data)
    assert read_text_file(path) == GERMAN


def test_cp1252_punctuation() -> None:
    assert decode_text("Preis: 5 € – „gut“".encode("cp1252")) == "Preis: 5 € – „gut“"


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Привет, как дела? Это тестовый текст на русском языке, он достаточно длинный.\n" * 3, "cp1251"),
        ("Zażółć gęślą jaźń, to jest polski tekst z ogonkami i znakami.\n" * 3, "cp1250"),
    ],
)
def test_other_code_pages_are_not_forced_into_cp1252(text: str, encoding: str) -> None:
    assert decode_text(text.encode(encoding)) == text


def test_undecodable_bytes_still_give_text() -> None:
    decoded = decode_text(b"abc \x81\x8d\x8f\x90\x9d def")
    assert decoded.startswith("abc")
    assert decoded.endswith("def")


def test_newlines_are_normalised() -> None:
    assert decode_text(b"one\r\ntwo\rthree\n") == "one\ntwo\nthree\n"


# ---------------------------------------------------------------- TXT


def test_txt_paragraph_units(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes("First paragraph\nstill first.\r\n\r\n\r\nSecond: Grüße.\n\n   \n".encode("cp1252"))
    units = extract_document(path, "txt").units
    assert [unit.text for unit in units] == ["First paragraph\nstill first.", "Second: Grüße."]
    assert {(unit.kind, unit.page, unit.section) for unit in units} == {("text", None, None)}


def test_txt_utf16(tmp_path: Path) -> None:
    path = tmp_path / "wide.txt"
    path.write_bytes("Zeile eins\n\nÄrger über Öl".encode("utf-16"))
    assert [unit.text for unit in extract_document(path, "txt").units] == ["Zeile eins", "Ärger über Öl"]


# ---------------------------------------------------------------- CSV


def test_csv_header_repeated_every_twenty_rows(tmp_path: Path) -> None:
    rows = [["id", "name, with comma", "note"]] + [[str(n), f"Name {n}", f'say "hi" {n}'] for n in range(45)]
    path = make_csv(tmp_path / "people.csv", rows)
    units = extract_document(path, "csv").units
    assert len(units) == 3
    assert all(unit.kind == "csv" and unit.atomic for unit in units)
    for unit in units:
        assert unit.text.split("\n")[0] == "| id | name, with comma | note |"
    assert units[0].text.split("\n")[1] == '| 0 | Name 0 | say "hi" 0 |'
    assert [len(unit.text.split("\n")) for unit in units] == [21, 21, 6]


@pytest.mark.parametrize("delimiter", [";", "\t", "|"])
def test_csv_dialect_is_sniffed(tmp_path: Path, delimiter: str) -> None:
    path = make_csv(tmp_path / "d.csv", [["Stadt", "Einwohner"], ["Köln", "1084831"], ["Bonn", "330579"]],
                    delimiter=delimiter, encoding="cp1252")
    (unit,) = extract_document(path, "csv").units
    assert unit.text.split("\n") == ["| Stadt | Einwohner |", "| Köln | 1084831 |", "| Bonn | 330579 |"]


def test_csv_quoted_newlines_and_empty_rows(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text('term,definition\n\n,\n"cell","line one\nline two"\n', encoding="utf-8")
    (unit,) = extract_document(path, "csv").units
    assert unit.text.split("\n") == ["| term | definition |", "| cell | line one line two |"]


def test_single_column_csv(tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text("word\nalpha\nbeta\n", encoding="utf-8")
    (unit,) = extract_document(path, "csv").units
    assert unit.text.split("\n") == ["| word |", "| alpha |", "| beta |"]


# ---------------------------------------------------------------- Markdown

MARKDOWN = """\
---
title: Course notes
---
# Intro

Welcome.

## Setup

Install it:

```bash
# this is a comment, not a heading
pip install quire
```

~~~
## neither is this
~~~

Details
=======

Setext body.

More
----
#hashtag stays text

# Empty parent
## Child
child body
"""


def test_markdown_breadcrumbs_and_fences() -> None:
    units = split_markdown(MARKDOWN)
    assert [unit.section for unit in units] == [
        None,
        "Intro",
        "Intro > Setup",
        "Details",
        "Details > More",
        "Empty parent > Child",
    ]
    assert "title: Course notes" in units[0].text
    setup = units[2].text
    assert "# this is a comment, not a heading" in setup
    assert "## neither is this" in setup
    assert "#hashtag stays text" in units[4].text
    assert units[5].text.startswith("# Empty parent\n## Child")


def test_markdown_file(tmp_path: Path) -> None:
    path = tmp_path / "n.md"
    path.write_text("# Ökologie\n\nText.\n\n### Tief\n\nUnten.\n", encoding="utf-8")
    units = extract_document(path, "md").units
    assert [unit.section for unit in units] == ["Ökologie", "Ökologie > Tief"]
    assert "Unten." in units[1].text


# ---------------------------------------------------------------- HTML

ARTICLE = """<!doctype html><html><head><title>Photosynthesis</title>
<script>document.write("SCRIPT_SECRET")</script><style>.x { color: red }</style></head>
<body><nav><a href="/">Home</a></nav><article>
<h1>Photosynthesis</h1>
<p>Plants convert light energy into chemical energy. This happens in the chloroplasts of leaf cells.</p>
<h2>Light reactions</h2>
<p>The light reactions take place in the thylakoid membranes and produce ATP and NADPH from water.</p>
<table><tr><th>Stage</th><th>Location</th></tr><tr><td>Calvin cycle</td><td>Stroma</td></tr></table>
</article><script>alert("SCRIPT_TWO")</script></body></html>"""


def test_html_article_with_breadcrumbs_and_tables(tmp_path: Path) -> None:
    path = tmp_path / "a.html"
    path.write_text(ARTICLE, encoding="utf-8")
    units = extract_document(path, "html").units
    assert [unit.section for unit in units] == ["Photosynthesis", "Photosynthesis > Light reactions",
                                                "Photosynthesis > Light reactions"]
    assert [unit.kind for unit in units] == ["html", "html", "table"]  # tables as Word's and Markdown's are
    assert "chloroplasts" in units[0].text
    assert units[2].text == "| Stage | Location |\n| Calvin cycle | Stroma |"
    assert "SCRIPT" not in "".join(unit.text for unit in units)


def test_html_fallback_keeps_visible_text_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(html_module.trafilatura, "extract", lambda *_args, **_kwargs: None)
    path = tmp_path / "b.html"
    path.write_text(
        '<?xml version="1.0" encoding="utf-8"?>' + ARTICLE.replace("<p>", "<p>Früh: "), encoding="utf-8"
    )
    units = extract_document(path, "html").units
    text = "\n".join(unit.text for unit in units)
    assert "Früh: Plants convert light energy" in text
    assert "Light reactions" in text
    assert "SCRIPT" not in text
    assert "color: red" not in text
    assert {unit.kind for unit in units} == {"html"}


def test_html_with_only_scripts_gives_no_units(tmp_path: Path) -> None:
    path = tmp_path / "s.html"
    path.write_text("<html><body><script>var x = 'SCRIPT';</script></body></html>", encoding="utf-8")
    assert extract_document(path, "html").units == []


def test_breadcrumbs_show_headings_as_rendered(tmp_path: Path) -> None:
    markdown = tmp_path / "notes"
    markdown.write_text("# Guide {#top}\n\n## Step \\[1\\]: [Install](https://example.org) <a id=\"i\"></a>\n\n"
                        "Install it.\n\n## Using `Box<T>`\n\nBoxes.\n")
    sections = [unit.section for unit in extract_document(markdown, "md").units]
    assert sections == ["Guide > Step [1]: Install", "Guide > Using `Box<T>`"]
    page = tmp_path / "page"
    body = " ".join(["Words about the topic of this section."] * 12)
    page.write_text(
        "<html><body><article><h1>Manual</h1>"
        f"<h2>Intro<span class='mw-editsection'>[<a href='?edit'>edit</a>]</span></h2><p>{body}</p>"
        f"<h2>Setup<a class='headerlink' href='#setup'>¶</a></h2><p>{body}</p>"
        f"<h2>Usage<a href='#usage' aria-hidden='true'>#</a></h2><p>{body}</p></article></body></html>"
    )
    sections = [unit.section for unit in extract_document(page, "html").units]
    assert sections == ["Manual > Intro", "Manual > Setup", "Manual > Usage"]


def test_a_csv_quote_never_closed_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text('name,comment\nAda,"never closed\n' + "Bob,fine\n" * 2_000_000, encoding="utf-8")
    with pytest.raises(ExtractionError) as refused:
        extract_document(path, "csv")
    assert refused.value.message == ("This CSV file has a cell of more than 16 MB of text, most often after a quote "
                                     "mark that is never closed.")
