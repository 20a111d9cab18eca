"""A ranked passage as the user sees it: the `Hit` both search modes return, with its snippet.

The snippet is the window of the passage holding the most query weight, so a result shows why it matched.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from backend.retrieval.relevance import Judge, context_of
from backend.retrieval.repeats import Passage
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Hit

SNIPPET_CHARS = 240


def make_hit(passage: Passage, weights: dict[str, float], judge: Judge, analyzer: Analyzer) -> Hit:
    """A distinct passage as a search hit (both search modes build their hits here): shown at its earliest
    place, ranked as its best-ranked copy."""
    block_id, block = passage.shown
    sparse_rank, dense_rank = passage.fused.ranks[:2]
    judged = judge(block.text, context_of(block.filename, block.section))
    return Hit(block_id=block_id, document_id=block.document_id, filename=block.filename,
               page=block.page, section=block.section, kind=block.kind, text=block.text,
               snippet=snippet(block.text, weights, analyzer), score=passage.fused.score,
               dense_rank=dense_rank, sparse_rank=sparse_rank, relevance=judged.relevance,
               relevant=judged.relevant, page_label=block.page_label, document_kind=block.document_kind,
               also_at=passage.also_at)


def snippet(text: str, weights: Mapping[str, float], analyzer: Analyzer, width: int = SNIPPET_CHARS) -> str:
    """The ~`width`-character window of `text` (cut at word boundaries) holding the most query weight.

    A window scores the summed weight of the distinct query terms it contains, so a rare term counts more
    than a common one and a repeated word cannot crowd out the others; the window is then centred on its
    matches. No match (a dense-only hit): the text's beginning. Whitespace is collapsed to single spaces.
    """
    words = text.split()
    if len(text) <= width or not words:  # a short text: the window widens to all of it, wherever centred
        return " ".join(words)
    # starts[i] = offset of word i in the whitespace-collapsed text; starts[-1] - 1 = its length.
    starts = list(itertools.accumulate([len(w) + 1 for w in words], initial=0))
    if not weights:
        return _cut(words, *_centred(starts, 0, 0, width))
    word_terms = analyzer.word_terms(words, analyzer.language_of(text))
    query_terms = set(weights)  # a set's isdisjoint is faster than a dict view's
    matched = [i for i, terms in enumerate(word_terms) if not query_terms.isdisjoint(terms)]
    if not matched:
        return _cut(words, *_centred(starts, 0, 0, width))
    return _cut(words, *_centred(starts, *_best_span(starts, matched, word_terms, weights, width), width))


def _best_span(starts: list[int], matched: list[int], word_terms: list[tuple[str, ...]],
               weights: Mapping[str, float], width: int) -> tuple[int, int]:
    """(first, last) matched word of the best-scoring window of at most `width` chars: two pointers over
    the matched words only, adding a term's weight when its count rises to 1 and taking it off at 0."""
    terms = [[t for t in word_terms[i] if t in weights] for i in matched]
    ends = [starts[i + 1] - 1 for i in matched]  # where each matched word ends
    best, best_span = -1.0, (matched[0], matched[0])
    counts: dict[str, int] = {}
    score, b = 0.0, 0
    for a, first in enumerate(matched):
        limit = starts[first] + width
        while b < len(matched) and ends[b] <= limit:
            for t in terms[b]:
                counts[t] = counts.get(t, 0) + 1
                if counts[t] == 1:
                    score += weights[t]
            b += 1
        if score > best + 1e-12:
            best, best_span = score, (first, matched[max(b - 1, a)])
        for t in terms[a]:
            counts[t] = counts.get(t, 0) - 1  # a word longer than `width` is taken off before it was added
            if counts[t] == 0:
                score -= weights[t]
    return best_span


def _centred(starts: list[int], first: int, last: int, width: int) -> tuple[int, int]:
    """Word range [i, j) spanning words first..last, widened evenly on both sides up to `width` chars."""
    n = len(starts) - 1
    i, j = first, last + 1
    grew = True
    while grew:
        grew = False
        if i > 0 and starts[j] - 1 - starts[i - 1] <= width:
            i, grew = i - 1, True
        if j < n and starts[j + 1] - 1 - starts[i] <= width:
            j, grew = j + 1, True
    return i, j


def _cut(words: list[str], i: int, j: int) -> str:
    return ("… " if i > 0 else "") + " ".join(words[i:j]) + (" …" if j < len(words) else "")
