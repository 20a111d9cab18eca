"""The document-name channel in memory (backend/retrieval/names.py): a question word no block holds but a
document's name does brings that document's passages in; a word some block holds, a scope leaving the
document out, or the document gone leave the ranking as it was. Both search modes over a real server:
tests/retrieval/test_postgres_search.py."""

from __future__ import annotations

from backend.retrieval import pipeline
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.names import name_terms
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import IndexedBlock, Scope

QUESTION = "Which penguin species are in the data?"


def _block(block_id: str, document_id: str, filename: str, ordinal: int, text: str,
           category: str | None = None) -> IndexedBlock:
    return IndexedBlock(block_id, document_id, filename, category, ordinal, 1, None, "text", text)


def _index() -> HybridIndex:
    index = HybridIndex()
    index.replace_documents({
        "penguins": [_block("p1", "penguins", "palmer-penguins.csv", 0,
                            "species island bill_length_mm Adelie Torgersen 39.1 Adelie Dream 37.8", "zoo"),
                     _block("p2", "penguins", "palmer-penguins.csv", 1,
                            "species island Gentoo Biscoe 46.1 Chinstrap Dream 46.5", "zoo")],
        "fish": [_block("f1", "fish", "estuary-survey.md", 0,
                        "The survey counts 41 fish species in the estuary."),
                 _block("f2", "fish", "estuary-survey.md", 1,
                        "Eels migrate through the estuary each spring; their data are sparse.")],
        # A vault of some size: in one of four blocks even a word no block holds weighs little.
        "geology": [_block(f"g{i}", "geology", "geology-notes.md", i, f"Part {i}: glaciers carve valleys and "
                           "rivers deposit silt in deltas.") for i in range(16)],
    })
    return index


def _ids(hits: list) -> list[str]:
    return [h.block_id for h in hits]


def test_a_name_is_read_like_a_question_word() -> None:
    analyzer = Analyzer()
    assert {"penguin", "palmer"} <= name_terms(analyzer, "palmer-penguins.csv")
    assert "ubungsblatt" in name_terms(analyzer, "Übungsblatt_3.pdf")  # accents folded, separators split
    assert "csv" not in name_terms(analyzer, "palmer-penguins.csv")  # the extension is not part of the name


def test_a_word_only_a_name_holds_brings_that_documents_passages_first() -> None:
    index = _index()
    (named,) = pipeline.prepare(index.view(), QUESTION).named
    assert named.documents == (("penguins", "zoo"),)
    assert named.weight == index.keyword_statistics(["penguin"]).idf("penguin")  # a word no block holds
    hits = index.search(QUESTION, 4)
    assert {h.document_id for h in hits[:2]} == {"penguins"}, _ids(hits)
    assert all(h.relevant for h in hits[:2])
    # In the keyword channel each of its blocks holds "penguin" once: keyword-only search finds it first too.
    assert [h.document_id for h in index.search(QUESTION, 4, mode="sparse")[:2]] == ["penguins", "penguins"]


def test_a_word_some_block_holds_is_not_looked_up_among_names() -> None:
    index = _index()
    index.replace_documents({"notes": [_block("n1", "notes", "notes.md", 0, "A penguin colony on the ice.")]})
    assert pipeline.prepare(index.view(), QUESTION).named == ()


def test_a_scope_leaving_the_named_document_out_keeps_it_out() -> None:
    index = _index()
    scoped = index.search(QUESTION, 4, scope=Scope(document_ids=frozenset({"fish"})))
    assert {h.document_id for h in scoped} == {"fish"}
    by_category = index.search(QUESTION, 4, scope=Scope(categories=frozenset({"zoo"})))
    assert by_category[0].document_id == "penguins"


def test_a_removed_document_is_no_longer_named() -> None:
    index = _index()
    index.replace_documents({"penguins": []})
    assert pipeline.prepare(index.view(), QUESTION).named == ()
    assert {h.document_id for h in index.search(QUESTION, 4)} == {"fish"}


def test_a_question_of_nothing_but_names_gets_the_documents_as_they_begin() -> None:
    index = _index()
    index.replace_documents({"eels": [_block("e1", "eels", "eel-penguin-notes.md", 0, "Eels migrate to the Sargasso."),
                                      _block("e2", "eels", "eel-penguin-notes.md", 1, "Their larvae drift.")]})
    hits = index.search("penguins?", 4)
    # No other word to rank by: each named document's blocks in reading order, taking turns.
    assert _ids(hits) == ["e1", "p1", "e2", "p2"]
