"""What the keyword change rows cost the Postgres mode's statistics, and what folding them costs.

On a throwaway embedded Postgres: the Cranfield abstracts (../shared/eval/cranfield beside the repo) as
live blocks, their terms cached by the real analyser, impact lists built (`--per-term` blocks per term
held by more than that many). Then, for each `--changes` target, every block is trashed and restored in
turn until that many block changes are recorded since the build (each one row of keyword_stats_changes
and one row of keyword_df_changes per listed term the block holds). Printed for each: the rows and their
size on disk, the time a search takes to read BM25's statistics after a change
(`search_sql.collection_stats` + `search_sql.document_frequencies` of its terms; the median over the first
`--queries` Cranfield queries), the fold's time (`keyword_impacts.fold`), and the statistics' time after it
(dead rows still in the tables) and after a VACUUM of them (as autovacuum does next), with the load average.

    python scripts/bench_keyword_fold.py [--changes 10000 50000] [--per-term 20] [--queries 25] [--smoke]

`--smoke`: one target of 2,000 changes and 5 queries, to prove the benchmark runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.process import configure_process

configure_process()

from backend.retrieval.bm25 import BM25Params
from backend.retrieval.tokenizer import Analyzer
from backend.store import keyword_impacts, search_sql
from backend.store.db import Database, one
from scripts.shared_data import CRANFIELD
from tests.support.postgres import ThrowawayPostgres


def _jsonl(name: str) -> list[dict[str, str]]:
    return [json.loads(line) for line in (CRANFIELD / name).read_text(encoding="utf-8").splitlines() if line]


def _median_ms(runs: Sequence[Callable[[], object]]) -> float:
    times = []
    for run in runs:
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _rows(db: Database) -> str:
    with db.connection() as conn:
        row = one(conn.execute(
            "SELECT (SELECT count(*) FROM keyword_stats_changes) AS stats, (SELECT count(*) FROM keyword_df_changes)"
            " AS dfs, pg_total_relation_size('keyword_stats_changes') + pg_total_relation_size('keyword_df_changes')"
            " AS bytes"))
    return f"{row['stats']:,} block rows + {row['dfs']:,} df rows ({row['bytes'] / 2**20:.1f} MiB)"


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="keyword change rows: the statistics' cost with them, the fold's cost")
    p.add_argument("--changes", type=int, nargs="+", default=[10_000, 50_000])
    p.add_argument("--per-term", type=int, default=20)
    p.add_argument("--queries", type=int, default=25)
    p.add_argument("--smoke", action="store_true", help="2,000 changes, 5 queries: proves the script works")
    args = p.parse_args(argv)
    if args.smoke:
        args.changes, args.queries = [2_000], 5
    if not CRANFIELD.is_dir():
        p.exit(2, f"no Cranfield collection in {CRANFIELD}: it reads its abstracts from there\n")
    analyzer = Analyzer()
    abstracts = [d["text"] for d in _jsonl("corpus.jsonl")]
    queries = [sorted(set(analyzer.terms(q["text"]))) for q in _jsonl("queries.jsonl")[:args.queries]]
    pg = ThrowawayPostgres()
    db = Database(pg.fresh_database("quire_fold_bench"), min_size=1, max_size=2)
    db.open()
    try:
        doc = uuid.uuid4()
        with db.transaction() as conn:
            conn.execute("INSERT INTO documents (id, filename, status) VALUES (%s, 'cranfield', 'ready')", (doc,))
            for ordinal, text in enumerate(abstracts):
                conn.execute("INSERT INTO blocks (id, document_id, doc_sha256, ordinal, text, kind, is_live, terms,"
                             " term_counts, terms_analyzer) VALUES (%s, %s, 'sha', %s, %s, 'text', true, %s, %s, %s)",
                             (uuid.uuid4(), doc, ordinal, text, *analyzer.term_counts(text), analyzer.fingerprint))
        bm25 = BM25Params()
        built = keyword_impacts.build(db, args.per_term, bm25.k1, bm25.b)
        assert built is not None
        print(f"{len(abstracts):,} blocks, {built.terms} terms listed ({args.per_term} blocks each); "
              f"{len(queries)} queries")

        def statistics_of(terms: list[str]) -> Callable[[], object]:
            return lambda: (search_sql.collection_stats(db), search_sql.document_frequencies(db, terms))

        searches = [statistics_of(terms) for terms in queries]
        print(f"no change rows: statistics {_median_ms(searches):.1f} ms per search")
        for target in args.changes:
            recorded = 0
            while recorded < target:  # trash every block, then restore every block: 2 × N changes
                with db.connection() as conn:
                    conn.execute("UPDATE blocks SET is_live = NOT is_live")
                recorded += len(abstracts)
            with db.connection() as conn:  # all live again, as before
                conn.execute("UPDATE blocks SET is_live = true WHERE NOT is_live")
            before = _median_ms(searches)
            print(f"{_rows(db)}: statistics {before:.1f} ms per search; load {os.getloadavg()[0]:.2f}")
            started = time.perf_counter()
            folded = keyword_impacts.fold(db)
            fold_ms = (time.perf_counter() - started) * 1000
            after = _median_ms(searches)
            with db.connection() as conn:
                conn.execute("VACUUM keyword_stats_changes, keyword_df_changes")
            print(f"  fold {folded} in {fold_ms:.0f} ms; then statistics {after:.1f} ms, after VACUUM "
                  f"{_median_ms(searches):.1f} ms; load {os.getloadavg()[0]:.2f}")
    finally:
        db.close()
        pg.close()


if __name__ == "__main__":
    main()
