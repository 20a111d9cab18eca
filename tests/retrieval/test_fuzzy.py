"""The vault's words a typo away (backend/retrieval/fuzzy.py): every kind of one-edit typo of a word of five
letters or more found, two edits only in long words, never for short words or numbers, nothing lost across
batches, and corrections chosen among live words at the fewest edits, the most frequent first. The fuzzy
channel in a search (backend/retrieval/pipeline.py): a misspelt word finds its passage, a query of words the
vault holds ranks exactly as without the channel, a word removed from the vault is no correction."""

from __future__ import annotations

import numpy as np
import pytest

from backend.retrieval.fuzzy import MAX_CORRECTIONS, FuzzyVocabulary, corrections, max_edits
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.types import IndexedBlock

WORDS = ["regelstudienzeit", "austria", "australian", "ownership", "borrow", "bread", "break", "broad", "dread",
         "prufungsordnung", "2018", "q3", "studium", "studien", "anana"]


@pytest.fixture(scope="module")
def vocabulary() -> FuzzyVocabulary:
    vocab = FuzzyVocabulary()
    vocab.add(WORDS)
    return vocab


@pytest.mark.parametrize("typo", ["ownrship", "owneership", "onwership", "ownersjip"])  # drop, double, swap, key
def test_each_kind_of_one_edit_typo_finds_the_word(vocabulary: FuzzyVocabulary, typo: str) -> None:
    assert vocabulary.similar(typo) == [("ownership", 1)]


def test_long_words_tolerate_two_edits_shorter_ones_one(vocabulary: FuzzyVocabulary) -> None:
    assert vocabulary.similar("regelstudienzet") == [("regelstudienzeit", 1)]
    assert vocabulary.similar("regelstudiezet") == [("regelstudienzeit", 2)]
    assert vocabulary.similar("prufungsordng") == [("prufungsordnung", 2)]
    # Two edits between words of ordinary length join different words: not tolerated.
    assert vocabulary.similar("australia") == [("australian", 1)]
    assert vocabulary.similar("austrian") == [("austria", 1)]
    assert vocabulary.similar("austrlia") == [("austria", 1)]  # a typo that is one edit from both is ambiguous
    assert max_edits("australian") == 1


def test_short_words_numbers_and_identifiers_are_never_corrected(vocabulary: FuzzyVocabulary) -> None:
    assert max_edits("brea") == 0
    assert vocabulary.similar("brea") == []  # four letters: too many neighbours
    assert vocabulary.similar("2019") == []
    assert vocabulary.similar("q4") == []
    # Only alphabetic terms are kept; a four-letter stem is, as a correction of a five-letter word.
    vocab = FuzzyVocabulary()
    assert vocab.add(["bra", "2019", "x-ray", "valu"]) == 1
    assert vocab.similar("valeu") == [("valu", 1)]
    assert vocab.similar("vale") == []


def test_a_word_is_not_its_own_correction_and_neighbours_come_nearest_first(vocabulary: FuzzyVocabulary) -> None:
    assert vocabulary.similar("bread") == [("break", 1), ("broad", 1), ("dread", 1)]
    assert [term for term, _ in vocabulary.similar("studiem")] == ["studien", "studium"]


def test_terms_added_in_many_batches_are_all_found() -> None:
    rng = np.random.default_rng(3)
    words = sorted({"".join(rng.choice(list("abcdefghij"), size=8)) for _ in range(3000)})
    vocab = FuzzyVocabulary()
    for i in range(0, len(words), 37):
        vocab.add(words[i:i + 37])
    assert len(vocab) == len(words)
    for word in words[::50]:
        typo = word[:3] + word[4] + word[3] + word[5:] if word[3] != word[4] else word[:3] + word[4:]
        assert word in {term for term, _ in vocab.similar(typo)}, (word, typo)


def test_corrections_are_live_words_at_the_fewest_edits_most_frequent_first() -> None:
    close = [("studien", 1), ("studium", 1), ("studiums", 2), ("studio", 1), ("studia", 1), ("studies", 1)]
    df = {"studien": 4, "studium": 9, "studiums": 50, "studia": 9, "studies": 1}  # "studio": no live block
    assert corrections(close, df) == ("studia", "studium", "studien")[:MAX_CORRECTIONS]
    assert corrections([("studiums", 2)], df) == ("studiums",)
    assert corrections([("studio", 1)], df) == ()


PASSAGES = {
    "ownership": "Each value in Rust has an owner. When the owner goes out of scope, the value is dropped.",
    "borrowing": "A reference borrows a value without taking ownership; the borrow checker enforces the rules.",
    "slices": "A string slice is a reference to part of a String, written with a range of indices.",
    "studium": "Die Regelstudienzeit bis zum ersten berufsqualifizierenden Abschluss beträgt höchstens vier Jahre.",
}


def _index(fuzzy: bool) -> HybridIndex:
    rng = np.random.default_rng(0)
    index = HybridIndex(fuzzy=fuzzy)
    index.replace_documents({doc: [IndexedBlock(id=doc, document_id=doc, filename=f"{doc}.md", category=None,
                                                ordinal=0, page=None, section=None, kind="text", text=text,
                                                embedding=rng.normal(size=8).astype(np.float32))]
                             for doc, text in PASSAGES.items()})
    return index


def _ranked(index: HybridIndex, query: str, vector: np.ndarray | None) -> list[tuple[str, float, bool]]:
    return [(h.block_id, h.score, h.relevant) for h in index.search(query, 4, query_vector=vector)]


def test_a_misspelt_word_finds_its_passage_through_the_channel() -> None:
    fuzzy, plain = _index(True), _index(False)
    for query, meant in (("regelstudienzet", "studium"), ("What are the borow rules?", "borrowing"),
                         ("When is the valeu dropped?", "ownership")):
        hits = fuzzy.search(query, 4)
        assert hits[0].block_id == meant, query
        assert hits[0].relevant, query
        assert not any(h.relevant for h in plain.search(query, 4)), query  # the unknown word vetoes them
    assert plain.search("regelstudienzet", 4) == []  # no word in common: BM25 alone finds nothing


def test_a_query_of_words_the_vault_holds_ranks_as_it_does_without_the_channel() -> None:
    fuzzy, plain = _index(True), _index(False)
    vector = np.ones(8, dtype=np.float32)
    for query in ("When is a value dropped?", "string slice range", "Regelstudienzeit Abschluss",
                  "capital of Australia"):  # the last: unknown words with no word a typo away
        for v in (None, vector):
            assert _ranked(fuzzy, query, v) == _ranked(plain, query, v), query


def test_a_word_no_live_block_holds_is_no_correction() -> None:
    index = _index(True)
    assert index.search("regelstudienzet", 4)[0].block_id == "studium"
    index.replace_documents({"studium": []})
    assert index.search("regelstudienzet", 4) == []  # the vocabulary keeps the term; no live block holds it


def test_a_tie_in_the_fused_ranks_puts_the_passage_judged_relevant_first() -> None:
    index = HybridIndex(fuzzy=True)
    vectors = {"ownership": np.eye(8, dtype=np.float32)[0], "borrowing": np.eye(8, dtype=np.float32)[1],
               "slices": np.eye(8, dtype=np.float32)[2], "studium": None}  # its vector has not come yet
    index.replace_documents({doc: [IndexedBlock(id=doc, document_id=doc, filename=f"{doc}.md", category=None,
                                                ordinal=0, page=None, section=None, kind="text", text=text,
                                                embedding=vectors[doc])] for doc, text in PASSAGES.items()})
    hits = index.search("regelstudienzet", 4, query_vector=vectors["ownership"])
    # First in the dense list and first in the typo channel: one fused score, the relevant passage first.
    assert [h.block_id for h in hits[:2]] == ["studium", "ownership"]
    assert (hits[0].dense_rank, hits[1].dense_rank) == (None, 1)
    assert hits[0].score == hits[1].score
    assert (hits[0].relevant, hits[1].relevant) == (True, False)
