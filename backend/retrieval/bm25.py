"""BM25 (Okapi) in one place: its parameters, its idf, and a query's term weights from the statistics of
whichever search backend holds the keyword index (backend/retrieval/sparse.py in memory, SQL in the
Postgres mode), so both modes weigh a query, and judge a passage, by one definition.

IDF is Lucene's ``ln(1 + (N − df + 0.5) / (df + 0.5))``, which never goes negative for very common terms.
A term's contribution to a block's score is ``weight · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))``
with ``weight = qtf · idf``; the channels compute that sum over their own storage.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class BM25Params:
    """k1 = 1.5, b = 0.75: within the range usual across collections (k1 1.2–2.0, b 0.75), chosen on the
    tuning half of Cranfield (scripts/eval_retrieval.py) by the hybrid search's nDCG@10, not BM25's own.

    Tuning half, hybrid (plain RRF) k1 = 1.2 / 1.5 / 2.0: 0.4207 / 0.4237 / 0.4225. BM25 alone prefers
    2.0 (0.3724 / 0.3748 / 0.3882), the value shipped before: a Cranfield trait not worth chasing, since
    the hybrid search is what ships and a k1 at the edge of the usual range is the kind of choice that
    does not carry over to another collection.
    """

    k1: float = 1.5
    b: float = 0.75


def bm25_idf(blocks: int, df: float) -> float:
    """BM25's idf of a term held by `df` of `blocks` live blocks; a term none holds gets the idf of one
    that one block holds (the highest a term can have here)."""
    held = max(df, 1.0)
    return math.log(1.0 + (blocks - held + 0.5) / (held + 0.5))


@dataclass(frozen=True)
class KeywordStatistics:
    """What BM25 and the relevance judgement need of the keyword index for one query: the live blocks,
    their mean length and the document frequency of the query's terms (a term missing: held by none)."""

    blocks: int
    average_length: float
    df: Mapping[str, int] = field(default_factory=dict)

    def idf(self, term: str) -> float:
        return bm25_idf(self.blocks, float(self.df.get(term, 0)))


def term_weights(terms: Iterable[str], stats: KeywordStatistics) -> dict[str, float]:
    """The weight (query term frequency × idf) of each term some live block holds."""
    return {term: qtf * stats.idf(term) for term, qtf in Counter(terms).items() if stats.df.get(term, 0) > 0}
