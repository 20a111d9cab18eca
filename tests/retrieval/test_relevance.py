"""Coverage, the relevance signal: the share of a question's weight a passage contains, the same with and
without vectors, sensible in a one-document vault, not fooled by one shared common word."""

from __future__ import annotations

import numpy as np

from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.relevance import RELEVANT_COVERAGE
from backend.retrieval.types import IndexedBlock

TEXTS = {
    "wing": "The pressure distribution over a swept wing changes with the Mach number at supersonic speed.",
    "bread": "Sourdough bread needs flour, water, salt and a lively starter; bake it in a hot oven.",
    "cells": "Mitochondria produce most of the cell's ATP through oxidative phosphorylation.",
}


def index_of(texts: dict[str, str], vectors: bool = False) -> HybridIndex:
    index = HybridIndex()
    rng = np.random.default_rng(0)
    index.replace_documents({
        doc: [IndexedBlock(id=doc, document_id=doc, filename=f"{doc}.txt", category=None, ordinal=0, page=None,
                           section=None, kind="text", text=text,
                           embedding=rng.normal(size=8).astype(np.float32) if vectors else None)]
        for doc, text in texts.items()
    })
    return index


def best(index: HybridIndex, question: str, vector: np.ndarray | None = None) -> tuple[str, float]:
    hits = index.search(question, 7, query_vector=vector)
    top = max(hits, key=lambda h: h.relevance)
    return top.document_id, top.relevance


def test_on_topic_questions_pass_and_off_topic_ones_do_not() -> None:
    index = index_of(TEXTS)
    doc, score = best(index, "What is the pressure on a swept wing at supersonic speed?")
    assert doc == "wing"
    assert score > 0.95  # every word is there; a passage longer than average is discounted a little
    assert best(index, "How do I bake sourdough bread?")[1] >= RELEVANT_COVERAGE
    # One shared word is not enough: "pressure" is in the wing passage, bicycles and tyres nowhere.
    doc, score = best(index, "How much pressure should I put in my bicycle tires?")
    assert doc == "wing"
    assert score < RELEVANT_COVERAGE
    assert index.search("Who won the 2018 World Cup?", 7) == []  # nothing shares a word


def test_the_score_is_the_same_with_and_without_vectors() -> None:
    index = index_of(TEXTS, vectors=True)
    vector = np.ones(8, dtype=np.float32)
    for question in ("How do I bake sourdough bread?", "How much pressure should I put in my bicycle tires?"):
        with_vectors = {h.block_id: h.relevance for h in index.search(question, 7, query_vector=vector)}
        keyword_only = {h.block_id: h.relevance for h in index.search(question, 7)}
        assert all(with_vectors[b] == score for b, score in keyword_only.items())
    # A dense-only hit (no shared word) is found but not relevant.
    hits = index.search("Who won the 2018 World Cup?", 7, query_vector=vector)
    assert hits
    assert not any(h.relevant for h in hits)


def test_a_one_passage_vault_still_tells_covered_from_not() -> None:
    index = index_of({"cells": TEXTS["cells"]})
    assert best(index, "Which organelle produces ATP? Mitochondria?")[1] >= RELEVANT_COVERAGE
    assert best(index, "What does the cell's kitchen cook for dinner tonight?")[1] < RELEVANT_COVERAGE


def test_stop_words_of_a_short_question_do_not_count_against_it() -> None:
    # Too short to tell its language: neither "what", "is", "the" (English) nor "die" (German) may count.
    index = index_of(TEXTS)
    assert best(index, "what is the mitochondria")[1] == 1.0
