"""Is a passage relevant enough to answer from? The signal behind "your documents do not cover this".

`coverage` is the idf-weighted share of the query's terms that a passage contains, each term counted
with BM25's term factor capped at 1 (a term occurring once in a passage of average length counts fully,
in a longer passage a little less). Terms no block contains are weighted as if one block did — the
highest weight a term can have — so a question about something the vault never mentions scores low even
when it shares a common word ("pressure", "world") with it.

Why this score and not another: it is a ratio in the query's own units, so it compares across queries
(raw BM25 grows with the query's length and rarity); it needs no vector, so it works the same with the
embedding model down; it is the same for every embedding model (cosines are not: a threshold calibrated
on all-MiniLM-L6-v2 would mean something else for embeddinggemma); and a small vault does not break it
(idf flattens as the vault shrinks, and the score tends to the plain share of query terms found). Its
blind spot is a question sharing no word with the passage that answers it (a paraphrase, another
language); the user can still ask to see the closest passages. Calibration: `RELEVANT_COVERAGE` was
chosen on the tuning half of Cranfield and a set of off-topic questions (scripts/eval_relevance.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from backend.retrieval.bm25 import BM25Params, KeywordStatistics
from backend.retrieval.tokenizer import Analyzer

# The lowest coverage of a relevant passage (see scripts/eval_relevance.py for how it was chosen).
RELEVANT_COVERAGE = 0.35


def query_terms(analyzer: Analyzer, query: str) -> list[tuple[str, ...]]:
    """The query's words as groups of alternative index terms (a word of undetermined language has an
    English and a German stem); stop words are dropped — of either language when the query's is
    undetermined, since a short question often is and its "what", "is", "on" must not count."""
    tokens = analyzer.tokens(query)
    language = analyzer.detect_language(tokens)
    groups = []
    for token in tokens:
        terms = tuple(dict.fromkeys(analyzer.terms(token, language)))
        if terms and (language != "und" or (analyzer.terms(token, "en") and analyzer.terms(token, "de"))):
            groups.append(terms)
    return groups


def coverage(groups: Sequence[tuple[float, tuple[str, ...]]], terms: Sequence[str], average_length: float,
             params: BM25Params) -> float:
    """Share of the query's weight covered by a passage whose index terms are `terms`. `groups`: each
    query word's weight and alternative terms. A query without any term gives 1.0: nothing to judge by."""
    total = sum(weight for weight, _ in groups)
    if total <= 0.0:
        return 1.0
    counts = Counter(terms)
    norm = params.k1 * (1.0 - params.b + params.b * len(terms) / max(average_length, 1e-9))

    def factor(tf: int) -> float:
        return min(1.0, tf * (params.k1 + 1.0) / (tf + norm))

    return sum(weight * max(factor(counts[t]) for t in alts) for weight, alts in groups) / total


class Judge:
    """`coverage` of passages for one query, against one state of the keyword channel's statistics (`stats`
holds the document frequencies of the query's terms)."""

    def __init__(self, analyzer: Analyzer, stats: KeywordStatistics, params: BM25Params, query: str) -> None:
        self._analyzer = analyzer
        self._params = params
        # A word's weight: the idf of its best-known alternative (a word the vault lacks: the rarest idf).
        self._groups = [(min(stats.idf(t) for t in alts), alts) for alts in query_terms(analyzer, query)]
        self._average = stats.average_length

    def __call__(self, text: str) -> float:
        terms = self._analyzer.terms(text, self._analyzer.language_of(text))
        return round(coverage(self._groups, terms, self._average, self._params), 4)


def is_relevant(score: float) -> bool:
    return score >= RELEVANT_COVERAGE
