"""Folding the keyword change rows of the Postgres search mode (`keyword_impacts.fold`, migration 0019):
BM25's statistics and the rankings are exactly the same afterwards and the change tables are empty; a
block change committed while a fold runs is neither lost nor blocked; a fold and a build exclude each
other; and a process in the in-memory mode folds too, so the rows stop piling up in a vault it serves.

Blocks are Cranfield abstracts (shared/eval/cranfield) with terms cached by the real analyser."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from backend.retrieval.bm25 import BM25Params
from backend.retrieval.postgres import PostgresIndex
from backend.retrieval.tokenizer import Analyzer
from backend.store import blocks as blocks_store
from backend.store import keyword_impacts as impact_lists
from backend.store import search_sql
from backend.store.db import Database
from scripts.shared_data import CRANFIELD
from tests.support.polling import eventually
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import ingest

PER_TERM = 20  # blocks listed per common term: the lists of a capped search with a cap of 100
ANALYZER = Analyzer()


def _lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (CRANFIELD / name).read_text(encoding="utf-8").splitlines() if line]


ABSTRACTS = [d["text"] for d in _lines("corpus.jsonl")[:520]]
QUERIES = [q["text"] for q in _lines("queries.jsonl")[:25]]


@pytest.fixture
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    """A fresh vault whose every connection (the fold's, the build's, a writer's) fails rather than waits
    more than 5 s for a lock: a fold that blocked writers, or a build that waited on a fold, fails the test
    instead of hanging it."""
    url = postgres.fresh_database("quire_fold")
    database = Database(url + ("&" if "?" in url else "?") + "options=-c%20lock_timeout%3D5s", min_size=1, max_size=4)
    database.open()
    yield database
    database.close()


def _add_document(db: Database, texts: list[str]) -> list[str]:
    """A ready document whose live blocks are `texts`, their terms cached; the block ids."""
    doc, ids = uuid.uuid4(), [str(uuid.uuid4()) for _ in texts]
    with db.transaction() as conn:
        conn.execute("INSERT INTO documents (id, filename, status) VALUES (%s, %s, 'ready')", (doc, f"{doc}.md"))
        for ordinal, (block, text) in enumerate(zip(ids, texts, strict=True)):
            conn.execute("INSERT INTO blocks (id, document_id, doc_sha256, ordinal, text, kind, is_live, terms,"
                         " term_counts, terms_analyzer) VALUES (%s, %s, 'sha', %s, %s, 'text', true, %s, %s, %s)",
                         (block, doc, ordinal, text, *ANALYZER.term_counts(text), ANALYZER.fingerprint))
    return ids


def _set_live(url: str, block_ids: list[str], live: bool) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE blocks SET is_live = %s WHERE id = ANY(%s::uuid[])", (live, block_ids))


def _churn(db: Database, first: list[str]) -> None:
    """Every kind of change the trigger records: blocks written, trashed, restored, deleted, re-analysed."""
    _add_document(db, ABSTRACTS[400:480])
    _set_live(db.url, first[:60], False)
    _set_live(db.url, first[:25], True)
    with psycopg.connect(db.url, autocommit=True) as conn:
        conn.execute("DELETE FROM blocks WHERE id = ANY(%s::uuid[])", (first[100:130],))
    # Terms cached again (another analyser's): a live block's terms and length change.
    blocks_store.save_terms(db, "other", [(b, *ANALYZER.term_counts(ABSTRACTS[480 + i])) for i, b in
                                          enumerate(first[200:215])])


def _change_rows(url: str) -> tuple[int, int]:
    with psycopg.connect(url) as conn:
        stats = conn.execute("SELECT count(*) FROM keyword_stats_changes").fetchone()
        dfs = conn.execute("SELECT count(*) FROM keyword_df_changes").fetchone()
    assert stats is not None
    assert dfs is not None
    return stats[0], dfs[0]


def _terms(url: str) -> list[str]:
    """The listed terms and the queries' terms (most of them not listed)."""
    with psycopg.connect(url) as conn:
        listed = [r[0] for r in conn.execute("SELECT term FROM keyword_impact_lists ORDER BY term")]
    return sorted(set(listed) | {t for q in QUERIES for t in ANALYZER.terms(q)})


def _statistics(db: Database, terms: list[str]) -> tuple[int, int, dict[str, int]]:
    stats = search_sql.collection_stats(db)
    return stats.blocks, stats.total_length, search_sql.document_frequencies(db, terms)


def _counted(url: str, terms: list[str]) -> tuple[int, int, dict[str, int]]:
    """The same statistics counted over the live blocks."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*), coalesce(sum(term_total), 0) FROM blocks WHERE is_live").fetchone()
        held = conn.execute("SELECT t, (SELECT count(*) FROM blocks WHERE is_live AND term_array @> ARRAY[t])"
                            " FROM unnest(%s::text[]) AS t", (terms,)).fetchall()
    assert row is not None
    return row[0], row[1], {t: n for t, n in held if n}


def _rankings(db: Database) -> dict[tuple[str, int | None], list[tuple[str, float]]]:
    """Each query's keyword top 10, exact and capped (through the impact lists); fresh indexes, so
    nothing is cached from before."""
    exact, capped = PostgresIndex(db, "any", candidate_cap=None), PostgresIndex(db, "any", candidate_cap=5 * PER_TERM)
    ranked = {(q, index.candidate_cap): [(h.block_id, h.score) for h in index.search(q, 10, mode="sparse")]
              for q in QUERIES for index in (exact, capped)}
    assert capped.capped_searches > 0  # the lists were used
    return ranked


def _impacts(url: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT term, block_id, impact FROM keyword_impacts UNION ALL"
                            " SELECT 'average length', NULL, average_length FROM keyword_impact_build"
                            " ORDER BY 1, 2, 3").fetchall()


def _built(db: Database) -> Database:
    first = _add_document(db, ABSTRACTS[:400])
    built = impact_lists.build(db, PER_TERM, BM25Params().k1, BM25Params().b)
    assert built is not None
    assert built.terms > 20
    _churn(db, first)
    return db


@pytest.mark.slow  # builds and folds the impact lists of a collection: about 15 s (the fast tier stays under 5 min)
def test_a_fold_keeps_the_statistics_and_rankings_and_empties_the_change_tables(db: Database) -> None:
    _built(db)
    terms = _terms(db.url)
    rows = _change_rows(db.url)
    assert rows[0] == 80 + 60 + 25 + 30 + 15  # one per block changed
    assert rows[1] > 1_000  # one per block changed and listed term it held or holds
    before, ranked, impacts = _statistics(db, terms), _rankings(db), _impacts(db.url)
    build_before = impact_lists.current(db)
    assert before == _counted(db.url, terms)

    assert impact_lists.fold(db) == impact_lists.Fold(*rows)
    assert _change_rows(db.url) == (0, 0)
    assert _statistics(db, terms) == before
    assert _rankings(db) == ranked
    assert _impacts(db.url) == impacts  # the lists and the average length their impacts were computed with
    # What the rebuild check reads is unchanged: the live blocks when built, the block changes since.
    assert impact_lists.current(db) == build_before
    assert impact_lists.fold(db) == impact_lists.Fold(0, 0)

    _churn(db, _add_document(db, ABSTRACTS[:140]))  # and again: folds add up
    rows = _change_rows(db.url)
    assert impact_lists.fold(db) == impact_lists.Fold(*rows)
    assert _change_rows(db.url) == (0, 0)
    assert _statistics(db, terms) == _counted(db.url, terms)


def test_changes_committed_while_a_fold_runs_are_kept(db: Database) -> None:
    _built(db)
    terms = _terms(db.url)
    with psycopg.connect(db.url) as conn:
        live = [str(r[0]) for r in conn.execute("SELECT id FROM blocks WHERE is_live LIMIT 40")]
    with psycopg.connect(db.url) as writer:  # a second connection writing blocks; the trigger records them
        # A change in flight before the fold starts, committed after it committed.
        writer.execute("UPDATE blocks SET is_live = false WHERE id = ANY(%s::uuid[])", (live[:10],))
        assert impact_lists.fold(db) is not None
        assert _change_rows(db.url) == (0, 0)  # the uncommitted rows are not the fold's
        writer.commit()
        in_flight = _change_rows(db.url)
        assert in_flight[0] == 10
        assert _statistics(db, terms) == _counted(db.url, terms)

        # A change committed while the fold's transaction is open: the fold does not block it, and
        # neither counts nor deletes its rows.
        with db.transaction() as conn:
            folded = impact_lists.fold_in(conn)
            assert folded == impact_lists.Fold(*in_flight)
            writer.execute("DELETE FROM blocks WHERE id = ANY(%s::uuid[])", (live[10:25],))
            writer.commit()
            # Meanwhile a build finds the lock taken and leaves the lists alone.
            assert impact_lists.build(db, PER_TERM, 1.2, 0.75) is None
        assert _change_rows(db.url)[0] == 15
        assert _statistics(db, terms) == _counted(db.url, terms)
    assert impact_lists.fold(db) is not None
    assert _change_rows(db.url) == (0, 0)
    assert _statistics(db, terms) == _counted(db.url, terms)
    assert impact_lists.build(db, PER_TERM, BM25Params().k1, BM25Params().b) is not None  # the lock is free


NOTES = {f"cranfield-{i}.md": f"# Abstract {i}\n\n{text}".encode() for i, text in enumerate(ABSTRACTS[:12])}


@pytest.mark.slow
def test_a_process_in_the_memory_mode_folds_the_change_rows(server_factory: Callable[..., QuireServer]) -> None:
    server = server_factory(QUIRE_KEYWORD_FOLD_S="0.3")  # the default search mode: memory
    with server.client() as api:
        first = ingest(api, dict(list(NOTES.items())[:6]))
    db = Database(server.database_url, min_size=1, max_size=2)
    db.open()
    try:
        # The lists a Postgres-mode process once built: the trigger records changes from now on.
        built = impact_lists.build(db, 1, BM25Params().k1, BM25Params().b)
        assert built is not None
        assert built.terms > 0
        terms = _terms(server.database_url)
        with server.client() as api:
            ingest(api, dict(list(NOTES.items())[6:]))
            for doc in list(first.values())[:3]:
                assert api.delete(f"/api/documents/{doc['id']}").status_code == 200

        def folded() -> bool:
            current = impact_lists.current(db)
            return current is not None and current.changes > 0 and _change_rows(server.database_url) == (0, 0)

        # the rows were recorded, and the server folded every one of them
        eventually(folded, timeout_s=20.0, interval_s=0.1)
        assert _statistics(db, terms) == _counted(server.database_url, terms)
    finally:
        db.close()

