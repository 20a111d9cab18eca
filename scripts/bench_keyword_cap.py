"""What the Postgres mode's keyword candidate cap (QUIRE_SEARCH_KEYWORD_CANDIDATES) costs and saves.

On a vault kept by `bench_search.py --pgdata DIR` (same --blocks and --dim), each benchmark query's keyword
channel (`PostgresIndex.search(mode="sparse")`, k = 10) runs exactly (no cap) and with each cap given.
Printed per cap: the impact lists' build time (rebuilt for each cap), how many queries took the capped
path (and how many of those the lists' floors prove exact), overlap@10 with the exact top 10 (mean and
worst), queries whose top 10 is identical, whose exact first hit is kept, and latency p50 / p95 with the
load average.

    python scripts/bench_keyword_cap.py --pgdata DIR [--blocks 100000] [--dim 768] [--caps 2000 5000 10000]
                                        [--queries 210]
    python scripts/bench_keyword_cap.py --smoke [--pgdata DIR]

`--smoke`: 2,000 blocks of 64 dimensions, caps 100 and 400, 20 queries, to prove the benchmark runs; without
`--pgdata` it writes that vault into a throwaway Postgres first.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.process import configure_process

configure_process()

from backend.retrieval.postgres import PostgresIndex
from backend.retrieval.postgres_backend import PostgresBackend
from backend.store import keyword_impacts as impact_lists
from backend.store.db import Database
from scripts.bench_search import MODEL, load_vault, open_postgres, untrash_all

K = 10


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def run(index: PostgresIndex, texts: Sequence[str]) -> tuple[list[list[str]], np.ndarray]:
    index.search(texts[0], K, mode="sparse")  # statistics counted once, as a running process has them
    index.capped_searches = index.proven_exact = 0
    rankings, ms = [], []
    for text in texts:
        started = time.perf_counter()
        hits = index.search(text, K, mode="sparse")
        ms.append((time.perf_counter() - started) * 1000)
        rankings.append([h.block_id for h in hits])
    return rankings, np.array(ms)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="keyword candidate cap: quality against exact BM25, and latency")
    p.add_argument("--pgdata", type=Path, help="the vault kept by bench_search.py (required unless --smoke)")
    p.add_argument("--blocks", type=int, default=100_000)
    p.add_argument("--dim", type=int, default=768)
    p.add_argument("--caps", type=int, nargs="+", default=[2_000, 5_000, 10_000])
    p.add_argument("--queries", type=int, default=210)
    p.add_argument("--smoke", action="store_true", help="a small throwaway vault: proves the script works")
    args = p.parse_args(argv)
    if args.pgdata is None and not args.smoke:
        p.error("--pgdata is required (a vault kept by bench_search.py), unless --smoke")
    if args.smoke:
        args.blocks, args.dim, args.caps, args.queries = 2_000, 64, [100, 400], 20
    args.prepare_only = False
    pg, url, vault = open_postgres(args)
    if vault is None and args.pgdata is not None:
        pg.close()
        raise SystemExit(f"no kept vault of {args.blocks:,} blocks in {args.pgdata}: run bench_search.py first")
    db = Database(url, min_size=1, max_size=2)
    try:
        db.open()
        if vault is None:  # --smoke without a kept vault: write one into the throwaway Postgres
            vault = load_vault(db, args.blocks, args.dim, args.queries)
        untrash_all(db)
        texts = [q.text for q in vault.queries[:args.queries]]
        exact, exact_ms = run(PostgresIndex(db, MODEL, candidate_cap=None), texts)
        print(f"{args.blocks:,} blocks, {len(texts)} queries, keyword channel k={K}")
        print(f"exact: p50 {np.percentile(exact_ms, 50):.1f} ms, p95 {np.percentile(exact_ms, 95):.1f} ms, "
              f"max {exact_ms.max():.0f} ms ({load()})", flush=True)
        for cap in args.caps:
            index = PostgresIndex(db, MODEL, candidate_cap=cap)
            started = time.perf_counter()
            built = impact_lists.build(db, PostgresBackend.impact_list_length(cap), index.bm25.k1,
                                       index.bm25.b)
            assert built is not None
            print(f"cap {cap:>6,}: impact lists of {built.terms} terms × {built.per_term} blocks built in "
                  f"{time.perf_counter() - started:.1f}s ({load()})", flush=True)
            capped, ms = run(index, texts)
            over, proven = index.capped_searches, index.proven_exact
            overlap = np.array([len(set(a) & set(e)) / max(len(e), 1) for a, e in zip(capped, exact, strict=True)
                                if e])
            same = sum(a == e for a, e in zip(capped, exact, strict=True))
            first = sum(bool(e) and bool(a) and a[0] == e[0] for a, e in zip(capped, exact, strict=True))
            print(f"cap {cap:>6,}: capped path {over}/{len(texts)} ({proven} proven exact); "
                  f"overlap@{K} mean {overlap.mean():.3f} "
                  f"min {overlap.min():.1f}; identical top {K} {same}/{len(texts)}; first hit kept "
                  f"{first}/{sum(bool(e) for e in exact)}; p50 {np.percentile(ms, 50):.1f} ms, "
                  f"p95 {np.percentile(ms, 95):.1f} ms, max {ms.max():.0f} ms ({load()})", flush=True)
    finally:
        db.close()
        pg.close()


if __name__ == "__main__":
    main()
