"""Retrieval quality on the corpus dev set, a judged collection built here and never tuned on: each
on-topic question of scripts/data/corpus_questions.jsonl is judged by the file that answers it (graded 1
for every passage of that file), over `../shared/corpus` read by the product's extractors (scripts/devset.py).

nDCG@10 counts the answering file's first passage only (gain 1 at its rank, ideal 1 at rank 1, so it is
1 / log2(rank + 1)); MRR@10 likewise. Rows: BM25, dense, and the shipped hybrid (plain RRF, k = 60), on
both halves as the file splits them.

    python scripts/eval_devset.py [--embedder standin|local|hash]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.retrieval.types import SearchMode
from scripts.devset import corpus_index, questions
from scripts.eval_relevance import embedder_of
from scripts.eval_retrieval import TEST, TUNING


def first_rank(files: list[str], wanted: str) -> int | None:
    """The 1-based rank of the first passage of `wanted` among the top 10, if any."""
    return next((i for i, f in enumerate(files[:10], start=1) if f == wanted), None)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--embedder", choices=("standin", "local", "hash"), default="standin")
    args = p.parse_args(argv)
    label, embed = embedder_of(args.embedder, None)
    assert embed is not None
    index = corpus_index(lambda texts: embed(list(texts), "devset-corpus"))
    asked = [q for q in questions() if q.on_topic and q.file]
    vectors = dict(zip((q.text for q in asked), embed([q.text for q in asked], "devset-questions"), strict=True))
    print(f"corpus dev set: {sum(q.half == TUNING for q in asked)} tuning / {sum(q.half == TEST for q in asked)} "
          f"test on-topic questions judged by their file; embedder {label}")
    print(f"{'run':<22}" + "".join(f"{h + ' nDCG@10':>16}{h + ' MRR@10':>15}" for h in (TUNING, TEST)))
    modes: tuple[tuple[str, SearchMode], ...] = (("sparse (BM25)", "sparse"), ("dense", "dense"),
                                                 ("hybrid (shipped)", "hybrid"))
    for name, mode in modes:
        cells = []
        for half in (TUNING, TEST):
            ndcg = mrr = 0.0
            chosen = [q for q in asked if q.half == half]
            for q in chosen:
                hits = index.search(q.text, 10, mode=mode, query_vector=vectors[q.text])
                rank = first_rank([h.document_id for h in hits], str(q.file))
                ndcg += 1 / math.log2(rank + 1) if rank else 0.0
                mrr += 1 / rank if rank else 0.0
            cells.append(f"{ndcg / len(chosen):>16.4f}{mrr / len(chosen):>15.4f}")
        print(f"{name:<22}" + "".join(cells))


if __name__ == "__main__":
    main()
