"""HybridIndex: what each channel finds, RRF agreement, scope before fusion, atomic updates under load."""

from __future__ import annotations

import re
import threading
import time

import numpy as np
import pytest

from backend.retrieval.hits import SNIPPET_CHARS, snippet
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import IndexedBlock, Scope

DIM = 8


def e(i: int, dim: int = DIM) -> np.ndarray:
    v = np.zeros(dim, dtype=np.float32)
    v[i] = 1.0
    return v


def block(doc: str, ordinal: int, text: str, vector: np.ndarray | None = None, *, bid: str | None = None,
          category: str | None = None) -> IndexedBlock:
    return IndexedBlock(id=bid or f"{doc}#{ordinal}", document_id=doc, filename=f"{doc}.pdf", category=category,
                        ordinal=ordinal, page=ordinal + 1, section=None, kind="text", text=text,
                        embedding=vector)


def ids(hits: list) -> list[str]:
    return [h.block_id for h in hits]


FILLER = ["gardening tips for spring", "a recipe for bread", "notes on medieval history",
          "the rules of chess", "birds of the northern coast", "a guide to watercolour painting"]


def test_exact_identifier_found_only_by_bm25() -> None:
    index = HybridIndex()
    near_query = [0.9 * e(1) + (0.1 + 0.05 * i) * e(2 + i % 5) for i in range(len(FILLER))]
    index.replace_documents({
        "err": [block("err", 0, "error 404B raised by the upload module", e(0))],  # orthogonal to the query
        **{f"f{i}": [block(f"f{i}", 0, t, v)] for i, (t, v) in enumerate(zip(FILLER, near_query, strict=True))},
    })
    hybrid = index.search("error 404B", 5, query_vector=e(1))
    assert hybrid[0].block_id == "err#0"
    assert (hybrid[0].sparse_rank, hybrid[0].dense_rank) == (1, len(FILLER) + 1)
    assert index.search("error 404B", 3, mode="dense", query_vector=e(1))[0].block_id != "err#0"


def test_paraphrase_found_only_by_dense() -> None:
    index = HybridIndex()
    query_vec = e(3)
    index.replace_documents({
        "para": [block("para", 0, "automobile upkeep timetable", 0.99 * e(3) + 0.01 * e(4))],
        "car": [block("car", 0, "car service intervals for a bicycle shop?", e(5))],
        **{f"f{i}": [block(f"f{i}", 0, t, e(6))] for i, t in enumerate(FILLER)},
    })
    assert "para#0" not in ids(index.search("car service intervals", 10, mode="sparse"))
    hybrid = index.search("car service intervals", 3, query_vector=query_vec)
    para = next(h for h in hybrid if h.block_id == "para#0")
    assert (para.sparse_rank, para.dense_rank) == (None, 1)
    assert {h.block_id for h in hybrid[:2]} == {"para#0", "car#0"}


def test_agreement_is_promoted_by_rrf() -> None:
    index = HybridIndex()
    index.replace_documents({
        "only_sparse": [block("only_sparse", 0, "quantum flux quantum flux capacitor")],  # no vector
        "both": [block("both", 0, "quantum flux and many other words in this longer passage",
                       0.9 * e(0) + 0.3 * e(1))],
        "only_dense": [block("only_dense", 0, "temporal displacement device", e(0))],
        **{f"f{i}": [block(f"f{i}", 0, t, e(7))] for i, t in enumerate(FILLER)},
    })
    hits = index.search("quantum flux", 3, query_vector=e(0))
    # the two single-channel leaders tie at 1/61; the sparse list comes first, so its leader does too
    assert ids(hits) == ["both#0", "only_sparse#0", "only_dense#0"]
    assert (hits[0].sparse_rank, hits[0].dense_rank) == (2, 2)
    assert hits[0].score == pytest.approx(2 / 62)


def test_scope_is_applied_inside_each_channel_before_fusion() -> None:
    index = HybridIndex()
    rng = np.random.default_rng(0)
    strong = {f"s{i}": [block(f"s{i}", 0, "turbine blade turbine blade " + f"serial{i}",
                              e(0) + 0.05 * rng.standard_normal(DIM).astype(np.float32))] for i in range(600)}
    weak = [block("scoped", 0, "maintenance log: one turbine mentioned among many other unrelated words "
                  "about pumps, valves, gaskets and paperwork", e(5))]
    index.replace_documents({**strong, "scoped": weak})
    global_hits = ids(index.search("turbine blade", 125, query_vector=e(0)))
    assert "scoped#0" not in global_hits  # far below the top 125 (500 candidates per channel)
    scoped = index.search("turbine blade", 3, Scope(document_ids=frozenset({"scoped"})), query_vector=e(0))
    assert ids(scoped) == ["scoped#0"]
    assert (scoped[0].sparse_rank, scoped[0].dense_rank) == (1, 1)


def test_replace_and_delete_are_visible_at_once() -> None:
    index = HybridIndex()
    index.replace_documents({"d": [block("d", 0, "old wording about apples")],
                             "x": [block("x", 0, "unrelated pears")]})
    assert ids(index.search("apples", 5)) == ["d#0"]
    index.replace_documents({"d": [block("d", 0, "new wording about oranges", bid="d-v2#0"),
                                   block("d", 1, "and lemons", bid="d-v2#1")]})
    assert index.search("apples", 5) == []
    assert set(ids(index.search("oranges lemons", 5))) == {"d-v2#0", "d-v2#1"}
    assert index.document_ids() == {"d", "x"}
    index.replace_documents({"d": []})
    assert index.search("oranges", 5) == []
    assert index.document_ids() == {"x"}
    assert index.stats()["blocks"] == 1
    assert index.stats()["documents"] == 1


def test_vectors_that_arrive_later_join_the_dense_channel() -> None:
    index = HybridIndex()
    index.replace_documents({"a": [block("a", 0, "first text"), block("a", 1, "second text")]})
    assert index.search("anything", 5, mode="dense", query_vector=e(2)) == []
    assert index.stats()["embedded_blocks"] == 0
    assert index.set_embeddings(["a#1", "gone#0"], np.stack([e(2), e(3)])) == 1  # unknown id skipped
    assert ids(index.search("anything", 5, mode="dense", query_vector=e(2))) == ["a#1"]
    assert index.set_embeddings(["a#0"], e(2)[None, :] * 2) == 1
    assert index.stats()["embedded_blocks"] == 2
    assert index.stats()["dimension"] == DIM
    index.replace_documents({"a": [block("a", 0, "first text, new version", bid="a2#0")]})
    assert index.search("anything", 5, mode="dense", query_vector=e(2)) == []  # old vectors went with it
    assert index.set_embeddings(["a#1"], e(2)[None, :]) == 0  # a late batch for the old version


def test_a_new_dimension_starts_an_empty_dense_channel() -> None:
    index = HybridIndex()
    index.replace_documents({"a": [block("a", 0, "alpha", e(0)), block("a", 1, "beta", e(1))]})
    assert index.set_embeddings(["a#0"], np.ones((1, 3))) == 1
    assert index.stats()["dimension"] == 3
    assert index.stats()["embedded_blocks"] == 1
    assert index.search("x", 5, mode="dense", query_vector=e(0)) == []  # old-dimension query: no dense
    assert ids(index.search("alpha", 5, query_vector=e(0))) == ["a#0"]  # hybrid degrades to BM25
    index.clear_embeddings()
    assert index.stats()["embedded_blocks"] == 0
    assert index.stats()["dimension"] is None


def test_modes_without_a_query_vector() -> None:
    index = HybridIndex()
    index.replace_documents({f"d{i}": [block(f"d{i}", 0, f"shared words {'extra ' * i}", e(i % DIM))]
                             for i in range(5)})
    assert index.search("shared words", 5, mode="dense") == []
    sparse = index.search("shared words", 5, mode="sparse")
    hybrid = index.search("shared words", 5)
    assert ids(hybrid) == ids(sparse)
    assert hybrid[0].score == pytest.approx(1 / 61)  # hybrid reports RRF scores, sparse BM25 scores
    assert sparse[0].score > 0.1
    assert index.search("shared words", 0) == []


def test_german_query_finds_inflected_and_compound_forms() -> None:
    index = HybridIndex()
    index.replace_documents({
        "po": [block("po", 0, "Die Prüfungen werden nach der Prüfungsordnung im Juli abgelegt.")],
        "other": [block("other", 0, "Die Vorlesung beginnt im Oktober und endet im Februar.")],
    })
    for query in ("Prüfung", "Prufungen", "Prüfungsordnung", "prüfungsordnungen"):
        assert ids(index.search(query, 5)) == ["po#0"], query


def test_snippet_is_the_relevant_window() -> None:
    text = " ".join(["lorem ipsum dolor sit amet"] * 40 + ["the flux capacitor needs 1.21 gigawatts"]
                    + ["consectetur adipiscing elit"] * 40)
    index = HybridIndex()
    index.replace_documents({"d": [block("d", 0, text)]})
    hit = index.search("flux capacitor gigawatts", 1)[0]
    assert "flux capacitor needs 1.21 gigawatts" in hit.snippet
    assert hit.snippet.startswith("… ")
    assert hit.snippet.endswith(" …")
    assert len(hit.snippet) <= SNIPPET_CHARS + 4
    assert hit.text == text
    assert hit.page == 1
    assert hit.filename == "d.pdf"


def test_a_text_that_fits_is_its_own_snippet() -> None:
    words = ["alpha", "beta", "flux", "gamma"] * 10
    tight, loose = " ".join(words), "  \n ".join(words)  # the same words; only the loose text needs scoring
    assert len(tight) <= SNIPPET_CHARS < len(loose)
    for weights in ({"flux": 1.0}, {}):
        assert snippet(tight, weights, Analyzer()) == snippet(loose, weights, Analyzer()) == tight


def test_inconsistent_input_is_rejected() -> None:
    index = HybridIndex()
    with pytest.raises(ValueError, match="belongs to"):
        index.replace_documents({"a": [block("b", 0, "text")]})
    index.replace_documents({"a": [block("a", 0, "text")]})
    with pytest.raises(ValueError, match="already live"):
        index.replace_documents({"b": [block("b", 0, "text", bid="a#0")]})
    with pytest.raises(ValueError, match="twice"):
        index.replace_documents({"c": [block("c", 0, "x"), block("c", 0, "y")]})
    with pytest.raises(ValueError, match="unknown search mode"):
        index.search("text", 3, mode="fuzzy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one vector per block"):
        index.set_embeddings(["a#0", "a#1"], np.ones((1, 4)))


def _version_of(doc: str, version: int, stable_ids: bool) -> list[IndexedBlock]:
    prefix = doc if stable_ids else f"{doc}@{version}"
    return [block(doc, i, f"common words marker v{version} part {i}", e((version + i) % DIM),
                  bid=f"{prefix}#{i}") for i in range(4)]


def test_concurrent_searches_never_see_a_torn_update() -> None:
    """One writer replaces all documents at once, repeatedly; readers must see one version per result."""
    index = HybridIndex()
    docs = [f"d{i}" for i in range(12)]
    index.replace_documents({d: _version_of(d, 0, i % 2 == 0) for i, d in enumerate(docs)})
    stop = threading.Event()
    errors: list[BaseException] = []
    torn: list[set[str]] = []
    searches = [0]
    marker = re.compile(r"marker v(\d+)")

    def write() -> None:
        version = 0
        try:
            while not stop.is_set():
                version += 1
                index.replace_documents({d: _version_of(d, version, i % 2 == 0) for i, d in enumerate(docs)})
                if version % 3 == 0:
                    live = [f"{d if i % 2 == 0 else f'{d}@{version}'}#0" for i, d in enumerate(docs)]
                    index.set_embeddings(live, np.ones((len(live), DIM)))
        except BaseException as exc:  # noqa: BLE001 - any failure must reach the main thread's assert
            errors.append(exc)

    def read() -> None:
        try:
            while not stop.is_set():
                hits = index.search("common words marker", 30, query_vector=e(1))
                versions = {marker.search(h.text).group(1) for h in hits}
                if len(versions) != 1 or len(hits) != 30:
                    torn.append(versions)
                searches[0] += 1
        except BaseException as exc:  # noqa: BLE001 - any failure must reach the main thread's assert
            errors.append(exc)

    threads = [threading.Thread(target=write), *(threading.Thread(target=read) for _ in range(3))]
    for t in threads:
        t.start()
    time.sleep(1.5)
    stop.set()
    for t in threads:
        t.join(timeout=10)
    assert not errors, errors[0]
    assert not torn, torn[:3]
    assert searches[0] > 20
    assert index.stats()["documents"] == 12
    assert index.stats()["blocks"] == 48


def test_a_text_repeated_within_a_document_is_one_hit_at_its_first_place() -> None:
    """The index without a details source (scripts/eval_retrieval.py's) collapses repeats as the served one
    does: one hit per text and document, at the earliest place, the others in `also_at`, k still filled."""
    index = HybridIndex()
    repeated = "The moraine marks where the glacier stood."
    index.replace_documents({
        "a": [block("a", 4, repeated), block("a", 1, "The MORAINE marks  where the glacier\nstood."),
              block("a", 7, repeated), block("a", 2, "A moraine holds gravel."), block("a", 3, "Moraine clay.")],
        "b": [block("b", 0, repeated)],  # the same text in another document: its own hit
    })
    hits = index.search("moraine glacier", 3, mode="sparse")
    # The repeated text, once per document, shown at its earliest place (a#1) whichever copy ranked first.
    assert {h.block_id for h in hits[:2]} == {"a#1", "b#0"}
    first = next(h for h in hits if h.document_id == "a")
    assert [(p.block_id, p.page) for p in first.also_at] == [("a#4", 5), ("a#7", 8)]
    assert len(hits) == 3  # filled with the next distinct passage
    assert hits[2].block_id in {"a#2", "a#3"}
    assert next(h for h in hits if h.document_id == "b").also_at == ()
