"""The BM25 analyzer: identifiers kept whole, case/accent folding, stop words and stemming per language."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from backend.retrieval.tokenizer import Analyzer, AnalyzerOptions, fold_accents, raw_tokens

EN = "The results of the test are shown in the table and they were good."
DE = "Die Ergebnisse der Prüfung sind in der Tabelle und nicht im Anhang."


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("error 404B", "404b"),
        ("see §3 Absatz 2", "§3"),
        ("see § 3 Absatz 2", "§3"),
        ("in Q3 2024", "q3"),
        ("dates in ISO-8601 format", "iso-8601"),
        ("send an e-mail", "e-mail"),
        ("released v2.1 today", "v2.1"),
        ("written in C++ mostly", "c++"),
        ("and some C# too", "c#"),
        ("a speed of 3.5 km/h", "3.5"),
    ],
)
def test_identifiers_stay_whole(analyzer: Analyzer, text: str, expected: str) -> None:
    assert expected in analyzer.terms(text)


def test_compounds_also_yield_their_parts(analyzer: Analyzer) -> None:
    terms = analyzer.terms("The boundary-layer of the ISO-8601 e-mail is discussed in the report.")
    assert {"boundari-layer", "boundari", "layer", "iso-8601", "iso", "8601", "e-mail", "mail"} <= set(terms)
    assert "e" not in terms  # one-letter parts carry no meaning of their own


def test_numbers_and_dates_are_not_split(analyzer: Analyzer) -> None:
    terms = analyzer.terms("It was 3.5 on 2024-01-15 and 1,000 of them were there.")
    assert {"3.5", "2024-01-15", "1,000"} <= set(terms)
    assert "3" not in terms
    assert "2024" not in terms


def test_identifier_with_digits_is_never_stemmed_or_dropped(analyzer: Analyzer) -> None:
    assert analyzer.terms("models404s") == ["models404s"]


def test_nfkc_and_case_folding(analyzer: Analyzer) -> None:
    assert analyzer.terms("ＦＩＬＥ") == analyzer.terms("file")  # full-width letters
    assert raw_tokens("ﬁle") == ["file"]  # the fi ligature


@pytest.mark.parametrize(
    ("a", "b"),
    [("Prüfung", "Prufung"), ("Café", "cafe"), ("Straße", "Strasse"), ("Søren", "Soren"), ("İstanbul", "istanbul")],
)
def test_accent_folding_matches_plain_spelling(analyzer: Analyzer, a: str, b: str) -> None:
    assert analyzer.terms(a) == analyzer.terms(b)


def test_fold_accents_keeps_sharp_s_as_ss() -> None:
    assert fold_accents("äöü é ø æ") == "aou e o ae"
    assert Analyzer().terms("Maß") == Analyzer().terms("Mass")


def test_language_detection(analyzer: Analyzer) -> None:
    assert analyzer.detect_language(raw_tokens(EN)) == "en"
    assert analyzer.detect_language(raw_tokens(DE)) == "de"
    assert analyzer.detect_language(raw_tokens("Prüfungsordnung")) == "und"


def test_stop_words_dropped_for_the_detected_language(analyzer: Analyzer) -> None:
    en, de = analyzer.terms(EN), analyzer.terms(DE)
    assert "the" not in en
    assert "they" not in en
    assert "result" in en
    assert "die" not in de
    assert "und" not in de
    assert "nicht" not in de
    assert "ergebnis" in de


def test_undetermined_text_keeps_its_words(analyzer: Analyzer) -> None:
    # "was" is a stop word in both languages, but a two-word text gives no evidence: keep everything.
    assert "was" in analyzer.terms("was ist")


def test_german_stemming_joins_inflections(analyzer: Analyzer) -> None:
    doc = set(analyzer.terms("Die Prüfungen finden im Sommer statt und sind nicht öffentlich."))
    assert set(analyzer.terms("Prüfung")) & doc
    assert set(analyzer.terms("Prüfungen")) & doc


def test_german_compound_with_linking_s_yields_parts(analyzer: Analyzer) -> None:
    query = set(analyzer.terms("Prüfungsordnung"))
    assert {"prufung", "ordnung"} <= query
    doc = set(analyzer.terms("Die Prüfungen sind in der Ordnung geregelt, nicht in der Satzung."))
    assert query & doc
    # and the compound is found by its head word
    assert set(analyzer.terms("Prüfung")) & set(analyzer.terms("Die Prüfungsordnung ist neu und gilt ab jetzt."))


def test_english_stemming(analyzer: Analyzer) -> None:
    assert set(analyzer.terms("investigations of the layers")) == set(analyzer.terms("investigation of a layer"))


def test_options_switch_features_off() -> None:
    plain = Analyzer(AnalyzerOptions(stem=False, stopwords=False, compound_parts=False))
    assert plain.terms("The boundary-layers") == ["the", "boundary-layers"]


@pytest.mark.parametrize("text", [EN, DE, EN + " " + DE, "ISO-8601 e-mail e-mail Prüfungsordnung",
                                  "see § 3 and §§12a", "C++ (C#), a,b 1,5 km/h. don't ＦＩＬＥ ﬁle"])
def test_word_by_word_cutting_equals_cutting_the_whole_text(analyzer: Analyzer, text: str) -> None:
    assert analyzer.tokens(text) == raw_tokens(text)


def test_term_counts_are_the_cacheable_form_of_terms(analyzer: Analyzer) -> None:
    text = "Die Prüfungsordnung §3 gilt; the ISO-8601 e-mail was sent twice, twice."
    terms, counts = analyzer.term_counts(text)
    decoded = dict(zip(terms.split(" "), np.frombuffer(counts, dtype="<u4").tolist(), strict=True))
    assert decoded == Counter(analyzer.terms(text))
    assert decoded["twice"] == 2


def test_fingerprint_tells_analysers_apart(analyzer: Analyzer) -> None:
    assert Analyzer().fingerprint == analyzer.fingerprint
    assert Analyzer(AnalyzerOptions(stem=False)).fingerprint != analyzer.fingerprint


def test_memo_gives_identical_results_across_calls(analyzer: Analyzer) -> None:
    first = analyzer.terms(EN + " " + DE)
    assert analyzer.terms(EN + " " + DE) == first
