"""Office Math (OMML, the `m:` namespace) equations as text, for Word documents and slides alike.

An equation holds no ordinary text runs (`w:r`, `a:r`), so python-docx and python-pptx leave it out of
a paragraph's text. It is written in a linear form, as Word's own linear format writes it: fractions as
(a+b)/c, scripts as x^2 and x_i, roots as √(x), brackets as f(x), sums as ∑_(i=1)^n x_i, matrix cells
and equation-array lines kept apart; every symbol kept, so a formula is searched and cited with the
sentence around it.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

MATH_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
EQUATION = f"{{{MATH_NS}}}oMath"

# A structure's parts: (tag, text) in order, and the text by tag (the last of a tag).
_Parts = tuple[list[tuple[str, str]], dict[str, str]]


def math_text(element: etree._Element) -> str:
    """The equation (or any part of one) in a linear form. Recursion is bounded by the XML parser's depth
    limit."""
    name = etree.QName(element).localname
    if name == "t":
        text: str = element.text or ""
        return text
    if name.endswith("Pr"):  # properties: no text
        return ""
    # Each child is read once: reading them again per level would be exponential in depth.
    children: list[tuple[str, str]] = [(etree.QName(child).localname, math_text(child))
                                       for child in element.iterchildren()]
    form = _FORMS.get(name)
    return form(element, (children, dict(children))) if form else "".join(text for _, text in children)


def _fraction(_: etree._Element, parts: _Parts) -> str:
    return f"{_grouped(parts[1].get('num', ''))}/{_grouped(parts[1].get('den', ''))}"


def _scripts(_: etree._Element, parts: _Parts) -> str:
    named = parts[1]
    base = named.get("e", "")
    base += f"_{_grouped(named['sub'])}" if "sub" in named else ""
    return base + (f"^{_grouped(named['sup'])}" if "sup" in named else "")


def _root(_: etree._Element, parts: _Parts) -> str:
    return f"√({parts[1].get('e', '')})"


def _brackets(element: etree._Element, parts: _Parts) -> str:
    """f(x), [a|b]: with the characters the equation names."""
    inside = _property(element, "sepChr", "|").join(text for tag, text in parts[0] if tag == "e")
    return _property(element, "begChr", "(") + inside + _property(element, "endChr", ")")


def _n_ary(element: etree._Element, parts: _Parts) -> str:
    """A sum, product or integral with its limits."""
    named = parts[1]
    limits = (f"_{_grouped(named['sub'])}" if named.get("sub") else "") + (
        f"^{_grouped(named['sup'])}" if named.get("sup") else "")
    return f"{_property(element, 'chr', '∫')}{limits} {named.get('e', '')}"


def _function(_: etree._Element, parts: _Parts) -> str:
    return f"{parts[1].get('fName', '')} {parts[1].get('e', '')}"


def _limit(element: etree._Element, parts: _Parts) -> str:
    mark = "_" if etree.QName(element).localname == "limLow" else "^"
    return parts[1].get("e", "") + mark + _grouped(parts[1].get("lim", ""))


def _rows(element: etree._Element, parts: _Parts) -> str:
    """A matrix's rows and cells, an equation array's lines: kept apart."""
    separator = ", " if etree.QName(element).localname == "mr" else "; "
    return separator.join(text for _, text in parts[0] if text)


_FORMS: dict[str, Callable[[etree._Element, _Parts], str]] = {
    "f": _fraction, "sSup": _scripts, "sSub": _scripts, "sSubSup": _scripts, "rad": _root, "d": _brackets,
    "nary": _n_ary, "func": _function, "limLow": _limit, "limUpp": _limit, "m": _rows, "mr": _rows,
    "eqArr": _rows,
}


def _property(element: etree._Element, name: str, default: str) -> str:
    """A structure's character property (`m:dPr/m:begChr/@m:val`); present without a value means none."""
    found = element.find(f"{{{MATH_NS}}}{etree.QName(element).localname}Pr/{{{MATH_NS}}}{name}")
    if found is None:
        return default
    value: str = found.get(f"{{{MATH_NS}}}val", "")
    return value


def _grouped(text: str) -> str:
    return text if len(text) <= 1 else f"({text})"
