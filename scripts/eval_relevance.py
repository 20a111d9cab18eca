"""Calibration of "your documents do not cover this": on-topic questions kept, off-topic ones refused.

A question counts as covered when at least one of its chat-sized results (k = 7) is relevant
(backend/retrieval/relevance.py: coverage at the threshold, no word the vault lacks left out). Two dev
sets, each split in halves fixed before any run:

- **corpus**: `../shared/corpus` read by the product's extractors, with `scripts/data/corpus_questions.jsonl`
  (on-topic questions written from the documents with where their answer stands, off-topic ones half
  sharing the vault's words, some in German; how they were made: scripts/devset.py). The half is in the file.
- **cranfield** (`--collection`): the collection's queries are the on-topic questions (split as
  `eval_retrieval.split_of` splits them), `scripts/data/offtopic_queries.txt` the off-topic ones (odd lines
  tune, even lines test).
- **one-document**: the vault a student often starts with, one file. Each on-topic corpus question is asked
  of its answer's document alone; each off-topic question (the corpus's and Cranfield's) of every corpus
  document alone, a question and document pair counting once. Most of a question's words are unknown to
  such a vault, so it tests the veto of unknown words rather than the threshold.

The threshold is chosen on the tuning halves only — the highest on the grid that keeps at least
`--min-kept` (95%) of the on-topic tuning questions of the corpus and Cranfield sets in every mode, less one
grid step as a margin — and the rates are reported for both halves; figures come from the test halves.
`VETO_BELOW` (relevance.py) was chosen on the tuning halves too, by editing it: the lowest of 0.5, 0.55 …
0.7 at which no set refuses fewer off-topic tuning questions than with no such limit (0.55 let one more
Cranfield question through; 0.6 kept one-document on-topic questions 86.2 % instead of 79.3 %). When the
limit became the share of the question's weight a passage holds rather than its coverage, the same rule
chose 0.6 again (keyword only: 0.55 let one more Cranfield and two more one-document off-topic questions
through; 0.65 kept one one-document on-topic question fewer). Modes: hybrid (dense + sparse) and keyword
only (the embedding model down).

    python scripts/eval_relevance.py [--embedder standin|local|hash|none] [--local-model NAME]
        [--collection DIR] [--threshold T]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.llm.local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS
from backend.retrieval import pipeline
from backend.retrieval.bm25 import BM25Params
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.relevance import RELEVANT_COVERAGE, context_of
from backend.retrieval.tokenizer import Analyzer
from scripts.devset import corpus_blocks, corpus_index, index_of, questions, standin_embedder
from scripts.eval_retrieval import (
    TEST,
    TUNING,
    build_index,
    cached_embed,
    load_collection,
    make_embedder,
    split_of,
)
from scripts.shared_data import CRANFIELD

OFF_TOPIC = ROOT / "scripts" / "data" / "offtopic_queries.txt"
CHAT_K = 7
ONE_DOCUMENT = "one-document"
GRID = [round(0.05 * i, 2) for i in range(2, 17)]
Embed = Callable[[Sequence[str]], np.ndarray]
# (set, on/off, half) → the questions
Sets = dict[tuple[str, str, str], list[str]]
# Per question, its best unvetoed coverage among the k results (0 if none), and its best overall.
Scores = dict[tuple[str, str, str, str], np.ndarray]  # (mode, set, on/off, half)


def off_topic_questions(path: Path) -> dict[str, list[str]]:
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    found = [line for line in lines if line and not line.startswith("#")]
    return {TUNING: found[0::2], TEST: found[1::2]}


def best_coverage(index: HybridIndex, asked: Sequence[str], vectors: Sequence[np.ndarray | None]) -> np.ndarray:
    """Per question, the highest coverage among its k = 7 results that no unknown word vetoes (0 if none)."""
    out = []
    for question, vector in zip(asked, vectors, strict=True):
        judge = pipeline.prepare(index.view(), question).judge  # as the search judges, typos' corrections too
        judged = [judge(h.text, context_of(h.filename, h.section))
                  for h in index.search(question, CHAT_K, query_vector=vector)]
        out.append(max((j.relevance for j in judged if not j.vetoed), default=0.0))
    return np.array(out)


def measure_one_document(sets: Sets, embed: Callable[[list[str], str], np.ndarray] | None, scores: Scores) -> None:
    """The corpus questions asked of one-document vaults (see the module): an on-topic question of its
    answer's document alone, an off-topic one of every document alone."""
    indexes = {doc: index_of({doc: found}, (lambda t, d=doc: embed(list(t), f"devset-one-{d}")) if embed else None)
               for doc, found in corpus_blocks().items()}
    embed_questions: Embed | None = (lambda t: embed(list(t), "devset-questions")) if embed else None
    for half in (TUNING, TEST):
        on = [q for q in questions() if q.half == half and q.on_topic and q.file in indexes]
        off = sets["corpus", "off", half] + sets["cranfield", "off", half]
        for mode in modes_of(embed_questions):
            on_vectors = query_vectors([q.text for q in on], mode, embed_questions)
            off_vectors = query_vectors(off, mode, embed_questions)
            scores[mode, ONE_DOCUMENT, "on", half] = np.concatenate(
                [best_coverage(indexes[q.file or ""], [q.text], [v]) for q, v in zip(on, on_vectors, strict=True)])
            scores[mode, ONE_DOCUMENT, "off", half] = np.concatenate(
                [best_coverage(index, off, off_vectors) for index in indexes.values()])


def modes_of(embed: Embed | None) -> tuple[str, ...]:
    """The modes measured: hybrid only when there is a model to embed the questions."""
    return ("hybrid", "keyword only") if embed is not None else ("keyword only",)


def query_vectors(asked: Sequence[str], mode: str, embed: Embed | None) -> list[np.ndarray | None]:
    """The questions' vectors in hybrid mode; none in keyword-only mode."""
    return list(embed(asked)) if mode == "hybrid" and embed is not None else [None] * len(asked)


def choose(on: Sequence[np.ndarray], min_kept: float) -> float:
    """One grid step below the highest threshold keeping at least `min_kept` of every on-topic set."""
    ok = [i for i, t in enumerate(GRID) if all((scores >= t).mean() >= min_kept for scores in on)]
    return GRID[max(max(ok) - 1, 0)] if ok else GRID[0]


def measure(name: str, index: HybridIndex, sets: Sets, embed: Embed | None, scores: Scores) -> None:
    for (set_name, kind, half), asked in sets.items():
        if set_name != name:
            continue
        for mode in modes_of(embed):
            scores[mode, name, kind, half] = best_coverage(index, asked, query_vectors(asked, mode, embed))


def report(scores: Scores, threshold: float, min_kept: float) -> None:
    modes = sorted({m for m, *_ in scores})
    names = sorted({n for _, n, *_ in scores})
    print("\ntuning halves: on-topic kept / off-topic refused by threshold")
    print(f"{'threshold':<11}" + "".join(f"{n + ' ' + m:>34}" for n in names for m in modes))
    for t in GRID:
        print(f"{t:<11.2f}" + "".join(
            f"{(scores[m, n, 'on', TUNING] >= t).mean():>20.1%} /"
            f"{(scores[m, n, 'off', TUNING] < t).mean():>7.1%}    "
            for n in names for m in modes))
    chosen = choose([scores[m, n, "on", TUNING] for m in modes for n in names if n != ONE_DOCUMENT], min_kept)
    print(f"\nrule: one grid step below the highest threshold keeping >= {min_kept:.0%} of every on-topic tuning "
          f"set in every mode -> {chosen:.2f}; shipped RELEVANT_COVERAGE = {RELEVANT_COVERAGE:.2f}")
    print(f"\nat threshold {threshold:.2f}:")
    print(f"{'set':<14}{'mode':<14}{'half':<8}{'on-topic kept':>15}{'off-topic refused':>19}")
    for n in names:
        for m in modes:
            for half in (TUNING, TEST):
                kept, refused = scores[m, n, "on", half] >= threshold, scores[m, n, "off", half] < threshold
                print(f"{n:<14}{m:<14}{half:<8}{kept.mean():>8.1%} ({int(kept.sum())}/{len(kept)})"
                      f"{refused.mean():>10.1%} ({int(refused.sum())}/{len(refused)})")


def embedder_of(name: str, local_model: str | None) -> tuple[str, Callable[[list[str], str], np.ndarray] | None]:
    """The embedder's name and `embed(texts, cache label)`; the stand-in's vectors are not cached."""
    if name == "standin":
        standin = standin_embedder()
        return "stand-in hashed (tests/support/fake_ollama.py, 64-d)", lambda texts, _label: standin(texts)
    model = make_embedder(name, local_model)  # type: ignore[arg-type]
    if model is None:
        return "none", None
    return model.model, lambda texts, label: cached_embed(model, texts, label)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--collection", type=Path, default=CRANFIELD,
                   help="a folder in the Cranfield format (corpus.jsonl, queries.jsonl, qrels.tsv)")
    p.add_argument("--embedder", choices=("standin", "local", "hash", "none"), default="standin")
    p.add_argument("--local-model", choices=tuple(LOCAL_MODELS), default=None,
                   help=f"the in-process model of --embedder local; default {DEFAULT_LOCAL_MODEL}")
    p.add_argument("--off-topic", type=Path, default=OFF_TOPIC)
    p.add_argument("--min-kept", type=float, default=0.95)
    p.add_argument("--sets", default=f"corpus,cranfield,{ONE_DOCUMENT}", help="the dev sets to run, comma-separated")
    p.add_argument("--threshold", type=float, default=None,
                   help="report the rates at this threshold instead of the shipped one")
    args = p.parse_args(argv)
    label, embed = embedder_of(args.embedder, args.local_model)
    coll = load_collection(args.collection)
    off = off_topic_questions(args.off_topic)
    sets: Sets = {}
    for half in (TUNING, TEST):
        sets["cranfield", "on", half] = [coll.queries[q] for q in coll.queries
                                         if q in coll.qrels and split_of(q) == half]
        sets["cranfield", "off", half] = off[half]
        for kind in ("on", "off"):
            sets["corpus", kind, half] = [q.text for q in questions()
                                          if q.half == half and q.on_topic == (kind == "on")]
    scores: Scores = {}
    chosen = args.sets.split(",")
    if "cranfield" in chosen:
        doc_vecs = embed(list(coll.docs.values()), "corpus") if embed else None
        cranfield = build_index(coll, Analyzer(), BM25Params(), doc_vecs)
        measure("cranfield", cranfield, sets, (lambda t: embed(list(t), "relevance")) if embed else None, scores)
    if "corpus" in chosen:
        corpus = corpus_index((lambda t: embed(list(t), "devset-corpus")) if embed else None)
        measure("corpus", corpus, sets, (lambda t: embed(list(t), "devset-questions")) if embed else None, scores)
    if ONE_DOCUMENT in chosen:
        measure_one_document(sets, embed, scores)
    print(f"embedder {label}; k = {CHAT_K}; " + "; ".join(
        f"{n}: on-topic {len(sets[n, 'on', TUNING])} tuning / {len(sets[n, 'on', TEST])} test, off-topic "
        f"{len(sets[n, 'off', TUNING])} / {len(sets[n, 'off', TEST])}" for n in chosen if n != ONE_DOCUMENT))
    report(scores, args.threshold if args.threshold is not None else RELEVANT_COVERAGE, args.min_kept)


if __name__ == "__main__":
    main()
