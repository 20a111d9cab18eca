"""Cloze deletions in Anki's syntax: `{{c1::answer}}` or `{{c1::answer::hint}}`, several per note.

A cloze note becomes one card per deletion number (as in Anki): card n hides every `c<n>` deletion of
the text and shows the others as plain text. `segments` splits the text for one card so the web app
can show the question (deletions as "[…]" or "[hint]") and the answer (deletions revealed and marked)
without parsing the syntax again.
"""

from __future__ import annotations

import re
from typing import TypedDict

CLOZE = re.compile(r"\{\{c(\d{1,2})::(.*?)(?:::(.*?))?\}\}", re.DOTALL)
MAX_NUMBER = 50


class Segment(TypedDict):
    text: str
    hidden: bool  # a deletion of this card: hidden on the question side
    hint: str | None


def numbers(text: str) -> list[int]:
    """The deletion numbers used in `text` that have an answer, in order."""
    return sorted({int(m.group(1)) for m in CLOZE.finditer(text) if m.group(2).strip()})


def problem(text: str) -> str | None:
    """What makes `text` unusable as a cloze note, or None."""
    found = [int(m.group(1)) for m in CLOZE.finditer(text)]
    if not found:
        return "A cloze card needs at least one deletion, written like {{c1::answer}}"
    if any(n < 1 or n > MAX_NUMBER for n in found):
        return f"Deletions are numbered c1 to c{MAX_NUMBER}."
    if any(not m.group(2).strip() for m in CLOZE.finditer(text)):
        return "A deletion must hide some text: {{c1::answer}}, not {{c1::}}."
    return None


def segments(text: str, n: int) -> list[Segment]:
    """`text` for card `n`: plain runs, other numbers' deletions as plain text, its own deletions hidden."""
    out: list[Segment] = []
    at = 0
    for match in CLOZE.finditer(text):
        if match.start() > at:
            out.append({"text": text[at:match.start()], "hidden": False, "hint": None})
        own = int(match.group(1)) == n
        out.append({"text": match.group(2), "hidden": own, "hint": (match.group(3) or None) if own else None})
        at = match.end()
    if at < len(text):
        out.append({"text": text[at:], "hidden": False, "hint": None})
    return _merged(out)


def _merged(parts: list[Segment]) -> list[Segment]:
    merged: list[Segment] = []
    for part in parts:
        if merged and not part["hidden"] and not merged[-1]["hidden"]:
            merged[-1] = {"text": merged[-1]["text"] + part["text"], "hidden": False, "hint": None}
        else:
            merged.append(part)
    return merged


def masked(text: str, n: int) -> str:
    """Card `n`'s question as plain text ("The [...] makes ATP"), e.g. for a prompt or an export line."""
    return "".join(f"[{s['hint'] or '...'}]" if s["hidden"] else s["text"] for s in segments(text, n))


def plain(text: str) -> str:
    """The note with every deletion's answer shown as plain text."""
    return CLOZE.sub(lambda m: m.group(2), text)
