"""Office Math (OMML, the `m:` namespace) equations as text, for Word documents and slides alike.

An equation holds no ordinary text runs (`w:r`, `a:r`), so python-docx and python-pptx leave it out of
a paragraph's text. It is written in a linear form, as Word's own linear format writes it: fractions as
(a+b)/c, scripts as x^2 and x_i, roots as √(x), every symbol kept, so a formula is searched and cited
with the sentence around it.
"""

from __future__ import annotations

from lxml import etree

MATH_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
EQUATION = f"{{{MATH_NS}}}oMath"


def math_text(element: etree._Element) -> str:
    """The equation (or any part of one) in a linear form. Recursion is bounded by the XML parser's depth
    limit."""
    name = etree.QName(element).localname
    if name == "t":
        text: str = element.text or ""
        return text
    if name.endswith("Pr"):  # properties: no text
        return ""
    children: list[tuple[str, str]] = [(etree.QName(child).localname, math_text(child))
                                       for child in element.iterchildren()]
    # Each child is read once: reading them again per level would be exponential in depth.
    parts: dict[str, str] = dict(children)
    if name == "f":
        return f"{_grouped(parts.get('num', ''))}/{_grouped(parts.get('den', ''))}"
    if name in ("sSup", "sSub", "sSubSup"):
        base = parts.get("e", "")
        base += f"_{_grouped(parts['sub'])}" if "sub" in parts else ""
        return base + (f"^{_grouped(parts['sup'])}" if "sup" in parts else "")
    if name == "rad":
        return f"√({parts.get('e', '')})"
    return "".join(text for _, text in children)


def _grouped(text: str) -> str:
    return text if len(text) <= 1 else f"({text})"
