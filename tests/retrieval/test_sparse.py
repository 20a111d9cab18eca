"""BM25 channel: exact scores, incremental updates equal a fresh build, scope applied before ranking."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from backend.retrieval import sparse
from backend.retrieval.bm25 import BM25Params
from backend.retrieval.segments import RowKey
from backend.retrieval.sparse import SparseIndex
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Scope, ScoredBlock

WORDS = ("wing", "flow", "shock", "layer", "boundary", "pressure", "heat", "plate", "drag", "lift", "tunnel",
         "nozzle", "jet", "engine", "turbine", "blade", "stress", "panel", "buckling", "vibration")


def row(i: int, doc: str | None = None, category: str | None = None) -> RowKey:
    return RowKey(f"b{i}", doc or f"d{i}", category)


def corpus(n: int, seed: int = 1) -> list[str]:
    rnd = random.Random(seed)
    return [" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(5, 40))) for _ in range(n)]


def reference_bm25(texts: dict[str, str], query: str, params: BM25Params) -> dict[str, float]:
    """Textbook BM25 (Lucene idf) written out directly, to check the matrix implementation against."""
    an = Analyzer()
    docs = {bid: Counter(an.terms(t)) for bid, t in texts.items()}
    n = len(docs)
    avg = sum(sum(c.values()) for c in docs.values()) / n
    scores: dict[str, float] = {}
    for term, qtf in Counter(an.terms(query)).items():
        df = sum(1 for c in docs.values() if term in c)
        if not df:
            continue
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        for bid, c in docs.items():
            if term in c:
                tf, length = c[term], sum(c.values())
                norm = params.k1 * (1 - params.b + params.b * length / avg)
                scores[bid] = scores.get(bid, 0.0) + qtf * idf * tf * (params.k1 + 1) / (tf + norm)
    return scores


def test_scores_equal_textbook_bm25() -> None:
    texts = {f"b{i}": t for i, t in enumerate(corpus(60))}
    idx = SparseIndex().apply([], [(row(i), texts[f"b{i}"]) for i in range(60)])
    for query in ("shock layer", "turbine blade stress", "wing wing lift"):
        expected = reference_bm25(texts, query, BM25Params())
        got = {h.block_id: h.score for h in idx.search(query, 100)}
        assert got.keys() == expected.keys()
        for bid, score in expected.items():
            assert got[bid] == pytest.approx(score, rel=1e-5)


def test_a_count_beyond_16_bits_scores_exactly() -> None:
    """Counts are stored in 16 bits; a segment with a larger one stores 32-bit counts, not a wrapped one."""
    texts = {"b0": "wing " * 70_000 + "lift", "b1": "wing lift drag", "b2": "drag panel"}
    idx = SparseIndex().apply([], [(row(i), texts[f"b{i}"]) for i in range(3)])
    expected = reference_bm25(texts, "wing", BM25Params())
    got = {h.block_id: h.score for h in idx.search("wing", 3)}
    assert got == pytest.approx(expected, rel=1e-6)
    assert got["b0"] > got["b1"]


def test_a_vocabulary_copied_after_a_large_batch_keeps_every_term() -> None:
    """A change bringing many new terms has the vocabulary's keys copied (memory, see `Interner.own_values`);
    every term must still map to its own postings, before and after later changes."""
    first = {f"b{i}": " ".join(f"q{j}x" for j in range(i * 30, i * 30 + 30)) for i in range(400)}  # 12,000 terms
    idx = SparseIndex().apply([], [(row(i), first[f"b{i}"]) for i in range(400)])
    later = {"b400": "q15x q7777x wing", "b401": "wing q11999x"}
    idx = idx.apply(["b3"], [(row(400), later["b400"]), (row(401), later["b401"])])
    texts = {bid: t for bid, t in (first | later).items() if bid != "b3"}
    fresh = SparseIndex().apply([], [(row(int(bid[1:])), t) for bid, t in texts.items()])
    for query in ("q15x", "q7777x", "q11999x wing", "q125x", "q0x q3000x"):
        assert idx.search(query, 5) == fresh.search(query, 5)
        assert idx.search(query, 5)
    assert {h.block_id for h in idx.search("q7777x", 5)} == {"b259", "b400"}
    assert idx.search("q95x", 5) == []  # only in the removed block


@pytest.fixture(params=[0, 1 << 30], ids=["maxscore", "exhaustive"])
def scoring(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every segment scored with MaxScore pruning, or every segment scored exhaustively."""
    monkeypatch.setattr(sparse, "EXHAUSTIVE_ROWS", request.param)


@pytest.mark.usefixtures("scoring")
def test_top_k_equals_full_scoring_when_common_terms_are_skipped() -> None:
    """Small k over a query mixing rare and very common terms: the pruned search (MaxScore) must return
    exactly the k best of a full scoring, scores included."""
    rnd = random.Random(3)
    texts = {f"b{i}": " ".join(["wing"] * rnd.randint(1, 4) + [rnd.choice(WORDS) for _ in range(rnd.randint(5, 40))])
             for i in range(300)}  # "wing" occurs in every block: a term whose list is looked up, not scanned
    idx = SparseIndex().apply([], [(row(i), texts[f"b{i}"]) for i in range(300)])
    for query in ("wing shock", "wing turbine blade stress", "wing wing lift", "wing"):
        expected = sorted(reference_bm25(texts, query, BM25Params()).items(), key=lambda p: (-p[1], p[0]))
        for k in (1, 3, 10):
            got = idx.search(query, k)
            assert [h.block_id for h in got] == [b for b, _ in expected[:k]]
            assert [h.score for h in got] == pytest.approx([s for _, s in expected[:k]], rel=1e-6)


def test_exhaustive_scoring_equals_maxscore_to_the_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small segments are scored without MaxScore, all in one pass: same blocks, same order, same scores,
    with tombstones and scopes, and with both kinds of segment in one search."""
    rnd = random.Random(11)
    texts = corpus(500, seed=5)
    idx = SparseIndex()
    for start in range(0, 500, 25):
        removed = [f"b{i}" for i in rnd.sample(range(start), min(start, 5))]
        idx = idx.apply(removed, [(row(i, f"d{i % 17}", f"c{i % 3}"), texts[i]) for i in range(start, start + 25)])
    sizes = sorted(seg.n_rows for seg in idx._store.segments)
    assert len(sizes) > 2
    scopes = [None, Scope(document_ids=frozenset({"d1", "d5"})), Scope(categories=frozenset({"c2"}))]
    queries = ["shock layer", "wing", "nozzle jet engine turbine", "panel buckling vibration heat plate drag"]

    def results(exhaustive_rows: int) -> list[list[ScoredBlock]]:
        monkeypatch.setattr(sparse, "EXHAUSTIVE_ROWS", exhaustive_rows)
        return [idx.search(q, k, scope) for q in queries for k in (1, 5, 28, 500) for scope in scopes]

    maxscore = results(0)
    assert results(1 << 30) == maxscore
    assert results(sizes[len(sizes) // 2]) == maxscore  # some segments one way, some the other


def test_exact_identifier_is_found() -> None:
    texts = ["the server returned error 404 for the page", "error 404B occurred in module B",
             "error codes 403 and 405 are listed", "the 404B printer manual"]
    idx = SparseIndex().apply([], [(row(i), t) for i, t in enumerate(texts)])
    hits = idx.search("error 404B", 10)
    assert hits[0].block_id == "b1"
    assert {h.block_id for h in idx.search("404B", 10)} == {"b1", "b3"}


def test_incremental_updates_equal_a_fresh_build() -> None:
    """Adds, removals and replacements in many small steps (tombstones, merges) score like one build."""
    rnd = random.Random(7)
    texts = corpus(400, seed=3)
    live: dict[int, str] = {}
    idx = SparseIndex()
    for step in range(120):
        add = rnd.sample(range(400), 6)
        remove = list(rnd.sample(sorted(live), min(3, len(live)))) if live else []
        version = {i: f"{texts[i]} v{step}" for i in add}  # re-adding an id replaces its text
        idx = idx.apply([f"b{i}" for i in remove], [(row(i), t) for i, t in version.items()])
        for i in remove:
            live.pop(i, None)
        live.update(version)
    fresh = SparseIndex().apply([], [(row(i), t) for i, t in live.items()])
    assert len(idx) == len(fresh) == len(live)
    assert idx.segment_count <= 12  # merges keep the number of segments logarithmic
    for query in ("shock layer", "turbine", "nozzle jet engine", "panel buckling vibration heat"):
        a, b = idx.search(query, 400), fresh.search(query, 400)
        # Summation order differs between segment layouts, so compare scores rounded, ties by id.
        assert sorted((round(-h.score, 9), h.block_id) for h in a) == sorted(
            (round(-h.score, 9), h.block_id) for h in b)


def test_old_versions_are_untouched() -> None:
    v1 = SparseIndex().apply([], [(row(1), "alpha beta"), (row(2), "beta gamma")])
    v2 = v1.apply(["b1"], [(row(3), "alpha delta")])
    assert [h.block_id for h in v1.search("alpha", 5)] == ["b1"]
    assert [h.block_id for h in v2.search("alpha", 5)] == ["b3"]
    assert v1.search("delta", 5) == []  # a term added later is unknown to the older version


def test_scope_is_applied_before_ranking() -> None:
    # 600 blocks say "turbine" many times; the scoped document mentions it once among other words.
    rows = [(row(i), "turbine " * 5 + f"filler{i}") for i in range(600)]
    target = "a long note about many things where a turbine appears once among plenty of other words"
    rows.append((RowKey("target", "scoped-doc", None), target))
    idx = SparseIndex().apply([], rows)
    everything = [h.block_id for h in idx.search("turbine", 601)]
    assert everything.index("target") > 500
    assert [h.block_id for h in idx.search("turbine", 5, Scope(document_ids=frozenset({"scoped-doc"})))] == [
        "target"]


def test_scope_by_category_and_unknown_scope() -> None:
    idx = SparseIndex().apply([], [(row(1, category="math"), "integral calculus"),
                                   (row(2, category="physics"), "integral of motion")])
    assert [h.block_id for h in idx.search("integral", 5, Scope(categories=frozenset({"physics"})))] == ["b2"]
    assert idx.search("integral", 5, Scope(document_ids=frozenset({"nope"}))) == []
    both = Scope(document_ids=frozenset({"d1"}), categories=frozenset({"physics"}))
    assert {h.block_id for h in idx.search("integral", 5, both)} == {"b1", "b2"}


def test_removed_blocks_are_gone_and_stats_follow() -> None:
    idx = SparseIndex().apply([], [(row(1), "rare word"), (row(2), "common word"), (row(3), "common thing")])
    before = idx.term_weights("rare common")
    idx = idx.apply(["b1"], [])
    assert idx.search("rare", 5) == []
    assert "rare" not in idx.term_weights("rare")
    assert idx.term_weights("common")["common"] < before["common"]  # df 2 of 2 now, not 2 of 3


def test_ties_are_ordered_by_block_id() -> None:
    idx = SparseIndex().apply([], [(row(i), "same text") for i in (5, 3, 9, 1)])
    assert [h.block_id for h in idx.search("same", 10)] == ["b1", "b3", "b5", "b9"]
    assert [h.block_id for h in idx.search("same", 2)] == ["b1", "b3"]


def test_empty_query_or_index() -> None:
    assert SparseIndex().search("anything", 5) == []
    idx = SparseIndex().apply([], [(row(1), "text")])
    assert idx.search("", 5) == []
    assert idx.search("unknownword", 5) == []
    assert idx.search("text", 0) == []
