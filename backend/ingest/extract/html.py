"""HTML files: the article text as trafilatura finds it (tables included), as Markdown so headings
become breadcrumbs through the Markdown splitter; kind ``html``. Pages trafilatura finds nothing in
fall back to the plain text of the body. Scripts and styles are dropped and never run."""

from __future__ import annotations

import re
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


def extract_html(path: Path) -> ExtractResult:
    source = read_text_file(path)
    markdown = trafilatura.extract(
        _without_page_furniture(source),
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


def _without_page_furniture(source: str) -> str:
    """The page without the links that wikis and documentation generators put inside headings
    ("[edit]" on MediaWiki pages, "¶" or "#" permalinks): they would end up in the breadcrumbs."""
    try:
        tree = lxml_html.document_fromstring(source.encode("utf-8"), parser=lxml_html.HTMLParser(encoding="utf-8"))
    except (etree.ParserError, ValueError):
        return source
    furniture = tree.xpath(_FURNITURE)
    if not furniture:
        return source
    for element in furniture:
        element.drop_tree()
    return str(lxml_html.tostring(tree, encoding="unicode"))


def _fallback_units(source: str) -> list[ExtractedUnit]:
    """Visible body text, one unit per paragraph-ish block."""
    try:
        # Bytes, because lxml refuses str input that carries an XML encoding declaration.
        tree = lxml_html.document_fromstring(
            source.encode("utf-8"), parser=lxml_html.HTMLParser(encoding="utf-8")
        )
    except (etree.ParserError, ValueError):
        return []
    etree.strip_elements(tree, *_INVISIBLE, with_tail=False)
    for element in tree.iter(*_BLOCKS):
        element.tail = "\n\n" + (element.tail or "")
    lines = (_SPACES.sub(" ", line).strip() for line in tree.text_content().split("\n"))
    text = "\n".join(lines)
    return [ExtractedUnit(text=paragraph, kind="html") for paragraph in split_paragraphs(text)]
