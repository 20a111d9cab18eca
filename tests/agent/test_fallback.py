"""The model-down answer presents the passages found, numbered like their citations."""

from __future__ import annotations

from backend.agent.citations import Citation, Source
from backend.agent.fallback import present


def citation(n: int, snippet: str, page: int | None = None, relevant: bool = True) -> Citation:
    return Citation(n, Source(block_id=f"b{n}", document_id="d", filename="bio.pdf", page=page, section=None,
                              snippet=snippet, score=0.1, text=snippet, relevant=relevant))


def test_passages_are_listed_with_their_numbers() -> None:
    text = present([citation(1, "Mitochondria make ATP.", page=3), citation(2, "word " * 100)], None)
    assert text.startswith("The model isn't available, but these passages match your question:\n\n")
    assert "[1] **bio.pdf, page 3**: “Mitochondria make ATP.”" in text
    second = text.split("[2] ", 1)[1]
    assert second.endswith("…”")
    assert len(second) < 260


def test_no_passages_and_degraded_search_are_said_plainly() -> None:
    text = present([], "Keyword search only: the embedding model is unavailable.")
    assert text == ("The model isn't available, and nothing in your documents covers your question.\n\n"
                    "_Keyword search only: the embedding model is unavailable._")


def test_passages_too_weak_to_answer_from_are_not_presented_as_matches() -> None:
    text = present([citation(1, "Bread needs flour.", relevant=False), citation(2, "Cells divide.")], None)
    assert "[2] **bio.pdf**" in text
    assert "[1]" not in text
    assert present([citation(1, "Bread needs flour.", relevant=False)], None) == (
        "The model isn't available, and nothing in your documents covers your question.")


def test_markdown_heading_markers_are_left_out_of_the_quotes() -> None:
    text = present([citation(1, "# Exam notes The exam has three stations. ## Grading Pass with C# at #1.")], None)
    assert "“Exam notes The exam has three stations. Grading Pass with C# at #1.”" in text
