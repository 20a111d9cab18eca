"""The shared generation pipeline against the fake model: schema and temperature sent, tolerant parsing,
per-item validation, cutting to count, grounding ids, the outline retry, Markdown cleaning."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from backend.llm.client import LLMClient
from backend.llm.prompts import PromptLibrary
from backend.study.flashcards import CardBatch, CardItem
from backend.study.generation import (
    GenerationFailed,
    clean_markdown,
    generate_items,
    generate_markdown,
    generate_object,
    item_list,
    json_schema,
    loads_lenient,
    resolve_ids,
    with_count,
)
from backend.study.mindmaps import MapOfThree, short_label
from backend.study.passages import Passage, render
from backend.study.quizzes import QuizBatch, QuizItem
from backend.study.repairs import Report
from backend.study.workshops import Outline
from tests.support.fake_ollama import FakeOllama, Reply

PASSAGES = [
    Passage("P1", "11111111-1111-1111-1111-111111111111", "d1", "lecture-3.pdf", 12, None,
            "Photosynthesis turns light energy into chemical energy in the chloroplasts."),
    Passage("P2", "22222222-2222-2222-2222-222222222222", "d2", "notes.md", None, "Cells",
            "Mitochondria release energy from glucose through cellular respiration."),
]


def mcq(question: str, ids: list[str] | None = None) -> dict:
    return {"type": "mcq", "question": question, "options": ["A", "B", "C", "D"], "correct_index": 2,
            "explanation": "Because the material says so.", "source_block_ids": ids or []}


# -- parsing -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    '{"questions": [{"a": 1}]}',
    '[{"a": 1}]',
    'Sure! Here are your questions:\n```json\n{"questions": [{"a": 1},]}\n```\nGood luck!',
    'Here you go: [{"a": 1,},] hope that helps',
    '```\n[{"a": 1}]\n```',
    'As noted [1], here they are: {"questions": [{"a": 1}]}',
])
def test_lenient_parse_finds_the_items(text: str) -> None:
    assert item_list(loads_lenient(text), "questions") == [{"a": 1}]


def test_other_wrapper_keys_and_single_objects_are_unwrapped() -> None:
    assert item_list({"items": [{"a": 1}, {"a": 2}]}, "questions") == [{"a": 1}, {"a": 2}]
    assert item_list({"front": "x", "back": "y"}, "cards") == [{"front": "x", "back": "y"}]
    assert item_list({"cards": {"front": "x", "back": "y"}}, "cards") == [{"front": "x", "back": "y"}]


@pytest.mark.parametrize("text", ["", "I cannot help with that.", "{not json at all", "]["])
def test_garbage_is_not_json(text: str) -> None:
    with pytest.raises(ValueError, match="no JSON"):
        loads_lenient(text)


def test_ids_resolve_by_key_number_or_block_id_and_unknown_ones_are_dropped() -> None:
    found = resolve_ids(["P2", "1", "[P1]", "P9", "bogus", PASSAGES[1].block_id.upper()], PASSAGES)
    assert [p.key for p in found] == ["P2", "P1"]


# -- item validation -----------------------------------------------------------------------------------
def test_quiz_items_are_validated_one_by_one() -> None:
    assert QuizItem.model_validate(mcq("What is the powerhouse of the cell?")).options == ["A", "B", "C", "D"]
    for bad in ({**mcq("Three options only?"), "options": ["A", "B", "C"]},
                {**mcq("Duplicate options?"), "options": ["A", "A", "B", "C"]},
                {**mcq("Index out of range?"), "correct_index": 4},
                {**mcq("No explanation?"), "explanation": ""},
                {"type": "true_false", "question": "Maybe or perhaps?", "options": ["Maybe", "Perhaps"],
                 "correct_index": 0, "explanation": "Nope."}):
        with pytest.raises(ValidationError):
            QuizItem.model_validate(bad)


def test_true_false_options_are_normalised() -> None:
    reversed_ = QuizItem.model_validate({"type": "true_false", "question": "The sky is green.",
                                         "options": ["false", "true"], "correct_index": 0, "explanation": "Blue."})
    assert (reversed_.options, reversed_.correct_index) == (["True", "False"], 1)
    missing = QuizItem.model_validate({"type": "true_false", "question": "Water is wet.", "correct_index": 0,
                                       "explanation": "It is."})
    assert missing.options == ["True", "False"]


# -- the model call ------------------------------------------------------------------------------------
def test_items_call_sends_schema_and_low_temperature_and_keeps_grounding(llm: LLMClient, prompts: PromptLibrary,
                                                                         fake_ollama: FakeOllama) -> None:
    reply = {"questions": [mcq("Where does photosynthesis happen?", ["P1", "P7"]),
                           {**mcq("Broken?"), "options": ["only one"]},
                           mcq("What do mitochondria release?"),
                           mcq("Where does photosynthesis happen?", ["P1"]),  # a repeat
                           mcq("Extra question beyond the count?", ["P2"])]}
    fake_ollama.script(Reply(content=json.dumps(reply)))
    prompt = prompts.render("quiz", passages=render(PASSAGES), count=2, difficulty="beginner", types="mcq",
                                focus="the material")
    report = Report()
    items = generate_items(llm, prompt, QuizItem, QuizBatch, "questions", 2, PASSAGES, report)
    request = fake_ollama.chat_requests[0]
    assert request["format"] == with_count(json_schema(QuizBatch), "questions", 2)
    assert request["format"]["properties"]["questions"]["minItems"] == 2
    assert request["options"]["temperature"] <= 0.3
    assert request["options"]["num_ctx"] == 12_288  # the model's context, as every chat call names it
    assert (report.asked, report.kept, report.reasked) == (2, 2, 0)
    assert report.dropped["a repeat"] == 1
    assert "lecture-3.pdf, p. 12" in request["messages"][0]["content"]
    assert [g.item.question for g in items] == ["Where does photosynthesis happen?", "What do mitochondria release?"]
    assert [s["filename"] for s in items[0].sources] == ["lecture-3.pdf"]  # unknown P7 dropped
    # no id given: grounded on the passage it shares terms with
    assert [s["block_id"] for s in items[1].sources] == [PASSAGES[1].block_id]
    assert items[1].sources[0] == {"block_id": PASSAGES[1].block_id, "document_id": "d2",
                                   "filename": "notes.md", "page": None}


def test_items_call_with_garbage_or_nothing_valid_fails_clearly(llm: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(content="Sorry, I can't do that."), Reply(content='{"cards": [{"front": "x"}]}'))
    report = Report()
    with pytest.raises(GenerationFailed) as failure:
        generate_items(llm, "Cards please.", CardItem, CardBatch, "cards", 10, PASSAGES, report)
    assert failure.value.code == "generation_failed"
    # Asked once more, for all ten, saying what was wrong; then given up.
    assert len(fake_ollama.chat_requests) == 2
    assert "Write exactly 10 more cards" in fake_ollama.chat_requests[1]["messages"][-1]["content"]
    assert (report.asked, report.kept, report.reasked) == (10, 0, 10)
    assert report.dropped["not the JSON asked for"] == 1


def outline_prompt(prompts: PromptLibrary, lessons: int) -> str:
    return prompts.render("workshop_outline", passages=render(PASSAGES), lessons=lessons, difficulty="beginner")


def outline(lessons: int) -> dict:
    return {"title": "Energy in cells", "summary": "How cells capture and release energy.",
            "objectives": ["Explain photosynthesis"], "key_points": ["Chloroplasts", "Mitochondria"],
            "lessons": [{"title": f"Lesson {i}", "estimated_minutes": 15, "summary": "A lesson about energy."}
                        for i in range(lessons)], "source_block_ids": ["P1"]}


def test_outline_is_retried_once_with_a_stricter_reminder(
        llm: LLMClient, prompts: PromptLibrary, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(content='{"title": "Energy"}'), Reply(content=json.dumps(outline(3))))
    result = generate_object(llm, outline_prompt(prompts, 3), Outline, "workshop outline", Report())
    assert len(result.lessons) == 3
    second = fake_ollama.chat_requests[1]["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert "could not be used" in second[-1]["content"]
    assert "summary" in second[-1]["content"]


def test_outline_failing_twice_is_a_clear_error(
        llm: LLMClient, prompts: PromptLibrary, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(content=json.dumps(outline(2))), Reply(content="no"))
    with pytest.raises(GenerationFailed, match="workshop outline after a retry"):
        generate_object(llm, outline_prompt(prompts, 3), Outline, "workshop outline", Report())
    assert len(fake_ollama.chat_requests) == 2


def test_check_rejections_also_trigger_the_retry(
        llm: LLMClient, prompts: PromptLibrary, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(content=json.dumps(outline(3))), Reply(content=json.dumps(outline(5))))
    result = generate_object(llm, outline_prompt(prompts, 5), Outline, "workshop outline", Report(),
                             check=lambda o: None if len(o.lessons) >= 5 else "too few lessons")
    assert len(result.lessons) == 5
    assert "too few lessons" in fake_ollama.chat_requests[1]["messages"][-1]["content"]


def test_mind_map_schema_is_fixed_depth_and_labels_are_cut() -> None:
    schema = json.dumps(json_schema(MapOfThree))
    assert "$ref" not in schema
    assert "$defs" not in schema
    long = "A very long label that goes on and on about the many functions of mitochondria in cells"
    assert len(short_label(long)) <= 60
    assert short_label(long).endswith("…")
    assert short_label("  Short   label ") == "Short label"


def test_markdown_is_cleaned_of_chatter() -> None:
    text = ("Sure! Here is the lesson you asked for:\n\n## Introduction\nHello.\n\n## Self-check\n1. Why?\n"
            "**Answer:** Because.\n\nLet me know if you want another lesson!\n\nHappy studying!")
    cleaned = clean_markdown(text)
    assert cleaned.startswith("## Introduction")
    assert cleaned.endswith("**Answer:** Because.")
    assert clean_markdown("```markdown\n## Introduction\nBody text\n```") == "## Introduction\nBody text"


SECTIONS = ("Introduction", "Core content", "Key takeaways", "Self-check")


def test_a_lesson_missing_sections_is_asked_for_once_more_then_the_fuller_answer_kept(
        llm: LLMClient, fake_ollama: FakeOllama) -> None:
    partial = "## Introduction\nWhy it matters.\n\n## Core content\nThe substance of the lesson."
    fuller = partial + "\n\n## Key takeaways\n- One point."
    fake_ollama.script(Reply(content=partial), Reply(content=fuller))
    assert generate_markdown(llm, "Write the lesson.", SECTIONS) == fuller  # still short of a self-check
    reminder = fake_ollama.chat_requests[1]["messages"][-1]["content"]
    assert '"## Key takeaways", "## Self-check"' in reminder

    # A worse second answer does not replace a better first one; a complete first answer is not retried.
    fake_ollama.script(Reply(content=fuller), Reply(content="## Introduction\nOnly the beginning, again."))
    assert generate_markdown(llm, "Write the lesson.", SECTIONS) == fuller
    complete = (fuller.replace("## Introduction", "## Introduction: why")
                + "\n\n### Self check\n1. Why?\n**Answer:** Because.")
    before = len(fake_ollama.chat_requests)
    fake_ollama.script(Reply(content=complete))
    assert generate_markdown(llm, "Write the lesson.", SECTIONS) == complete
    assert len(fake_ollama.chat_requests) == before + 1


def test_an_empty_lesson_fails_after_the_retry(llm: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(content="Sure!"), Reply(content="   "))
    with pytest.raises(GenerationFailed):
        generate_markdown(llm, "Write the lesson.", SECTIONS)
