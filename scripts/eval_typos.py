"""Typo-tolerant search, measured: each judged question asked as written and with a typo in its longest
word, with the fuzzy channel (shipped, backend/retrieval/fuzzy.py) and without it, on both halves of
both dev sets — the corpus dev set (scripts/data/corpus_questions.jsonl over `../shared/corpus`) and
Cranfield's judged queries.

The typo (`misspell`) is made without looking at the index: in the question's longest word of five
letters or more, one edit whose kind (a letter dropped, doubled, swapped with its neighbour, or struck as
the key beside it) and place (never the first letter) are drawn from SHA-256 of the question's id.

Printed per set and half: nDCG@10 as written and misspelt, each without and with the fuzzy channel
(Cranfield: its graded judgements; corpus: the answering file's first passage, as scripts/eval_devset.py
counts it), and the share of on-topic questions the judgement keeps (a relevant result among the chat's
k = 7, as scripts/eval_relevance.py counts it). "As written" is the check that correct queries do not
get worse; "misspelt" what the channel is for.

    python scripts/eval_typos.py [--embedder standin|local|hash|none] [--collection DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.retrieval.bm25 import BM25Params
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.relevance import RELEVANT_COVERAGE
from backend.retrieval.tokenizer import Analyzer
from scripts.devset import corpus_index, questions
from scripts.eval_relevance import CHAT_K, best_coverage, embedder_of
from scripts.eval_retrieval import TEST, TUNING, build_index, load_collection, ndcg, split_of
from scripts.shared_data import CRANFIELD

# Each letter's neighbours on a QWERTZ/QWERTY keyboard (the row and the keys above and below).
_ROWS = ["qwertzuiopü", "asdfghjklöä", "yxcvbnm"]
_WORD = re.compile(r"[^\W\d_]{5,}")
KINDS = ("drop", "double", "swap", "neighbour")


def _neighbours(letter: str) -> str:
    for r, row in enumerate(_ROWS):
        if letter in row:
            i = row.index(letter)
            near = row[max(i - 1, 0):i] + row[i + 1:i + 2]
            for other in (r - 1, r + 1):
                if 0 <= other < len(_ROWS):
                    near += _ROWS[other][max(i - 1, 0):i + 1]
            return near
    return "e"


def misspell(question_id: str, text: str) -> str:
    """`text` with one typo in its longest word of at least five letters (unchanged if it has none)."""
    words = list(_WORD.finditer(text))
    if not words:
        return text
    word = max(words, key=lambda m: len(m.group(0)))  # the first of the longest
    draw = hashlib.sha256(f"quire-typo:{question_id}".encode()).digest()
    letters = word.group(0)
    at = 1 + draw[1] % (len(letters) - 2)  # 1 .. len - 2: neither the first letter nor past the last pair
    kind = KINDS[draw[0] % len(KINDS)]
    if kind == "drop":
        typo = letters[:at] + letters[at + 1:]
    elif kind == "double":
        typo = letters[:at] + letters[at] + letters[at:]
    elif kind == "swap" and letters[at] != letters[at + 1]:
        typo = letters[:at] + letters[at + 1] + letters[at] + letters[at + 2:]
    else:  # the key beside it
        near = _neighbours(letters[at].lower())
        typo = letters[:at] + near[draw[2] % len(near)] + letters[at + 1:]
    return text[:word.start()] + typo + text[word.end():]


@dataclass(frozen=True)
class Asked:
    id: str
    text: str
    half: str
    relevant: dict[str, int]  # document id → graded gain
    first_only: bool  # the corpus: only the answering file's first passage counts


Embed = Callable[[Sequence[str]], np.ndarray]


def score(index: HybridIndex, asked: Sequence[Asked], texts: Sequence[str], embed: Embed | None) -> list[float]:
    vectors: list[np.ndarray | None] = list(embed(texts)) if embed is not None else [None] * len(texts)
    out = []
    for q, text, vector in zip(asked, texts, vectors, strict=True):
        docs = [h.document_id for h in index.search(text, 10, query_vector=vector)]
        if q.first_only:
            rank = next((i for i, d in enumerate(docs, start=1) if d in q.relevant), None)
            out.append(1 / math.log2(rank + 1) if rank else 0.0)
        else:
            out.append(ndcg(docs, q.relevant, 10))
    return out


def kept(index: HybridIndex, texts: Sequence[str], embed: Embed | None) -> np.ndarray:
    vectors: list[np.ndarray | None] = list(embed(texts)) if embed is not None else [None] * len(texts)
    return best_coverage(index, texts, vectors) >= RELEVANT_COVERAGE


def report(name: str, indexes: dict[bool, HybridIndex], asked: list[Asked], embed: Embed | None) -> None:
    print(f"\n{name}: {sum(q.half == TUNING for q in asked)} tuning / {sum(q.half == TEST for q in asked)} test "
          f"questions; k = {CHAT_K} for the judgement")
    print(f"{'half':<8}{'':<12}{'nDCG@10 fuzzy off':>19}{'on':>9}{'kept off':>11}{'on':>9}")
    for half in (TUNING, TEST):
        chosen = [q for q in asked if q.half == half]
        for label, texts in (("as written", [q.text for q in chosen]),
                             ("misspelt", [misspell(q.id, q.text) for q in chosen])):
            cells = [float(np.mean(score(indexes[on], chosen, texts, embed))) for on in (False, True)]
            rates = [float(kept(indexes[on], texts, embed).mean()) for on in (False, True)]
            print(f"{half:<8}{label:<12}{cells[0]:>19.4f}{cells[1]:>9.4f}{rates[0]:>11.1%}{rates[1]:>9.1%}")


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--embedder", choices=("standin", "local", "hash", "none"), default="standin")
    p.add_argument("--collection", type=Path, default=CRANFIELD)
    p.add_argument("--sets", default="corpus,cranfield", help="the dev sets to run, comma-separated")
    p.add_argument("--show", action="store_true", help="print each tuning question's typo")
    args = p.parse_args(argv)
    label, embed = embedder_of(args.embedder, None)
    print(f"embedder {label}")
    chosen = args.sets.split(",")
    if "corpus" in chosen:
        on_topic = [q for q in questions() if q.on_topic and q.file]
        asked = [Asked(q.id, q.text, q.half, {str(q.file): 1}, True) for q in on_topic]
        doc_embed = (lambda t: embed(list(t), "devset-corpus")) if embed else None
        indexes = {on: corpus_index(doc_embed, fuzzy=on) for on in (False, True)}
        report("corpus", indexes, asked, (lambda t: embed(list(t), "devset-typos")) if embed else None)
        _show(args.show, asked)
    if "cranfield" in chosen:
        coll = load_collection(args.collection)
        asked = [Asked(q, coll.queries[q], split_of(q), coll.qrels[q], False) for q in coll.queries if q in coll.qrels]
        vectors = embed(list(coll.docs.values()), "corpus") if embed else None
        indexes = {on: build_index(coll, Analyzer(), BM25Params(), vectors, fuzzy=on) for on in (False, True)}
        report("cranfield", indexes, asked, (lambda t: embed(list(t), "typos")) if embed else None)
        _show(args.show, asked)


def _show(show: bool, asked: list[Asked]) -> None:
    for q in asked:
        if show and q.half == TUNING:
            print(f"  {q.id}: {misspell(q.id, q.text)}")


if __name__ == "__main__":
    main()
