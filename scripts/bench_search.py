"""Speed and memory of search through the product path, against the straightforward design.

A synthetic vault — documents of 20 blocks, block texts of ~300 to ~1,100 characters (Zipf-distributed
pseudo-words, English and, in a fifth of the documents, German function words, some identifiers), and
vectors clustered by topic — is written with COPY into a throwaway embedded Postgres (real migrations,
terms cached as ingestion caches them). Then, in this one process:

- product: `SearchService.build()` from Postgres (startup), hybrid query latency at k = 7 excluding the
  query's embedding (the vector is passed in), the time until a deleted document stops appearing
  (`documents.trash_document` + `SearchService.notify`, then searching until it is gone), resident memory;
- reference: FAISS flat + `rank_bm25.BM25Okapi` over ``lower().split()``, fused by the same RRF, built
  from the same Postgres rows; a delete means a rebuild of both.

Every timing is repeated (`--repeat`) and reported with its spread and the load average at the time.

    python scripts/bench_search.py [--blocks 100000] [--dim 768] [--queries 200] [--repeat 3]
                                   [--reference-queries 30] [--reference-deletes 2] [--no-reference]
                                   [--backend memory|postgres] [--pgdata DIR] [--prepare-only]
                                   [--hnsw-memory-mb MB] [--breakdown] [--smoke]

`--backend postgres` measures the Postgres search mode instead (QUIRE_SEARCH_BACKEND=postgres): the
one-time builds (keyword impact lists, HNSW), cold start (`PostgresBackend.build()`, all a process
does at startup), query latencies (hybrid; each channel alone; scoped), how often dense search finds the
query's own document, and delete visibility, with the same vault and queries. "build from Postgres" is
then the cold start.

`--pgdata DIR` keeps the vault (an embedded Postgres in DIR/pg, the queries in DIR/vault.npz) and reuses it
on the next run with the same --blocks and --dim: writing 1M blocks and building their HNSW index takes
tens of minutes, measuring them a few. Documents a run deleted are brought back at the start of the next.
`--prepare-only` writes the vault (and, with --backend postgres, builds the impact lists and the HNSW
index) and stops. `--smoke` runs every measure of the chosen backend (the memory mode with its breakdown
and the reference) on 2,000 blocks of 64 dimensions, to prove the benchmark runs; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import struct
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psutil
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.retrieval.memory import MemoryBackend
from backend.retrieval.postgres_backend import HNSW_BUILD_MEMORY_MB, PostgresBackend
from backend.retrieval.service import SearchService
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Scope
from backend.store import blocks as blocks_store
from backend.store import search_sql
from backend.store.db import Database, url_for_database
from backend.store.documents import trash_document
from backend.store.embedded import ensure_runtime_dir
from scripts import memory_breakdown
from scripts.bench_reference import ReferenceIndex
from tests.support.postgres import ThrowawayPostgres

MODEL = "bench:synthetic"
PER_DOC = 20
CHUNK_DOCS = 250
EN_FUNCTION = ("the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "with", "was", "on", "be", "by",
               "this", "are", "from", "at", "or", "an", "which", "not", "we", "these", "can")
DE_FUNCTION = ("der", "die", "und", "in", "den", "von", "zu", "das", "mit", "sich", "des", "auf", "für", "ist",
               "im", "dem", "nicht", "ein", "eine", "als", "auch", "es", "an", "werden", "aus", "er", "hat")
IDENTIFIERS = ("§3", "§ 12a", "404B", "Q3", "ISO-8601", "e-mail", "v2.1", "C++", "3.5", "2024-01-15")
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "te", "vi", "do", "pa", "re", "gu", "fo", "li", "ba", "ze",
             "to", "mu", "ni", "ha", "ver", "ge", "schaf", "lung", "tra", "ber", "ö", "ü", "ä", "ei")
EN_ENDINGS = ("", "", "", "s", "ing", "ed", "tion", "ly")
DE_ENDINGS = ("", "", "en", "ung", "ungen", "keit", "heit", "ungsordnung", "er", "lich")


@dataclass
class Query:
    text: str
    vector: np.ndarray
    document_id: str


@dataclass
class Vault:
    documents: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    queries: list[Query] = field(default_factory=list)


def vocabulary(size: int, rng: np.random.Generator, endings: Sequence[str]) -> np.ndarray:
    words = {"".join(rng.choice(SYLLABLES, size=rng.integers(2, 5))) for _ in range(size * 2)}
    return np.array([w + endings[i % len(endings)] for i, w in enumerate(sorted(words)[:size])])


class Generator:
    """Deterministic synthetic blocks, produced a chunk of documents at a time."""

    def __init__(self, dim: int, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.dim = dim
        self.en = vocabulary(40_000, self.rng, EN_ENDINGS)
        self.de = vocabulary(20_000, self.rng, DE_ENDINGS)
        self.topics = self.rng.standard_normal((256, dim), dtype=np.float32)
        self.header = struct.pack(">HH", dim, 0)

    def text(self, german: bool) -> str:
        rng = self.rng
        n = int(rng.integers(45, 170))
        vocab, function = (self.de, DE_FUNCTION) if german else (self.en, EN_FUNCTION)
        words = vocab[np.minimum(rng.zipf(1.2, size=n), len(vocab)) - 1]
        is_function = rng.random(n) < 0.4
        picks = rng.integers(0, len(function), size=n)
        out = [function[p] if f else w for w, f, p in zip(words.tolist(), is_function, picks, strict=True)]
        if rng.random() < 0.15:
            out.insert(int(rng.integers(0, n)), IDENTIFIERS[int(rng.integers(len(IDENTIFIERS)))])
        return " ".join(out)

    def vectors(self, topic: int, n: int) -> np.ndarray:
        noise = self.rng.standard_normal((n, self.dim), dtype=np.float32)
        v = 0.6 * self.topics[topic] + noise
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def load_vault(db: Database, n_blocks: int, dim: int, n_queries: int) -> Vault:
    """Write the synthetic vault with COPY; blocks' terms are cached by the product's analyser."""
    gen, analyzer, vault = Generator(dim), Analyzer(), Vault()
    n_docs = n_blocks // PER_DOC
    query_docs = set(np.random.default_rng(1).choice(n_docs, size=min(n_queries, n_docs), replace=False).tolist())
    for first in range(0, n_docs, CHUNK_DOCS):
        docs, blocks = [], []
        for d in range(first, min(first + CHUNK_DOCS, n_docs)):
            doc_id, german = str(uuid.UUID(int=d + 1)), d % 5 == 4
            category = f"cat{d % 7}"
            docs.append((doc_id, f"doc{d}.pdf", category, "ready", f"sha{d}"))
            vectors = gen.vectors(int(gen.rng.integers(256)), PER_DOC)
            texts = [gen.text(german) for _ in range(PER_DOC)]
            for o, (text, vec) in enumerate(zip(texts, vectors, strict=True)):
                raw = gen.header + vec.astype(">f4").tobytes()
                blocks.append((uuid.UUID(bytes=hashlib.md5(f"{doc_id}:{o}".encode()).digest()), uuid.UUID(doc_id),
                               f"sha{d}", o, text, 1 + o // 3, None, "text", raw, MODEL, True,
                               *analyzer.term_counts(text), analyzer.fingerprint))
            vault.documents.append(doc_id)
            vault.categories.append(category)
            if d in query_docs:
                words = texts[0].split()
                start = int(gen.rng.integers(0, max(1, len(words) - 6)))
                noise = 0.3 / np.sqrt(dim) * gen.rng.standard_normal(dim).astype(np.float32)  # cosine ~0.96
                vault.queries.append(Query(" ".join(words[start:start + int(gen.rng.integers(2, 7))]),
                                           vectors[0] + noise, doc_id))
        _copy(db, docs, blocks)
    return vault


def save_vault(path: Path, vault: Vault, n_blocks: int, dim: int) -> None:
    np.savez(path, documents=np.array(vault.documents), categories=np.array(vault.categories),
             texts=np.array([q.text for q in vault.queries]),
             vectors=np.stack([q.vector for q in vault.queries]).astype(np.float32),
             query_documents=np.array([q.document_id for q in vault.queries]), shape=np.array([n_blocks, dim]))


def open_vault(path: Path, n_blocks: int, dim: int) -> Vault | None:
    """The kept vault's documents and queries, or None if there is none of this size."""
    if not path.exists():
        return None
    with np.load(path) as z:
        if z["shape"].tolist() != [n_blocks, dim]:
            raise SystemExit(f"{path} holds a vault of {z['shape'].tolist()} (blocks, dim); use another --pgdata")
        queries = [Query(str(t), v, str(d)) for t, v, d in zip(z["texts"], z["vectors"], z["query_documents"],
                                                                 strict=True)]
        return Vault(z["documents"].tolist(), z["categories"].tolist(), queries)


def untrash_all(db: Database) -> int:
    """Bring back what an earlier run on a kept vault deleted (the bench's documents have no versions, so
    `restore_document` would not make their blocks live)."""
    with db.transaction() as conn:
        rows = conn.execute("UPDATE documents SET status = 'ready', trashed_at = NULL WHERE status = 'trashed'"
                            " RETURNING id").fetchall()
        conn.execute("UPDATE blocks SET is_live = true WHERE document_id = ANY(%s::uuid[])",
                     ([r["id"] for r in rows],))
    return len(rows)


def _copy(db: Database, docs: list[tuple], blocks: list[tuple]) -> None:
    with db.transaction() as conn, conn.cursor() as cur:
        with cur.copy("COPY documents (id, filename, category, status, sha256) FROM STDIN") as copy:
            for row in docs:
                copy.write_row(row)
        with cur.copy("COPY blocks (id, document_id, doc_sha256, ordinal, text, page, section, kind, embedding,"
                      " embed_model, is_live, terms, term_counts, terms_analyzer) FROM STDIN (FORMAT BINARY)") as copy:
            # "bytea" sends the bytes as they are: the vectors are already pgvector's binary format.
            copy.set_types(["uuid", "uuid", "text", "int4", "text", "int4", "text", "text", "bytea", "text",
                            "bool", "text", "bytea", "text"])
            for row in blocks:
                copy.write_row(row)


class BenchEmbedder:
    """The service's embedder slot: the benchmark passes precomputed query vectors, so it never embeds."""

    model = MODEL

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise AssertionError("the benchmark passes query vectors; nothing should be embedded")


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def rss_mib() -> float:
    return psutil.Process().memory_info().rss / 2**20


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def spread(samples: Sequence[float], unit: float = 1000.0) -> str:
    if not len(samples):
        return "no samples"
    a = np.asarray(samples) * unit
    return f"min {a.min():.1f} / median {np.median(a):.1f} / max {a.max():.1f}"


def latency_rounds(search: Callable[[Query], object], queries: list[Query], rounds: int) -> tuple[list, list]:
    """p50 and p95 (ms) of each round over all queries, after a warm-up."""
    for q in queries[:5]:
        search(q)
    p50, p95 = [], []
    for _ in range(rounds):
        ms = np.array([timed(lambda q=q: search(q)) for q in queries]) * 1000
        p50.append(float(np.percentile(ms, 50)))
        p95.append(float(np.percentile(ms, 95)))
    return p50, p95


@dataclass
class Figures:
    build_s: list[float] = field(default_factory=list)
    p50_ms: list[float] = field(default_factory=list)
    p95_ms: list[float] = field(default_factory=list)
    delete_s: list[float] = field(default_factory=list)
    rss_mib: float = 0.0
    rss_added_mib: float = 0.0
    notes: list[str] = field(default_factory=list)


def note(fig: Figures, text: str) -> None:
    """A figure for the report's notes, printed at once too (a long run that fails later keeps it)."""
    print(f"  note: {text}", flush=True)
    fig.notes.append(text)


def until_gone(search: Callable[[Query], list[str]], query: Query, delete: Callable[[], None]) -> float | None:
    """Seconds from the start of `delete` until a search no longer returns the query's document (None,
    nothing deleted, if it is not found in the first place)."""
    if query.document_id not in search(query):
        return None
    started = time.perf_counter()
    delete()
    while query.document_id in search(query):
        time.sleep(0.001)
    return time.perf_counter() - started


def bench_product(db: Database, vault: Vault, args: argparse.Namespace) -> Figures:
    fig = Figures()
    gc.collect()
    before = rss_mib()
    backend = MemoryBackend(db, BenchEmbedder().model, poll_s=3600)
    service = SearchService(backend, BenchEmbedder())
    fig.build_s.append(timed(service.build))
    fig.rss_mib, fig.rss_added_mib = rss_mib(), rss_mib() - before
    note(fig, f"build 1 ({load()}); stats {service.stats()}")
    note(fig, f"RSS added per block: {fig.rss_added_mib * 2**20 / args.blocks:,.0f} bytes")
    if args.breakdown:
        lines = memory_breakdown.report(backend.index, {"dense vectors + sketch": backend.index.dense_bytes},
                                        int(fig.rss_added_mib * 2**20), args.blocks)
        print("\n".join(lines), flush=True)
    measure_service(service, db, vault, args, fig)
    note(fig, details_fetch(service, db, vault))
    del service, backend
    for _ in range(args.repeat - 1):
        gc.collect()
        fig.build_s.append(timed(MemoryBackend(db, BenchEmbedder().model, poll_s=3600).build))
    note(fig, f"builds 2..{args.repeat} done ({load()})")
    return fig


def details_fetch(service: SearchService, db: Database, vault: Vault) -> str:
    """The part of a search that reads its hits' texts and metadata (and their copies) from Postgres, alone."""
    ids = [[h.block_id for h in service.search(q.text, 7, query_vector=q.vector).hits] for q in vault.queries]
    ms = np.array([timed(lambda i=i: blocks_store.live_block_copies(db, i)) for i in ids]) * 1000
    p50, p95 = np.percentile(ms, [50, 95])
    return f"hits' details read from Postgres (7 ids): p50 {p50:.2f} ms, p95 {p95:.2f} ms"


def measure_service(service: SearchService, db: Database, vault: Vault, args: argparse.Namespace,
                    fig: Figures) -> None:
    """Query latencies (hybrid; also single channels and scopes, as notes) and delete visibility."""

    def hybrid(q: Query) -> list[str]:
        return [h.document_id for h in service.search(q.text, 7, query_vector=q.vector).hits]

    fig.p50_ms, fig.p95_ms = latency_rounds(hybrid, vault.queries, args.repeat)
    note(fig, f"hybrid k=7 rounds: p50 {', '.join(f'{v:.1f}' for v in fig.p50_ms)} ms, p95 "
              f"{', '.join(f'{v:.1f}' for v in fig.p95_ms)} ms ({load()})")
    for mode in ("sparse", "dense"):
        p50, p95 = latency_rounds(lambda q, m=mode: service.search(q.text, 7, mode=m, query_vector=q.vector),
                                  vault.queries, 1)
        note(fig, f"{mode:6} k=7: p50 {p50[0]:.1f} ms, p95 {p95[0]:.1f} ms")
    for name, scope in (("1 document", Scope(document_ids=frozenset({vault.documents[17]}))),
                        ("1 of 7 categories", Scope(categories=frozenset({"cat3"})))):
        p50, p95 = latency_rounds(lambda q, s=scope: service.search(q.text, 7, s, query_vector=q.vector),
                                  vault.queries, 1)
        note(fig, f"hybrid scoped to {name}: p50 {p50[0]:.1f} ms, p95 {p95[0]:.1f} ms")
    found = sum(q.document_id in {h.document_id for h in service.search(q.text, 7, mode="dense",
                                                                         query_vector=q.vector).hits}
                for q in vault.queries)
    note(fig, f"dense k=7 finds the query's document for {found} of {len(vault.queries)} queries")
    for query in vault.queries[-args.deletes:]:
        gone = until_gone(hybrid, query, lambda q=query: (
            trash_document(db, uuid.UUID(q.document_id)), service.notify([q.document_id])))
        if gone is not None:
            fig.delete_s.append(gone)
    note(fig, f"deletes done: {len(fig.delete_s)} of {args.deletes} (the others' document was not in the "
              f"hybrid top 7 to begin with) ({load()}); stats {service.stats()}")


def bench_postgres(db: Database, vault: Vault, args: argparse.Namespace) -> Figures:
    """The Postgres search mode: the one-time HNSW build, then cold starts (`build()`, the startup work) and
    the same query and delete measurements as the in-memory mode."""
    fig = Figures()
    note(fig, prepare_postgres(db, args))
    gc.collect()
    before = rss_mib()
    for _ in range(args.repeat):
        service = SearchService(PostgresBackend(db, BenchEmbedder().model), BenchEmbedder())
        fig.build_s.append(timed(service.build))
    fig.rss_mib, fig.rss_added_mib = rss_mib(), rss_mib() - before
    note(fig, f"cold starts ({load()}); stats {service.stats()}")
    measure_service(service, db, vault, args, fig)
    return fig


def prepare_postgres(db: Database, args: argparse.Namespace) -> str:
    """What a process's background preparation does once: the keyword impact lists (rebuilt only when
    stale) and the HNSW build, after a VACUUM ANALYZE (what autovacuum does after a large load)."""
    started = time.perf_counter()
    built = PostgresBackend(db, BenchEmbedder().model).prepare_impact_lists()
    lists = (f"keyword impact lists ({built.terms} terms × {built.per_term} blocks) ready in "
             f"{time.perf_counter() - started:.1f}s ({load()}); " if built else "")
    if search_sql.hnsw_index_state(db, MODEL, args.dim) == "ready":
        return f"{lists}HNSW index already built (kept vault; {load()})"
    with db.connection() as conn:
        conn.execute("VACUUM ANALYZE blocks")
    hnsw_s = timed(lambda: search_sql.ensure_hnsw_index(db, MODEL, args.dim, args.hnsw_memory_mb))
    return (f"{lists}HNSW index built once in {hnsw_s:.1f}s ({load()}); "
            f"maintenance_work_mem {args.hnsw_memory_mb} MB")


def bench_reference(db: Database, vault: Vault, args: argparse.Namespace) -> Figures:
    fig = Figures()
    gc.collect()
    before = rss_mib()
    ref = ReferenceIndex(db, MODEL)
    fig.build_s.append(timed(ref.build))
    fig.rss_mib, fig.rss_added_mib = rss_mib(), rss_mib() - before
    note(fig, f"reference build ({load()})")

    def hybrid(q: Query) -> list[str]:
        return ref.search(q.text, q.vector, 7)

    live = list(vault.queries[:-args.deletes])
    fig.p50_ms, fig.p95_ms = latency_rounds(hybrid, live[:args.reference_queries], args.repeat)
    for query in live[-args.reference_deletes:]:
        gone = until_gone(hybrid, query, lambda q=query: (
            trash_document(db, uuid.UUID(q.document_id)), ref.build()))
        if gone is not None:
            fig.delete_s.append(gone)
            fig.build_s.append(gone)  # a delete is a full rebuild from Postgres
    note(fig, f"reference queries and deletes done ({load()})")
    return fig


def report(n: int, product: Figures, reference: Figures | None) -> None:
    rows = [
        ("build from Postgres (s)", lambda f: np.median(f.build_s), lambda f: spread(f.build_s, 1)),
        ("hybrid k=7 p50 (ms)", lambda f: np.median(f.p50_ms), lambda f: spread(f.p50_ms, 1)),
        ("hybrid k=7 p95 (ms)", lambda f: np.median(f.p95_ms), lambda f: spread(f.p95_ms, 1)),
        ("delete visible (ms)", lambda f: 1000 * np.median(f.delete_s) if f.delete_s else float("nan"),
         lambda f: spread(f.delete_s)),
        ("RSS after build (MiB)", lambda f: f.rss_mib, lambda f: ""),
        ("RSS added by build (MiB)", lambda f: f.rss_added_mib, lambda f: ""),
    ]
    print(f"\n== {n:,} blocks ==")
    print(f"{'':26}{'product':>10}{'reference':>11}{'ref/prod':>10}   spread product | reference")
    for name, value, spread_of in rows:
        p = value(product)
        r = value(reference) if reference else float("nan")
        print(f"{name:26}{p:>10.1f}{r:>11.1f}{r / p if p else float('nan'):>9.1f}×   {spread_of(product)}"
              + (f" | {spread_of(reference)}" if reference else ""))
    for label, fig in (("product", product), ("reference", reference)):
        for note in (fig.notes if fig else []):
            print(f"  {label}: {note}")


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="search speed and memory through the product path")
    p.add_argument("--blocks", type=int, default=100_000)
    p.add_argument("--dim", type=int, default=768)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--deletes", type=int, default=10)
    p.add_argument("--reference-queries", type=int, default=30)
    p.add_argument("--reference-deletes", type=int, default=2)
    p.add_argument("--no-reference", action="store_true")
    p.add_argument("--breakdown", action="store_true",
                   help="after the first build, print where the index's memory goes (scripts/memory_breakdown.py)")
    p.add_argument("--backend", choices=("memory", "postgres"), default="memory",
                   help="postgres: the Postgres search mode in the product column (no reference run)")
    p.add_argument("--pgdata", type=Path, help="keep the vault in this folder and reuse it on the next run")
    p.add_argument("--prepare-only", action="store_true", help="write the vault (and the HNSW index), then stop")
    p.add_argument("--hnsw-memory-mb", type=int, default=HNSW_BUILD_MEMORY_MB,
                   help="maintenance_work_mem of the HNSW build (1M × 768-d: the graph needs ~4 GB to build fast)")
    p.add_argument("--smoke", action="store_true", help="2,000 blocks, a few queries: proves the script works")
    args = p.parse_args(argv)
    if args.smoke:
        args.blocks, args.dim, args.queries, args.repeat, args.deletes = 2_000, 64, 20, 2, 2
        args.reference_queries, args.reference_deletes, args.breakdown = 5, 1, True
    pg, url, vault = open_postgres(args)
    db = Database(url, min_size=1, max_size=4)
    try:
        db.open()
        if vault is None:
            started = time.perf_counter()
            vault = load_vault(db, args.blocks, args.dim, args.queries + args.deletes)
            print(f"vault: {args.blocks:,} blocks in {len(vault.documents):,} documents written in "
                  f"{time.perf_counter() - started:.0f}s; {load()}; RSS {rss_mib():.0f} MiB", flush=True)
            if args.pgdata:
                save_vault(args.pgdata / "vault.npz", vault, args.blocks, args.dim)
        else:
            print(f"vault: kept in {args.pgdata} ({untrash_all(db)} deleted documents brought back); {load()}",
                  flush=True)
        if args.prepare_only:
            if args.backend == "postgres":
                print(prepare_postgres(db, args), flush=True)
            return
        if args.backend == "postgres":
            product, reference = bench_postgres(db, vault, args), None
        else:
            product = bench_product(db, vault, args)
            reference = None if args.no_reference else bench_reference(db, vault, args)
        report(args.blocks, product, reference)
    finally:
        db.close()
        pg.close()


class KeptPostgres:
    """An embedded Postgres in a folder that outlives the run (stopped, not deleted, at the end)."""

    def __init__(self, folder: Path) -> None:
        import pgserver

        ensure_runtime_dir()
        folder.mkdir(parents=True, exist_ok=True)
        self._server = pgserver.get_server(folder / "pg", cleanup_mode="stop")
        self.admin_url = self._server.get_uri("postgres")

    def close(self) -> None:
        self._server.cleanup()


def open_postgres(args: argparse.Namespace) -> tuple[ThrowawayPostgres | KeptPostgres, str, Vault | None]:
    """The server, the benchmark database's URL and, for a kept vault written earlier, its vault."""
    if args.pgdata is None:
        pg = ThrowawayPostgres()
        return pg, pg.fresh_database("quire_bench"), None
    kept = KeptPostgres(args.pgdata.resolve())
    url = url_for_database(kept.admin_url, "quire_bench")
    vault = open_vault(args.pgdata / "vault.npz", args.blocks, args.dim)
    if vault is None:  # a run interrupted while writing leaves a partial database: start it again
        with psycopg.connect(kept.admin_url, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS quire_bench")
            conn.execute("CREATE DATABASE quire_bench")
    return kept, url, vault


if __name__ == "__main__":
    main()
