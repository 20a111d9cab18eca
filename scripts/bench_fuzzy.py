"""What the fuzzy channel costs: building the trigram lookup, looking a typo up, and the time it adds to a
search, on a synthetic vocabulary of `--terms` index terms (default 100,000).

The vocabulary is made of pseudo-words (two to five syllables of a small set, so that many words lie a few
edits apart: a harder case than a real language's), as a vault's blocks would hold them: `--blocks`
blocks of 40–120 words drawn by Zipf's law, their terms given to the index as ingestion caches them.
Printed, with the load average:

- build: `FuzzyVocabulary.add` of the whole vocabulary at once (a startup) and in batches of 500 new terms
  (uploads), and its memory;
- lookup: `FuzzyVocabulary.similar` of `--queries` misspelt vocabulary words (one edit each: a letter
  dropped, doubled, swapped or replaced, at a place drawn at random) — the median and 95th percentile,
  the candidates returned, and how often the word meant was among them;
- search: `HybridIndex.search` (k = 7, keywords only: the query's embedding is no part of this) of a
  two-word query with one word misspelt, with the fuzzy channel and without (`HybridIndex(fuzzy=False)`);
  the difference is the time the channel adds: the lookup, the statistics of the corrections and one
  more BM25 ranking. And a query of correct words, with and without: the channel does no work there.

    python scripts/bench_fuzzy.py [--terms 100000] [--blocks 20000] [--queries 300] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.retrieval.fuzzy import FuzzyVocabulary, correctable
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.types import IndexedBlock

SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "te", "vi", "do", "pa", "re", "gu", "fo", "li", "ba", "ze",
             "to", "mu", "ni", "ha", "ver", "ge", "schaf", "lung", "tra", "ber", "ei", "st", "ung", "keit")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.update("".join(rng.choice(SYLLABLES, size=int(rng.integers(2, 6)))) for _ in range(size - len(words)))
    return sorted(words)[:size]


def misspelt(word: str, rng: np.random.Generator) -> str:
    at = int(rng.integers(1, len(word) - 1))
    kind = int(rng.integers(4))
    if kind == 0:
        return word[:at] + word[at + 1:]
    if kind == 1:
        return word[:at] + word[at] + word[at:]
    if kind == 2 and word[at] != word[at + 1]:
        return word[:at] + word[at + 1] + word[at] + word[at + 2:]
    return word[:at] + str(rng.choice([c for c in LETTERS if c != word[at]])) + word[at + 1:]


def blocks(vocab: list[str], n: int, rng: np.random.Generator) -> list[IndexedBlock]:
    """`n` blocks whose cached terms are Zipf-drawn words of `vocab`; every word is held by some block."""
    order = rng.permutation(len(vocab))
    out = []
    for i in range(n):
        drawn = order[np.minimum(rng.zipf(1.3, size=int(rng.integers(40, 121))), len(vocab)) - 1].tolist()
        drawn += order[i::n].tolist()  # the rare words: each once somewhere
        terms, counts = np.unique(np.asarray(drawn), return_counts=True)
        words = [vocab[t] for t in terms]
        out.append(IndexedBlock(id=f"b{i}", document_id=f"d{i // 20}", filename=f"d{i // 20}.txt", category=None,
                                ordinal=i % 20, page=None, section=None, kind="text", text=" ".join(words),
                                terms=(" ".join(words), counts.astype("<u4").tobytes())))
    return out


def timed(run: Callable[[], object], repeat: int = 1) -> float:
    """Milliseconds of the fastest of `repeat` runs (the machine's load only ever adds)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def spread(ms: Sequence[float]) -> str:
    ordered = sorted(ms)
    return f"p50 {statistics.median(ordered):.2f} ms, p95 {ordered[int(0.95 * (len(ordered) - 1))]:.2f} ms"


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--terms", type=int, default=100_000)
    p.add_argument("--blocks", type=int, default=20_000)
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--smoke", action="store_true", help="a small size, to check the script runs (the suite)")
    args = p.parse_args(argv)
    if args.smoke:
        args.terms, args.blocks, args.queries = 3_000, 600, 30
    rng = np.random.default_rng(7)
    vocab = vocabulary(args.terms, rng)
    kept = [w for w in vocab if correctable(w)]
    print(f"vocabulary: {len(vocab):,} terms, {len(kept):,} of them correctable; {load()}")

    whole = FuzzyVocabulary()
    build_ms = timed(lambda: whole.add(vocab))
    batched = FuzzyVocabulary()
    batch_ms = [timed(lambda i=i: batched.add(vocab[i:i + 500])) for i in range(0, len(vocab), 500)]
    print(f"build: all at once {build_ms:.0f} ms; in batches of 500 new terms {spread(batch_ms)} per batch "
          f"({sum(batch_ms):.0f} ms in all); {whole.nbytes / 2**20:.1f} MiB")

    meant = [str(w) for w in rng.choice(kept, size=args.queries, replace=False)]
    typos = [misspelt(w, rng) for w in meant]
    lookups, found, candidates = [], 0, 0
    for word, typo in zip(meant, typos, strict=True):
        started = time.perf_counter()
        close = whole.similar(typo)
        lookups.append((time.perf_counter() - started) * 1000)
        candidates += len(close)
        found += word in {term for term, _ in close} or word == typo
    print(f"lookup of a misspelt word: {spread(lookups)}; {candidates / len(typos):.1f} candidates on average; "
          f"the word meant found for {found} of {len(typos)}; {load()}")

    fuzzy, plain = HybridIndex(), HybridIndex(fuzzy=False)
    made = blocks(vocab, args.blocks, rng)
    for index in (fuzzy, plain):
        index.replace_documents({doc: [b for b in made if b.document_id == doc]
                                 for doc in dict.fromkeys(b.document_id for b in made)})
    common = [str(w) for w in rng.choice(kept, size=args.queries)]
    for label, queries in (("one word misspelt", [f"{c} {t}" for c, t in zip(common, typos, strict=True)]),
                           ("words as written", [f"{c} {w}" for c, w in zip(common, meant, strict=True)])):
        with_ms = [timed(lambda q=q: fuzzy.search(q, 7), repeat=3) for q in queries]
        without_ms = [timed(lambda q=q: plain.search(q, 7), repeat=3) for q in queries]
        added = [a - b for a, b in zip(with_ms, without_ms, strict=True)]
        print(f"search, {label} ({args.blocks:,} blocks): with the fuzzy channel {spread(with_ms)}, without "
              f"{spread(without_ms)}; added {spread(added)}; {load()}")


if __name__ == "__main__":
    main()
