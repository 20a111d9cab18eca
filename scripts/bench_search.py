"""Speed and memory of the in-memory HybridIndex at scale.

Builds an index from in-memory `IndexedBlock`s — synthetic text of realistic length (Zipf-distributed
words, English function words mixed in so language detection and stop words do real work) and random
unit vectors — then measures: build time, hybrid/sparse/dense query latency (p50/p95, k = 7 as in chat),
scoped queries, the time to replace one document, and the process's resident memory.

    python scripts/bench_search.py [--blocks 100000] [--dim 768] [--blocks-per-doc 20] [--queries 200]

(The source of blocks is synthetic for now; loading the live blocks from Postgres belongs here too.)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.types import IndexedBlock, Scope, SearchMode

FUNCTION_WORDS = ("the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "with", "was", "on", "be",
                  "by", "this", "are", "from", "at", "or", "an", "which")
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "te", "vi", "do", "pa", "re", "gu", "fo", "li", "ba", "ze",
             "to", "mu", "ni", "ha")


def vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    """Pseudo-words of 2-4 syllables, some with inflection-like endings so the stemmer has work."""
    words = {"".join(rng.choice(SYLLABLES, size=rng.integers(2, 5))) for _ in range(size * 2)}
    endings = ["", "", "", "s", "ing", "ed", "tion"]
    return [w + endings[i % len(endings)] for i, w in enumerate(sorted(words)[:size])]


def synthetic_texts(n: int, rng: np.random.Generator, vocab: list[str]) -> list[str]:
    """~1,000-character blocks: 60% Zipf-distributed content words, 40% function words."""
    texts = []
    lengths = rng.integers(110, 210, size=n)
    for length in lengths:
        content = np.minimum(rng.zipf(1.15, size=length), len(vocab)) - 1
        func = rng.integers(0, len(FUNCTION_WORDS), size=length)
        is_func = rng.random(length) < 0.4
        texts.append(" ".join(FUNCTION_WORDS[f] if s else vocab[c]
                              for c, f, s in zip(content, func, is_func, strict=True)))
    return texts


def make_blocks(n: int, dim: int, per_doc: int, seed: int = 0) -> dict[str, list[IndexedBlock]]:
    rng = np.random.default_rng(seed)
    vocab = vocabulary(60_000, rng)
    texts = synthetic_texts(n, rng, vocab)
    vectors = rng.standard_normal((n, dim), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    docs: dict[str, list[IndexedBlock]] = {}
    for i, text in enumerate(texts):
        doc = f"doc{i // per_doc}"
        docs.setdefault(doc, []).append(IndexedBlock(
            id=f"{doc}#{i % per_doc}", document_id=doc, filename=f"{doc}.pdf", category=f"cat{i % 7}",
            ordinal=i % per_doc, page=1 + (i % per_doc) // 3, section=None, kind="text", text=text,
            embedding=vectors[i]))
    return docs


def percentiles(samples: Sequence[float]) -> str:
    ms = np.asarray(samples) * 1000
    return f"p50 {np.percentile(ms, 50):7.2f} ms   p95 {np.percentile(ms, 95):7.2f} ms"


def timed(fn: Callable[[], object], reps: int) -> list[float]:
    out = []
    for _ in range(reps):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def measure_queries(index: HybridIndex, docs: dict[str, list[IndexedBlock]], n: int, dim: int) -> None:
    rng = np.random.default_rng(1)
    sample = [b.text.split() for b in docs[f"doc{rng.integers(len(docs))}"]]
    queries = [" ".join(rng.choice(sample[i % len(sample)], size=rng.integers(2, 7))) for i in range(n)]
    qvecs = rng.standard_normal((n, dim)).astype(np.float32)
    for q, v in zip(queries[:5], qvecs[:5], strict=True):  # warm-up
        index.search(q, 7, query_vector=v)
    counter = iter(range(10**9))

    def run(mode: SearchMode, scope: Scope | None = None) -> Callable[[], object]:
        def once() -> object:
            i = next(counter) % n
            return index.search(queries[i], 7, scope=scope, mode=mode, query_vector=qvecs[i])
        return once

    print(f"hybrid k=7            {percentiles(timed(run('hybrid'), n))}")
    print(f"sparse k=7            {percentiles(timed(run('sparse'), n))}")
    print(f"dense  k=7            {percentiles(timed(run('dense'), n))}")
    one_doc = Scope(document_ids=frozenset({"doc17"}))
    print(f"hybrid scoped 1 doc   {percentiles(timed(run('hybrid', one_doc), n))}")
    one_cat = Scope(categories=frozenset({"cat3"}))
    print(f"hybrid scoped 1/7 cat {percentiles(timed(run('hybrid', one_cat), n))}")


def measure_replace(index: HybridIndex, docs: dict[str, list[IndexedBlock]], reps: int = 50) -> None:
    rng = np.random.default_rng(2)
    doc_ids = list(docs)

    def replace_one() -> None:
        doc = doc_ids[int(rng.integers(len(doc_ids)))]
        index.replace_documents({doc: docs[doc]})

    print(f"replace one document  {percentiles(timed(replace_one, reps))} "
          f"({len(docs[doc_ids[0]])} blocks with vectors)")


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="HybridIndex speed and memory")
    p.add_argument("--blocks", type=int, default=100_000)
    p.add_argument("--dim", type=int, default=768)
    p.add_argument("--blocks-per-doc", type=int, default=20)
    p.add_argument("--queries", type=int, default=200)
    args = p.parse_args(argv)
    proc = psutil.Process()
    rss0 = proc.memory_info().rss

    started = time.perf_counter()
    docs = make_blocks(args.blocks, args.dim, args.blocks_per_doc)
    print(f"generated {args.blocks} blocks ({len(docs)} documents) in {time.perf_counter() - started:.1f}s")
    rss_data = proc.memory_info().rss

    index = HybridIndex()
    started = time.perf_counter()
    index.replace_documents(docs)
    print(f"build (text + vectors, one replace_documents): {time.perf_counter() - started:.1f}s")
    rss_built = proc.memory_info().rss
    print(f"stats: {index.stats()}")
    print(f"RSS: start {rss0 / 2**20:.0f} MiB, with blocks in memory {rss_data / 2**20:.0f} MiB, "
          f"with index {rss_built / 2**20:.0f} MiB (index adds ~{(rss_built - rss_data) / 2**20:.0f} MiB)")
    measure_queries(index, docs, args.queries, args.dim)
    measure_replace(index, docs)
    print(f"after replacements: {index.stats()}; RSS {proc.memory_info().rss / 2**20:.0f} MiB")


if __name__ == "__main__":
    main()
