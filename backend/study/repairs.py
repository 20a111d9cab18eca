"""Mechanical repairs of what a small model fills into a schema, and the report of what was asked vs kept.

Small local models return well-formed JSON that misses the validator's rules in predictable ways: an
option repeated, a fifth option, the right answer's index one past the options, "B" or the option's text
instead of an index, a type spelled "multiple_choice". Where the fix is mechanical — it cannot change
what the item says — it is made here and counted; anything else (three options, an empty answer) is
left to the validator, which drops the item, and to the one re-ask for what is missing
(backend/study/generation.py). No repair invents content.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

MCQ_OPTIONS = 4
_TYPE_NAMES = {"mcq": "mcq", "multiple_choice": "mcq", "multiple-choice": "mcq", "multiplechoice": "mcq",
               "multiple choice": "mcq", "true_false": "true_false", "true/false": "true_false", "tf": "true_false",
               "truefalse": "true_false", "true-false": "true_false", "boolean": "true_false"}


@dataclass
class Report:
    """What a generation asked the model for and what it kept — stored with the job, shown to the user."""

    asked: int = 0
    kept: int = 0
    repaired: Counter[str] = field(default_factory=Counter)  # repair → items it was applied to
    dropped: Counter[str] = field(default_factory=Counter)  # reason → items dropped for it
    reasked: int = 0  # items asked for again, once, because too few were usable

    def payload(self) -> dict[str, Any]:
        return {"asked": self.asked, "kept": self.kept, "repaired": dict(self.repaired),
                "dropped": dict(self.dropped), "reasked": self.reasked}


def repair_question(raw: Any, report: Report) -> Any:
    """A quiz question as the validator wants it, where a mechanical fix gets it there."""
    if not isinstance(raw, dict):
        return raw
    item = dict(raw)
    kind = str(item.get("type", "")).strip().lower()
    if kind in _TYPE_NAMES and _TYPE_NAMES[kind] != item.get("type"):
        item["type"] = _TYPE_NAMES[kind]
        report.repaired["type spelled differently"] += 1
    options = item.get("options")
    if item.get("type") != "mcq" or not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        return item
    correct = _answer_index(item, options, report)
    options, correct = _dedupe(options, correct, report)
    options, correct = _drop_surplus(options, correct, report)
    item["options"] = options
    if correct is not None:
        item["correct_index"] = correct
    return item


def _answer_index(item: dict[str, Any], options: list[str], report: Report) -> int | None:
    """The index of the right option, from an index, a letter, the option's text, or — for an index past
    the options — the one option the explanation names. None when it cannot be told."""
    index = item.get("correct_index")
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(options):
        return index
    if isinstance(index, str):
        text = index.strip()
        if text.isdigit() and int(text) < len(options):
            found: int | None = int(text)
        elif len(text) == 1 and text.upper() in "ABCDEFGH"[: len(options)]:
            found = "ABCDEFGH".index(text.upper())
        else:
            found = next((i for i, o in enumerate(options) if o.strip().casefold() == text.casefold()), None)
        if found is not None:
            report.repaired["answer given as text"] += 1
        return found
    explanation = str(item.get("explanation", "")).casefold()
    named = [i for i, o in enumerate(options) if o.strip() and o.strip().casefold() in explanation]
    if isinstance(index, int) and len(named) == 1:
        report.repaired["answer index past the options"] += 1
        return named[0]
    return None


def _dedupe(options: list[str], correct: int | None, report: Report) -> tuple[list[str], int | None]:
    kept: list[str] = []
    where: dict[str, int] = {}
    new_correct = correct
    for i, option in enumerate(options):
        key = option.strip().casefold()
        if key in where:
            if i == correct:
                new_correct = where[key]
            continue
        where[key] = len(kept)
        if i == correct:
            new_correct = len(kept)
        kept.append(option.strip())
    if len(kept) < len(options):
        report.repaired["repeated option removed"] += 1
    return kept, new_correct


def _drop_surplus(options: list[str], correct: int | None, report: Report) -> tuple[list[str], int | None]:
    """Four options: the surplus wrong ones go from the end (the right one always stays)."""
    if len(options) <= MCQ_OPTIONS or correct is None:
        return options, correct
    keep = sorted([correct, *[i for i in range(len(options)) if i != correct][: MCQ_OPTIONS - 1]])
    report.repaired["surplus option removed"] += 1
    return [options[i] for i in keep], keep.index(correct)


def clamp(value: Any, low: int, high: int, what: str, report: Report) -> Any:
    """A number brought into [low, high] (an estimate of minutes, say): a mechanical fix, counted."""
    if isinstance(value, int | float) and not isinstance(value, bool) and not low <= value <= high:
        report.repaired[f"{what} brought into {low}–{high}"] += 1
        return min(high, max(low, int(value)))
    return value


def cut(values: Any, most: int, what: str, report: Report) -> Any:
    """A list cut to its first `most` entries (surplus objectives, branches): counted."""
    if isinstance(values, list) and len(values) > most:
        report.repaired[f"surplus {what} removed"] += 1
        return values[:most]
    return values
