"""The chunker: sizes, boundaries, overlap, merging rules, atomic units, determinism, nothing dropped."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.ingest.chunk import chunk_units
from backend.ingest.types import Chunk, ExtractedUnit

WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda")


def sentence(n: int, length: int = 12) -> str:
    return " ".join(WORDS[(n + i) % len(WORDS)] for i in range(length)).capitalize() + f" s{n}."


def paragraph(start: int, sentences: int) -> str:
    return " ".join(sentence(start + i) for i in range(sentences))


def test_small_units_of_one_page_and_section_are_merged() -> None:
    units = [ExtractedUnit(f"Paragraph {n}.", page=1, section="A") for n in range(5)]
    chunks = chunk_units(units, chunk_size=1000, overlap=100)
    assert chunks == [Chunk(0, "\n\n".join(f"Paragraph {n}." for n in range(5)), "text", 1, "A")]


def test_chunks_never_span_pages_sections_or_kinds() -> None:
    units = [
        ExtractedUnit("Page one text.", page=1),
        ExtractedUnit("Page two text.", page=2),
        ExtractedUnit("Other section.", page=2, section="B"),
        ExtractedUnit("Scanned words.", kind="ocr", page=2, section="B"),
    ]
    chunks = chunk_units(units)
    assert [(chunk.text, chunk.page, chunk.section, chunk.kind) for chunk in chunks] == [
        ("Page one text.", 1, None, "text"),
        ("Page two text.", 2, None, "text"),
        ("Other section.", 2, "B", "text"),
        ("Scanned words.", 2, "B", "ocr"),
    ]
    assert [chunk.ordinal for chunk in chunks] == [0, 1, 2, 3]


def test_paragraph_break_wins_when_it_leaves_the_chunk_nearly_full() -> None:
    paragraphs = [paragraph(n * 10, 4) for n in range(6)]  # ~300 characters each
    chunks = chunk_units([ExtractedUnit("\n\n".join(paragraphs))], chunk_size=620, overlap=0)
    assert [chunk.text for chunk in chunks] == ["\n\n".join(paragraphs[i : i + 2]) for i in (0, 2, 4)]


def test_sentence_end_wins_over_a_half_empty_chunk() -> None:
    paragraphs = [paragraph(n * 10, 7) for n in range(6)]  # ~520 characters each
    text = "\n\n".join(paragraphs)
    chunks = chunk_units([ExtractedUnit(text)], chunk_size=1000, overlap=0)
    assert len(chunks) == 4
    for chunk in chunks[:-1]:
        assert 800 <= len(chunk.text) <= 1000
        assert re.search(r"s\d+\.$", chunk.text)
    assert "\n\n".join(chunk.text for chunk in chunks).split() == text.split()


def test_long_paragraph_splits_at_sentences_not_mid_word() -> None:
    text = paragraph(0, 40)
    chunks = chunk_units([ExtractedUnit(text)], chunk_size=300, overlap=0)
    assert all(len(chunk.text) <= 300 for chunk in chunks[:-1])
    for chunk in chunks[:-1]:
        assert re.search(r"s\d+\.$", chunk.text), chunk.text[-30:]
    assert " ".join(chunk.text for chunk in chunks).split() == text.split()


def test_sentence_longer_than_a_chunk_splits_at_words() -> None:
    text = " ".join(f"word{n}" for n in range(300))
    chunks = chunk_units([ExtractedUnit(text)], chunk_size=200, overlap=0)
    assert all(len(chunk.text) <= 240 for chunk in chunks)
    assert " ".join(chunk.text for chunk in chunks).split() == text.split()


def test_overlong_token_is_cut() -> None:
    token = "x" * 2500
    chunks = chunk_units([ExtractedUnit(f"start {token} end")], chunk_size=1000, overlap=100)
    assert all(len(chunk.text) <= 1200 for chunk in chunks)
    # No whole word fits in the overlap window inside the token, so nothing is repeated.
    assert "".join(chunk.text for chunk in chunks).replace(" ", "") == f"start{token}end"


def test_overlap_carries_whole_words_from_the_previous_chunk() -> None:
    text = paragraph(0, 30)
    chunks = chunk_units([ExtractedUnit(text)], chunk_size=400, overlap=80)
    assert len(chunks) >= 3
    for previous, current in itertools.pairwise(chunks):
        head = current.text.split()[0]
        carried = current.text[: current.text.index(head) + len(head)]
        assert carried in previous.text
        shared = _longest_prefix_in(previous.text, current.text)
        assert 0 < len(shared) <= 80
        assert previous.text.endswith(shared)
        assert len(previous.text) <= 400
    assert len(chunks[-1].text) <= 400 * 1.2


def _longest_prefix_in(previous: str, current: str) -> str:
    for end in range(len(current), 0, -1):
        if previous.endswith(current[:end]):
            return current[:end]
    return ""


def test_short_tail_is_merged_into_the_previous_chunk() -> None:
    text = "A" * 10 + " " + " ".join(["word"] * 210)  # ~1060 characters
    chunks = chunk_units([ExtractedUnit(text)], chunk_size=1000, overlap=100)
    assert len(chunks) == 1
    assert chunks[0].text == text


def test_tail_of_reasonable_size_stays_its_own_chunk() -> None:
    text = " ".join(["word"] * 300)  # 1499 characters
    assert len(chunk_units([ExtractedUnit(text)], chunk_size=1000, overlap=100)) == 2


def test_atomic_units_are_never_merged() -> None:
    units = [
        ExtractedUnit("Intro text.", section="S"),
        ExtractedUnit("| a | b |\n| 1 | 2 |", kind="table", section="S", atomic=True),
        ExtractedUnit("| a | b |\n| 3 | 4 |", kind="table", section="S", atomic=True),
        ExtractedUnit("Outro text.", section="S"),
    ]
    assert [chunk.text for chunk in chunk_units(units)] == [
        "Intro text.",
        "| a | b |\n| 1 | 2 |",
        "| a | b |\n| 3 | 4 |",
        "Outro text.",
    ]


def test_oversized_atomic_unit_splits_at_lines_repeating_its_header() -> None:
    head = ["[Sheet: Budget]", "| Item | Cost |"]
    rows = [f"| item number {n} | {n * 100} |" for n in range(40)]
    text = "\n".join(head + rows)
    unit = ExtractedUnit(text, kind="sheet", section="Sheet: Budget", atomic=True, header_lines=2)
    chunks = chunk_units([unit], chunk_size=300, overlap=50)
    assert len(chunks) > 2
    seen: list[str] = []
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert lines[:2] == head
        assert len(chunk.text) <= 300 * 1.2 + len("\n".join(head))
        seen.extend(lines[2:])
        assert (chunk.kind, chunk.section) == ("sheet", "Sheet: Budget")
    assert seen == rows


def test_empty_and_whitespace_units_are_dropped() -> None:
    assert chunk_units([ExtractedUnit("   \n\n "), ExtractedUnit("")]) == []


@pytest.mark.parametrize(("size", "overlap"), [(0, 0), (100, 100), (100, -1)])
def test_bad_parameters(size: int, overlap: int) -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        chunk_units([ExtractedUnit("x")], chunk_size=size, overlap=overlap)


# ---------------------------------------------------------------- properties

word = st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüß0123456789.,!?;:|-", min_size=1, max_size=25)
separator = st.sampled_from([" ", " ", " ", "\n", "\n\n", ". ", "  \t"])


@st.composite
def unit_texts(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.tuples(word, separator), min_size=8, max_size=150))
    return "".join(w + s for w, s in parts)


units_strategy = st.lists(
    st.builds(
        ExtractedUnit,
        text=unit_texts(),
        kind=st.sampled_from(["text", "table", "ocr"]),
        page=st.sampled_from([None, 1, 2]),
        section=st.sampled_from([None, "A", "A > B"]),
        atomic=st.booleans(),
        header_lines=st.integers(min_value=0, max_value=2),
    ),
    max_size=8,
)


def numbered(units: list[ExtractedUnit]) -> list[ExtractedUnit]:
    """The same units with every word made unique (``word~7``), so a lost word cannot hide behind a twin."""
    counter = itertools.count()
    return [
        dataclasses.replace(unit, text=re.sub(r"\S+", lambda m: f"{m.group()}~{next(counter)}", unit.text))
        for unit in units
    ]


@settings(max_examples=200, deadline=None)
# Sizes stay above twice the longest numbered word (~32 characters), so no word is ever cut.
@given(units=units_strategy, size=st.integers(min_value=70, max_value=200), share=st.floats(0, 0.5))
def test_nothing_is_dropped_and_rules_hold(units: list[ExtractedUnit], size: int, share: float) -> None:
    units = numbered(units)
    overlap = int(size * share)
    chunks = chunk_units(units, chunk_size=size, overlap=overlap)
    assert [chunk.ordinal for chunk in chunks] == list(range(len(chunks)))
    assert chunks == chunk_units(units, chunk_size=size, overlap=overlap)
    keys = {(unit.page, unit.section, unit.kind) for unit in units}
    for chunk in chunks:
        assert chunk.text.strip()
        assert (chunk.page, chunk.section, chunk.kind) in keys
        assert len(chunk.text) <= size * 1.2 + size // 2 + 2
    for unit in units:
        key = (unit.page, unit.section, unit.kind)
        found = {token for c in chunks if (c.page, c.section, c.kind) == key for token in c.text.split()}
        missing = set(unit.text.split()) - found
        assert not missing


def test_chunks_carry_the_printed_page_label_and_never_join_across_labels() -> None:
    units = [ExtractedUnit("Front matter text.", page=1, page_label="i"),
             ExtractedUnit("Body text.", page=2, page_label="1"),
             ExtractedUnit("More body text.", page=2, page_label="1")]
    chunks = chunk_units(units, 1000, 100)
    assert [(c.page, c.page_label, c.text) for c in chunks] == [
        (1, "i", "Front matter text."), (2, "1", "Body text.\n\nMore body text.")]
