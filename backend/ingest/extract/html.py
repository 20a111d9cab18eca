"""HTML files: the article text as trafilatura finds it (tables included), as Markdown so headings
become breadcrumbs through the Markdown splitter; kind ``html``. Pages trafilatura finds nothing in
fall back to the plain text of the body. Scripts and styles are dropped and never run.

libxml2 stops reading a page at a nesting depth of 256 elements (2,048 with lxml's `huge_tree`) and
silently drops the rest: hand-written pages with unclosed `<div>`s or `<font>`s nest deeper with every
paragraph. So the page is parsed once, with `huge_tree`, and that tree is what trafilatura reads (given a
string it would parse again at the lower limit). A page deeper still is read by the standard library's
event-based parser, which has no depth limit: all its visible text, without telling the article from the
page around it, and the library says so."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import trafilatura
from lxml import etree
from lxml import html as lxml_html

from backend.ingest.extract.markdown import split_markdown
from backend.ingest.extract.text import read_text_file, split_paragraphs
from backend.ingest.types import ExtractedUnit, ExtractResult

_INVISIBLE = ("script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "head")
_BLOCKS = (
    *("address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure"),
    *("footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol"),
    *("p", "pre", "section", "table", "td", "th", "tr", "ul"),
)
_HEADINGS = "*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6]"
_FURNITURE = (
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' mw-editsection ')]"
    # Permalink anchors inside headings: empty, or only a mark such as # ¶ § (Sphinx, MkDocs, GitHub, Docusaurus).
    f" | //{_HEADINGS}//a[string-length(translate(normalize-space(.), '#¶§🔗', '')) = 0]"
)
_SPACES = re.compile(r"[ \t\u00a0]+")


TOO_DEEP = ("This page nests its elements too deeply to tell its article from the rest of the page: "
            "all of its visible text was kept.")


def extract_html(path: Path) -> ExtractResult:
    source = read_text_file(path)
    try:
        tree = _parse(source)
    except _TooDeep:
        return ExtractResult(units=_units(_visible_text(source)), warnings=[TOO_DEEP])
    if tree is None:
        return ExtractResult(units=[])
    _drop_page_furniture(tree)
    markdown = trafilatura.extract(
        tree,
        output_format="markdown",
        include_tables=True,
        include_comments=False,
        include_images=False,
        include_links=False,
        favor_recall=True,
    )
    if markdown and markdown.strip():
        return ExtractResult(units=split_markdown(markdown, kind="html"))
    return ExtractResult(units=_fallback_units(source))


class _TooDeep(Exception):
    """The page nests deeper than libxml2 reads: its tree would miss the text below that depth."""


def _parse(source: str) -> lxml_html.HtmlElement | None:
    """The page's tree; None for a page without any element (empty, or only whitespace)."""
    parser = lxml_html.HTMLParser(encoding="utf-8", huge_tree=True)
    try:
        # Bytes, because lxml refuses str input that carries an XML encoding declaration.
        tree = lxml_html.document_fromstring(source.encode("utf-8"), parser=parser)
    except (etree.ParserError, ValueError):
        return None
    if any(error.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT for error in parser.error_log):
        raise _TooDeep
    return tree


def _drop_page_furniture(tree: lxml_html.HtmlElement) -> None:
    """Drops the links that wikis and documentation generators put inside headings ("[edit]" on
    MediaWiki pages, "¶" or "#" permalinks): they would end up in the breadcrumbs."""
    for element in tree.xpath(_FURNITURE):
        element.drop_tree()


def _fallback_units(source: str) -> list[ExtractedUnit]:
    """Visible body text, one unit per paragraph-ish block."""
    tree = _parse(source)  # not too deep: extract_html parsed it before
    if tree is None:
        return []
    etree.strip_elements(tree, *_INVISIBLE, with_tail=False)
    for element in tree.iter(*_BLOCKS):
        element.tail = "\n\n" + (element.tail or "")
    return _units(tree.text_content())


def visible_paragraphs(source: str) -> list[str]:
    """All visible text of an HTML fragment or page, by paragraph (no article detection: for HTML that is
    content through and through, as a Word document's imported chunk is)."""
    return [unit.text for unit in _units(_visible_text(source))]


def _units(text: str) -> list[ExtractedUnit]:
    lines = "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return [ExtractedUnit(text=paragraph, kind="html") for paragraph in split_paragraphs(lines)]


def _visible_text(source: str) -> str:
    """The page's visible text by the standard library's event-based parser, whatever its depth."""
    collector = _VisibleText()
    collector.feed(source)
    collector.close()
    return "".join(collector.parts)


class _VisibleText(HTMLParser):
    """Text outside the invisible elements, a paragraph break at each block element."""

    # Invisible elements that hold content up to their end tag (the void `embed` holds none).
    _HIDING = frozenset(_INVISIBLE) - {"embed"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._HIDING:
            self._hidden += 1
        elif tag in _BLOCKS:
            self.parts.append("\n\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:  # <br/>, <hr/>: a break, and nothing to close
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDING:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)
