"""Calibration of "your documents do not cover this": on-topic questions kept, off-topic ones refused.

A question counts as covered when at least one of its chat-sized results (k = 7) is relevant, i.e. its
coverage (backend/retrieval/relevance.py) reaches the threshold. On-topic questions are the collection's
queries (every one has judged relevant documents); off-topic ones are `scripts/data/offtopic_queries.txt`
(how they were written is said at its top). Both are split in two by a fixed rule: the collection's
queries as `eval_retrieval.split_of` splits them, the off-topic file by line (odd lines tune, even lines
test). The threshold is chosen on the tuning halves only — the highest that keeps at least
`--min-kept` (95%) of the on-topic questions in both modes — and the rates are reported on the test
halves. Both modes are measured: hybrid (dense + sparse) and keyword only (the embedding model down).

    python scripts/eval_relevance.py [--collection DIR] [--embedder local|hash|none] [--local-model NAME]
        [--threshold T]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.llm.local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS
from backend.retrieval.bm25 import BM25Params
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.relevance import RELEVANT_COVERAGE
from backend.retrieval.tokenizer import Analyzer
from scripts.eval_retrieval import (
    DEFAULT_COLLECTION,
    TEST,
    TUNING,
    build_index,
    cached_embed,
    default_embedder,
    load_collection,
    make_embedder,
    split_of,
)

OFF_TOPIC = ROOT / "scripts" / "data" / "offtopic_queries.txt"
CHAT_K = 7
GRID = [round(0.05 * i, 2) for i in range(2, 17)]


def off_topic_questions(path: Path) -> dict[str, list[str]]:
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    questions = [line for line in lines if line and not line.startswith("#")]
    return {TUNING: questions[0::2], TEST: questions[1::2]}


def best_coverage(index: HybridIndex, questions: Sequence[str], vectors: Sequence[np.ndarray | None]) -> np.ndarray:
    """Per question, the highest coverage among its k = 7 results (0 when nothing is found)."""
    return np.array([max((h.relevance for h in index.search(q, CHAT_K, query_vector=v)), default=0.0)
                     for q, v in zip(questions, vectors, strict=True)])


def choose(on: Sequence[np.ndarray], min_kept: float) -> float:
    """The highest grid threshold keeping at least `min_kept` of the on-topic questions in every mode."""
    ok = [t for t in GRID if all((scores >= t).mean() >= min_kept for scores in on)]
    return max(ok) if ok else GRID[0]


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--collection", type=Path, default=DEFAULT_COLLECTION,
                   help="a folder in the Cranfield format (corpus.jsonl, queries.jsonl, qrels.tsv)")
    p.add_argument("--embedder", choices=("local", "hash", "none"), default=None)
    p.add_argument("--local-model", choices=tuple(LOCAL_MODELS), default=None,
                   help="the in-process model of --embedder local (QUIRE_LOCAL_EMBED_MODEL's choices); default "
                        f"{DEFAULT_LOCAL_MODEL}, or the other one if only that is installed")
    p.add_argument("--off-topic", type=Path, default=OFF_TOPIC)
    p.add_argument("--min-kept", type=float, default=0.95)
    p.add_argument("--threshold", type=float, default=None,
                   help="report the rates at this threshold instead of the shipped one")
    args = p.parse_args(argv)
    coll = load_collection(args.collection)
    off = off_topic_questions(args.off_topic)
    on = {half: [coll.queries[q] for q in coll.queries if q in coll.qrels and split_of(q) == half]
          for half in (TUNING, TEST)}
    embedder = make_embedder(args.embedder or default_embedder(), args.local_model)
    doc_vecs = cached_embed(embedder, list(coll.docs.values()), "corpus") if embedder else None
    index = build_index(coll, Analyzer(), BM25Params(), doc_vecs)
    scores: dict[tuple[str, str, str], np.ndarray] = {}  # (mode, on/off, half) → best coverage per question
    for mode in ("hybrid", "keyword only"):
        for kind, sets in (("on", on), ("off", off)):
            for half, questions in sets.items():
                vectors: list[np.ndarray | None] = [None] * len(questions)
                if mode == "hybrid" and embedder is not None:
                    vectors = list(cached_embed(embedder, questions, f"relevance-{kind}"))
                scores[mode, kind, half] = best_coverage(index, questions, vectors)
    modes = ("hybrid", "keyword only") if embedder is not None else ("keyword only",)
    print(f"collection {args.collection.name}: on-topic {len(on[TUNING])} tuning / {len(on[TEST])} test "
          f"questions; off-topic {len(off[TUNING])} / {len(off[TEST])}; "
          f"embedder {embedder.model if embedder else 'none'}; k = {CHAT_K}")
    print("\ntuning halves: on-topic kept / off-topic refused by threshold")
    print(f"{'threshold':<11}" + "".join(f"{m + ' kept':>20}{m + ' refused':>22}" for m in modes))
    for t in GRID:
        print(f"{t:<11.2f}" + "".join(f"{(scores[m, 'on', TUNING] >= t).mean():>20.1%}"
                                       f"{(scores[m, 'off', TUNING] < t).mean():>22.1%}" for m in modes))
    chosen = choose([scores[m, "on", TUNING] for m in modes], args.min_kept)
    shown = args.threshold if args.threshold is not None else RELEVANT_COVERAGE
    print(f"\nrule: the highest threshold keeping >= {args.min_kept:.0%} of on-topic tuning questions in every "
          f"mode -> {chosen:.2f}; shipped RELEVANT_COVERAGE = {RELEVANT_COVERAGE:.2f}")
    print(f"\nat threshold {shown:.2f}:")
    print(f"{'mode':<14}{'half':<8}{'on-topic kept':>15}{'off-topic refused':>19}")
    for m in modes:
        for half in (TUNING, TEST):
            print(f"{m:<14}{half:<8}{(scores[m, 'on', half] >= shown).mean():>15.1%}"
                  f"{(scores[m, 'off', half] < shown).mean():>19.1%}")


if __name__ == "__main__":
    main()
