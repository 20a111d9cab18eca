"""Mechanical repairs of loosely filled schemas: what can be fixed without changing what an item says is
fixed and counted; anything else is left for the validator to refuse. And the quiz schema states the
validator's rules, so a model filling it exactly passes."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from backend.study.quizzes import QuizItem, quiz_schema
from backend.study.repairs import Report, clamp, cut, repair_question
from backend.study.workshops import repair_outline


def question(options: list[str], correct: Any, explanation: str = "Because it is so.") -> dict[str, Any]:
    return {"type": "mcq", "question": "Which one is right?", "options": options, "correct_index": correct,
            "explanation": explanation}


def fixed(raw: dict[str, Any]) -> tuple[QuizItem, Report]:
    report = Report()
    return QuizItem.model_validate(repair_question(raw, report)), report


def test_a_repeated_option_goes_and_the_answer_moves_with_it() -> None:
    item, report = fixed(question(["A", "B", "a", "C", "D"], 2))
    assert item.options == ["A", "B", "C", "D"]
    assert item.options[item.correct_index] == "A"
    assert report.repaired == {"repeated option removed": 1}


def test_a_surplus_option_goes_but_never_the_right_one() -> None:
    item, report = fixed(question(["A", "B", "C", "D", "E"], 4))
    assert len(item.options) == 4
    assert item.options[item.correct_index] == "E"
    assert report.repaired == {"surplus option removed": 1}


@pytest.mark.parametrize(("correct", "explanation", "right"), [
    (4, "Mitochondria make ATP, as the notes say.", "Mitochondria"),  # past the options: the one named
    ("C", "They make ATP.", "Mitochondria"),
    ("mitochondria", "They make ATP.", "Mitochondria"),
    ("2", "They make ATP.", "Mitochondria"),
])
def test_the_answer_is_found_where_it_is_unambiguous(correct: Any, explanation: str, right: str) -> None:
    item, report = fixed(question(["Ribosomes", "Nucleus", "Mitochondria", "Golgi"], correct, explanation))
    assert item.options[item.correct_index] == right
    assert sum(report.repaired.values()) == 1


@pytest.mark.parametrize("raw", [
    question(["A", "B", "C"], 0),  # three options: nothing to add them from
    question(["Ribosomes", "Nucleus", "Mitochondria", "Golgi"], 7, "Either the nucleus or the golgi."),
    question(["A", "A", "B", "C"], 0),  # four given, three distinct
])
def test_what_cannot_be_fixed_mechanically_is_refused(raw: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        fixed(raw)


def test_a_type_spelled_otherwise_is_read() -> None:
    item, report = fixed({**question(["A", "B", "C", "D"], 1), "type": "Multiple_Choice"})
    assert item.type == "mcq"
    assert report.repaired == {"type spelled differently": 1}


def test_outline_minutes_are_clamped_and_surplus_cut() -> None:
    report = Report()
    lessons = [{"title": "L", "estimated_minutes": m, "summary": "s"} for m in (0, 500, 15, 20)]
    outline = repair_outline({"objectives": ["o"] * 10, "key_points": ["k"], "lessons": lessons}, 3, report)
    assert [lesson["estimated_minutes"] for lesson in outline["lessons"]] == [5, 90, 15]
    assert len(outline["objectives"]) == 8
    assert report.repaired == {"surplus objectives removed": 1, "surplus lessons removed": 1,
                               "minutes brought into 5–90": 2}
    assert clamp(True, 5, 90, "x", report) is True  # not a number
    assert cut("not a list", 3, "x", report) == "not a list"


def test_the_quiz_schema_states_the_validators_rules() -> None:
    mcq = quiz_schema(["mcq"])["properties"]["questions"]["items"]
    options = mcq["properties"]["options"]
    assert (options["minItems"], options["maxItems"], options["uniqueItems"]) == (4, 4, True)
    index = mcq["properties"]["correct_index"]
    assert (index["minimum"], index["maximum"]) == (0, 3)
    assert set(mcq["required"]) >= {"type", "question", "options", "correct_index", "explanation"}
    both = quiz_schema(["mcq", "true_false"])["properties"]["questions"]["items"]["anyOf"]
    true_false = both[1]["properties"]
    assert true_false["options"]["items"]["enum"] == ["True", "False"]
    assert true_false["correct_index"]["maximum"] == 1
