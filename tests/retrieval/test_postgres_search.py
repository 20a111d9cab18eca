"""QUIRE_SEARCH_BACKEND=postgres over real servers on one embedded Postgres: results identical across two
processes after a change (and the same for the in-memory mode), scope filters, replaced and deleted
documents gone from results, blocks without vectors still found by keyword, chat and study working."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import psycopg
import pytest

from backend.retrieval.postgres import PostgresIndex
from backend.store import keyword_impacts as impact_lists
from backend.store import search_sql
from backend.store.db import Database
from backend.store.keyword_impacts import ImpactBuild
from tests.agent.chatting import chat
from tests.support.corpus import CORPUS
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.polling import eventually
from tests.support.server import QuireServer
from tests.support.study import generate, quiz_reply
from tests.support.vault import ingest

pytestmark = pytest.mark.slow

NOTES = {
    "volcano.md": b"# Volcanoes\n\nStratovolcanoes erupt viscous andesitic magma in explosive eruptions.",
    "glacier.md": b"# Glaciers\n\nValley glaciers carve fjords and leave moraines of unsorted till behind.",
    "delta.md": b"# Deltas\n\nRivers deposit sediment where they meet the sea, building a delta of silt.",
}


def _search(api: httpx.Client, query: str, **params: Any) -> list[dict[str, Any]]:
    response = api.get("/api/search", params={"q": query, **params})
    assert response.status_code == 200, response.text
    return response.json()["hits"]


def _ranked(hits: list[dict[str, Any]]) -> list[tuple[str, str, float]]:
    return [(h["block_id"], h["snippet"], round(h["score"], 9)) for h in hits]


@pytest.mark.parametrize("backend", ["memory", "postgres"])
def test_two_processes_return_identical_results_after_a_change(
    backend: str, server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    first = server_factory(QUIRE_EXECUTOR_ID="proc-a", QUIRE_SEARCH_BACKEND=backend)
    second = QuireServer(first.database_url, first.data_dir, fake_ollama.url, QUIRE_EXECUTOR_ID="proc-b",
                         QUIRE_SEARCH_BACKEND=backend).start()
    try:
        with first.client() as a, second.client() as b:
            ingest(a, NOTES)
            query = "glaciers carve fjords"
            # Either process may have run the upload's embedding; the other learns the vectors from the
            # change feed a moment later (QUIRE_INDEX_POLL_S): the two agree once both have all three.
            eventually(lambda: len(_search(b, query)) == 3
                        and _ranked(_search(a, query)) == _ranked(_search(b, query)))
            assert _ranked(_search(a, query)) == _ranked(_search(b, query))
            changed = ingest(a, {"glacier.md": b"# Ice\n\nIce sheets flow outward under their own weight."},
                             on_conflict="replace")
            doc_id = changed["glacier.md"]["id"]
            eventually(lambda: _ranked(_search(b, "ice sheets flow")) == _ranked(_search(a, "ice sheets flow")))
            top = _search(b, "ice sheets flow", mode="sparse")
            assert [h["document_id"] for h in top] == [doc_id]
            assert _search(b, "moraines unsorted till", mode="sparse") == []  # the old version is gone
            assert b.get("/api/health").json()["index"].get("backend", "memory") == backend
    finally:
        second.stop()


@pytest.mark.parametrize("backend", ["memory", "postgres"])
def test_a_question_naming_a_document_by_its_file_name_finds_its_passages(
    backend: str, server_factory: Callable[..., QuireServer]
) -> None:
    """palmer-penguins.csv never says "penguin" (its rows name Adelie, Gentoo and Chinstrap); asked about
    "penguin species", keyword search must still rank its table high (each of its blocks holds the name's
    word once) and the judgement must find it relevant, in either search mode, and not once it is in the
    trash. The other documents hold "species" or "data" too; a short note holding both outranks the table
    by BM25 and by the stand-in embeddings, but is judged not relevant."""
    server = server_factory(QUIRE_SEARCH_BACKEND=backend)
    files = {name: (CORPUS / name).read_bytes()
             for name in ("palmer-penguins.csv", "readxl-datasets.xlsx", "wikipedia-mozilla.html")}
    files["fisheries.md"] = (b"# Fish survey\n\nThe estuary survey counted 41 fish species; its data are kept"
                             b" by the county.")
    question = "How many penguin species are in the data?"
    with server.client() as api:
        documents = ingest(api, files)
        keyword = [h["filename"] for h in _search(api, question, mode="sparse")[:6]]
        assert keyword.count("palmer-penguins.csv") >= 4, keyword  # without the name: one of the first six
        hits = _search(api, question)
        first = next(h for h in hits if h["relevant"])
        assert first["filename"] == "palmer-penguins.csv", [(h["filename"], h["relevant"]) for h in hits]
        assert hits.index(first) <= 1, [(h["filename"], h["relevant"]) for h in hits]
        assert _search(api, "How many fish species are in the data?")[0]["filename"] == "fisheries.md"
        penguins = documents["palmer-penguins.csv"]["id"]
        assert api.delete(f"/api/documents/{penguins}").status_code in (200, 204)
        eventually(lambda: not any(h["filename"] == "palmer-penguins.csv" for h in _search(api, question)))


@pytest.fixture
def pg_server(server_factory: Callable[..., QuireServer]) -> QuireServer:
    return server_factory(QUIRE_SEARCH_BACKEND="postgres")


def test_scope_filters_apply_before_ranking(pg_server: QuireServer) -> None:
    with pg_server.client() as api:
        docs = ingest(api, NOTES, category="Earth")
        other = ingest(api, {"volcano-notes.md": b"# Notes\n\nAndesitic magma: volcano notes, volcano again."},
                       category="Notes")
        ids = {name: d["id"] for name, d in {**docs, **other}.items()}
        everywhere = [h["document_id"] for h in _search(api, "volcano andesitic magma", k=10)]
        assert set(everywhere) >= {ids["volcano.md"], ids["volcano-notes.md"]}
        for mode in ("hybrid", "dense"):  # the scope's best blocks, though others rank higher vault-wide
            scoped = _search(api, "volcano andesitic magma", k=10, mode=mode, documents=ids["delta.md"])
            assert scoped
            assert {h["document_id"] for h in scoped} == {ids["delta.md"]}
        assert _search(api, "volcano andesitic magma", mode="sparse", documents=ids["delta.md"]) == []
        for mode in ("hybrid", "dense", "sparse"):
            by_category = _search(api, "volcano andesitic magma", k=10, mode=mode, categories="Notes")
            assert {h["document_id"] for h in by_category} == {ids["volcano-notes.md"]}
        union = _search(api, "rivers glaciers volcano", k=10, categories="Notes", documents=ids["glacier.md"])
        assert {h["document_id"] for h in union} == {ids["volcano-notes.md"], ids["glacier.md"]}


def test_replaced_and_deleted_documents_leave_the_results(pg_server: QuireServer) -> None:
    with pg_server.client() as api:
        doc_id = ingest(api, {"rock.md": b"# Rocks\n\nBasalt columns form as lava cools and contracts."})[
            "rock.md"]["id"]
        assert [h["document_id"] for h in _search(api, "basalt columns", mode="sparse")] == [doc_id]
        ingest(api, {"rock.md": b"# Rocks\n\nGranite is an intrusive igneous rock rich in quartz."},
               on_conflict="replace")
        assert _search(api, "basalt columns", mode="sparse") == []
        dense = _search(api, "basalt columns", mode="dense", k=5)
        assert dense
        assert all("Basalt" not in h["text"] for h in dense)
        assert [h["document_id"] for h in _search(api, "granite quartz", mode="sparse")] == [doc_id]
        assert api.delete(f"/api/documents/{doc_id}").status_code == 200  # to the trash: out of search at once
        assert _search(api, "granite quartz") == []


def test_blocks_without_vectors_are_found_by_keyword(pg_server: QuireServer, fake_ollama: FakeOllama) -> None:
    with pg_server.client() as api:
        doc_id = ingest(api, {"karst.md": b"# Karst\n\nLimestone dissolves into sinkholes and caverns."})[
            "karst.md"]["id"]
    with psycopg.connect(pg_server.database_url, autocommit=True) as conn:
        conn.execute("UPDATE blocks SET embedding = NULL, embed_model = NULL WHERE document_id = %s", (doc_id,))
    with pg_server.client() as api:
        assert _search(api, "limestone sinkholes", mode="dense") == []
        hits = _search(api, "limestone sinkholes")
        assert [h["document_id"] for h in hits] == [doc_id]
        assert hits[0]["sparse_rank"] == 1
        assert hits[0]["dense_rank"] is None
        assert "sinkholes" in hits[0]["snippet"]


def test_chat_and_study_work_on_the_postgres_mode(pg_server: QuireServer, fake_ollama: FakeOllama) -> None:
    with pg_server.client() as api:
        docs = ingest(api, NOTES)
        ids = [d["id"] for d in docs.values()]
        fake_ollama.script(Reply(thinking="Search the notes.", content="x"),  # phase 1: thinking
                           Reply(tool_calls=[("search_knowledge_base", {"query": "glaciers carve fjords"})]),
                           Reply(content="Glaciers carve fjords [1]."))
        stream = chat(api, "How do glaciers carve fjords?")
        assert stream.citations[0]["document_id"] == docs["glacier.md"]["id"]
        tool_results = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "tool"]
        assert "carve fjords" in " ".join(tool_results)
        job = generate(api, fake_ollama, "/api/study/quizzes", {"scope": {"document_ids": ids}, "count": 5},
                       quiz_reply(5))
        assert job["status"] == "succeeded", job
        quiz = api.get(job["result_url"]).json()
        assert {q["sources"][0]["filename"] for q in quiz["questions"]} <= set(NOTES)


# Eight notes hold "sediment" and five "meander"; "oxbow" is in two, "lagoon" in one. With a cap of 4 keyword
# candidates, "oxbow lagoon" (3 blocks) is ranked exactly, "sediment meander" (13) takes the capped path; the
# impact lists (1 block per term held by more than 1) list "sediment", "meander" and "oxbow".
RIVERS = {
    f"river{i}.md": (f"# River {i}\n\n" + " ".join(words)).encode()
    for i, words in enumerate([
        ["Sediment", "settles", "where", "an", "oxbow", "lake", "is", "cut", "off", "by", "a", "meander."],
        ["An", "oxbow", "forms", "when", "sediment", "closes", "a", "lagoon", "at", "the", "river", "bend."],
        ["Sediment", "and", "meander", "scars", "mark", "the", "plain."],
        ["Each", "meander", "migrates", "as", "sediment", "is", "eroded", "on", "the", "outer", "bank", "and",
         "laid", "down", "on", "the", "inner", "bank", "of", "the", "channel."],
        ["Sediment", "load", "rises", "in", "a", "flood", "and", "every", "meander", "grows."],
        ["Fine", "sediment", "drifts", "far", "downstream", "in", "still", "water."],
        ["Coarse", "sediment", "stays", "near", "the", "source", "of", "the", "stream", "in", "the", "hills."],
        ["Sediment", "with", "a", "meander", "belt", "of", "silt", "and", "sand", "across", "the", "valley", "floor",
         "for", "many", "kilometres."],
    ])
}


STATISTIC_TERMS = ["sediment", "meander", "oxbow", "lagoon"]


def _statistics(db: Database) -> tuple[int, int, dict[str, int]]:
    stats = search_sql.collection_stats(db)
    return stats.blocks, stats.total_length, search_sql.document_frequencies(db, STATISTIC_TERMS)


def _counted(url: str) -> tuple[int, int, dict[str, int]]:
    with psycopg.connect(url) as conn:
        n, total = conn.execute("SELECT count(*), sum(term_total) FROM blocks WHERE is_live").fetchone() or (0, 0)
        df = {t: conn.execute("SELECT count(*) FROM blocks WHERE is_live AND %s = ANY(term_array)", (t,)).fetchone()[0]
              for t in STATISTIC_TERMS}
    return n, total, {t: c for t, c in df.items() if c}


def _sparse_ranked(api: httpx.Client, query: str) -> list[tuple[str, float]]:
    return [(h["block_id"], round(h["score"], 9)) for h in _search(api, query, mode="sparse", k=20)]


def test_keyword_candidate_cap_is_exact_under_it_and_uses_the_impact_lists_over_it(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    first = server_factory(QUIRE_SEARCH_BACKEND="postgres", QUIRE_SEARCH_KEYWORD_CANDIDATES="4")
    with first.client() as api:
        ingest(api, RIVERS)
    db = Database(first.database_url, min_size=1, max_size=2)
    db.open()
    second: QuireServer | None = None
    try:  # this process ranks exactly (no cap) and with the servers' cap, over their database
        exact, capped = PostgresIndex(db, "any", candidate_cap=None), PostgresIndex(db, "any", candidate_cap=4)

        def ranked(index: PostgresIndex, query: str) -> list[tuple[str, float]]:
            return [(h.block_id, round(h.score, 9)) for h in index.search(query, 20, mode="sparse")]

        eventually(lambda: (impact_lists.current(db) or ImpactBuild(-1, 0, 0, 0, 0, 0)).blocks == 0)
        assert _statistics(db) == _counted(first.database_url)  # the build's (empty) counts + every change
        under = ranked(exact, "oxbow lagoon")
        assert len(under) == 2
        assert ranked(capped, "oxbow lagoon") == under
        assert capped.capped_searches == 0

        full = ranked(exact, "sediment meander")
        assert len(full) == 8  # exact: every block holding either word
        # Over the cap, lists not yet built (the first server built them on an empty vault): the 4 shortest
        # blocks holding both words, scored exactly.
        tier = capped.search("sediment meander", 20, mode="sparse")
        assert len(tier) == 4
        assert all({"sediment", "meander"} <= set(h.text.lower().replace(".", "").split()) for h in tier)
        assert {(h.block_id, round(h.score, 9)) for h in tier} <= set(full)

        # A process starting on the grown vault rebuilds the lists: the capped search now scores the listed
        # blocks (1 per word), and its best is the exact best.
        second = QuireServer(first.database_url, first.data_dir, fake_ollama.url, QUIRE_EXECUTOR_ID="second",
                             QUIRE_SEARCH_BACKEND="postgres", QUIRE_SEARCH_KEYWORD_CANDIDATES="4").start()
        eventually(lambda: (impact_lists.current(db) or ImpactBuild(-1, 0, 0, 0, 0, 0)).blocks > 0)
        listed = ranked(capped, "sediment meander")
        assert 1 <= len(listed) <= 2
        assert listed[0] == full[0]
        assert set(listed) <= set(full)
        with first.client() as a, second.client() as b:
            for query in ("sediment meander", "oxbow lagoon"):  # the same in every process
                assert _sparse_ranked(a, query) == _sparse_ranked(b, query) == ranked(capped, query)

            # A block written after the build joins the lists where it weighs more than their last block.
            new_id = ingest(a, {"oxbow-bend.md": b"# Bend\n\nMeander, meander, meander: sediment."})[
                "oxbow-bend.md"]["id"]
            top = _search(b, "sediment meander", mode="sparse", k=20)
            assert top[0]["document_id"] == new_id
            assert top[0]["block_id"] == ranked(exact, "sediment meander")[0][0]
            # The statistics are the build's counts plus the changes since, and equal a count of the vault.
            assert _statistics(db) == _counted(first.database_url)
            assert a.delete(f"/api/documents/{new_id}").status_code == 200
            assert _statistics(db) == _counted(first.database_url)
            assert _search(b, "sediment meander", mode="sparse", k=20)[0]["document_id"] != new_id
        assert capped.capped_searches >= 3
    finally:
        if second is not None:
            second.stop()
        db.close()
