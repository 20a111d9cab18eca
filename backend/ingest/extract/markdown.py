"""Markdown files: one unit per heading section, each carrying its breadcrumb (``Intro > Setup``).

Recognises ATX (``## Setup``) and Setext (underlined) headings; fenced code is passed through as body
text so a ``# comment`` inside a fence is never taken for a heading. YAML front matter stays as text.
The HTML extractor reuses `split_markdown` on trafilatura's Markdown output.

Pipe tables (GitHub's: a header row, a delimiter row of dashes, rows up to a blank line) become table
units as a Word document's tables do, groups of 20 rows each repeating the header: cut into 1,000-
character passages, a long table's later rows were searched and cited without their column names, and
the viewer showed them as lines of pipes.
"""

from __future__ import annotations

import re
from pathlib import Path

from backend.ingest.extract.common import Outline, row_group_units
from backend.ingest.extract.text import read_text_file
from backend.ingest.types import BlockKind, ExtractedUnit, ExtractResult

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# Lines that belong to a block a Setext underline cannot turn into a heading.
_NOT_A_TITLE = re.compile(r"^(?: {4,}|\t| {0,3}(?:[-*+>|]|\d+[.)])(?:\s|$))")
_FRONT_MATTER_END = ("---", "...")
_DELIMITER_ROW = re.compile(r"^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
MAX_INDENT = 64
# A breadcrumb shows a heading as rendered: backslash escapes resolved ("Step [1]", not "Step \\[1\\]"),
# links and images as their text, inline HTML tags (`<a id="x"></a>`) and `{#anchor}` attributes dropped.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# Only inline HTML elements by name: `Box<T>` or `Vec<String>` in a heading is code, not a tag.
_TAG = re.compile(r"</?(?:a|abbr|b|br|code|del|em|i|img|ins|kbd|mark|s|small|span|strong|sub|sup|u)(?:\s[^>]*)?/?>",
                  re.IGNORECASE)
_ATTRIBUTES = re.compile(r"\s*\{[#.][^}]*\}\s*$")


def extract_markdown(path: Path) -> ExtractResult:
    return ExtractResult(units=split_markdown(read_text_file(path)))


def split_markdown(text: str, kind: BlockKind = "text") -> list[ExtractedUnit]:
    """Units of `kind`, one per section, in document order."""
    lines = [_capped_indent(line) for line in text.split("\n")]
    outline = Outline(kind)
    index = _front_matter_end(lines)
    for line in lines[:index]:
        outline.text(line)
    fence: str | None = None
    after_break = True  # at the start of a block: Setext titles must be one-line paragraphs
    while index < len(lines):
        line = lines[index]
        if fence is not None:
            fence = None if _closes_fence(line, fence) else fence
            outline.text(line)
        elif match := _FENCE.match(line):
            fence = match.group(1)
            outline.text(line)
        elif _is_table_start(lines, index):
            end = _table_end(lines, index)
            header, *rows = [_row_cells(row) for row in lines[index:end] if not _DELIMITER_ROW.match(row)]
            outline.add_units(row_group_units(header, rows, kind="table", section=outline.section))
            after_break = True
            index = end
            continue
        elif (atx := _ATX.match(line)) and atx.group(2):
            outline.heading(len(atx.group(1)), _unescape(atx.group(2).strip()), line)
            after_break = True
            index += 1
            continue
        elif after_break and _is_setext_title(lines, index):
            level = 1 if lines[index + 1].strip().startswith("=") else 2
            outline.heading(level, _unescape(line.strip()), line + "\n" + lines[index + 1])
            index += 2
            continue
        else:
            outline.text(line)
        after_break = not line.strip()
        index += 1
    return outline.finish()


def _capped_indent(line: str) -> str:
    """The line with at most MAX_INDENT columns of indentation: beyond that, nesting carries no meaning
    a reader can see, and 5,000 nested list items would otherwise be 25 MB of leading spaces."""
    if len(line) - len(line.lstrip(" \t")) <= MAX_INDENT:
        return line
    return " " * MAX_INDENT + line.lstrip(" \t")


def _unescape(title: str) -> str:
    plain = _ATTRIBUTES.sub("", _TAG.sub("", _LINK.sub(r"\1", title)))
    return _ESCAPE.sub(r"\1", " ".join(plain.split())) or title


def _is_table_start(lines: list[str], index: int) -> bool:
    """A header row with a pipe, followed by a delimiter row with a pipe and as many cells (``| --- | :-: |``);
    not in an indented code block."""
    if index + 1 >= len(lines) or "|" not in lines[index] or "|" not in lines[index + 1]:
        return False
    return (_DELIMITER_ROW.match(lines[index + 1]) is not None and not lines[index].startswith(("    ", "\t"))
            and len(_row_cells(lines[index])) == len(_row_cells(lines[index + 1])))


def _table_end(lines: list[str], start: int) -> int:
    """The index after the table's last row: rows run up to a blank line or a line without a pipe."""
    end = start + 2
    while end < len(lines) and lines[end].strip() and "|" in lines[end]:
        end += 1
    return end


def _row_cells(line: str) -> list[str]:
    """A pipe row's cells, the outer pipes dropped and escaped pipes (``\\|``) kept in their cell."""
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [cell.strip().replace("\\|", "|") for cell in _UNESCAPED_PIPE.split(row)]


def _front_matter_end(lines: list[str]) -> int:
    """Index of the first line after a leading YAML front-matter block (0 if there is none)."""
    if not lines or lines[0].strip() != "---":
        return 0
    for index in range(1, len(lines)):
        if lines[index].strip() in _FRONT_MATTER_END:
            return index + 1
    return 0


def _closes_fence(line: str, fence: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(fence) and set(stripped) == {fence[0]}


def _is_setext_title(lines: list[str], index: int) -> bool:
    line = lines[index]
    return (
        index + 1 < len(lines)
        and bool(line.strip())
        and _SETEXT_UNDERLINE.match(lines[index + 1]) is not None
        and _NOT_A_TITLE.match(line) is None
        and _FENCE.match(line) is None
    )
