"""The document-name channel: a question word no block holds but a document's name does.

A table's rows do not repeat what the table is about and a slide deck's slides rarely name the deck:
"How many penguin species are in the data?" asks about `palmer-penguins.csv`, none of whose passages says
"penguin". BM25 never sees file names, and the judgement reads a passage with its document's name
(backend/retrieval/relevance.py, `context_of`) only for passages some channel found. So a question word
that no block holds is looked up among the documents' names, and in the keyword channel each block of a
document so named scores as if it held the word once at the average length: BM25 adds the word's weight
(the idf of a word no block holds, the highest there is) to its score for the question's other words
(backend/retrieval/pipeline.py, `with_names`). The name is a field of every passage, as BM25F would have
it, read only for the words the passages lack; a word the text holds is found there.

A question whose every word some block holds ranks exactly as before; so does one whose unknown words
name no document. A name is read as the judgement reads it: the file name without its extension, its
separators as spaces, analysed in both languages (a name has no language of its own to detect).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from backend.retrieval.bm25 import KeywordStatistics
from backend.retrieval.relevance import Word, context_of
from backend.retrieval.tokenizer import Analyzer


class NamedDocument(NamedTuple):
    """A document whose name holds some of the terms looked up: those terms, and its category (for scopes)."""

    document_id: str
    category: str | None
    terms: frozenset[str]


@dataclass(frozen=True)
class Named:
    """Documents a question names, and the weight their names add to each of their blocks' keyword score."""

    weight: float
    documents: tuple[tuple[str, str | None], ...]  # (document id, category)


def name_terms(analyzer: Analyzer, filename: str) -> frozenset[str]:
    """The index terms of a document's name, as a question word's terms are matched against it."""
    return frozenset(analyzer.terms(context_of(filename, None), "und"))


def named_groups(found: Sequence[NamedDocument], unknown: Sequence[Word],
                 stats: KeywordStatistics) -> tuple[Named, ...]:
    """The documents `found`, grouped by the weight their names add: the weight of each unknown word whose
    terms the name holds (a word no block holds weighs the highest idf), heaviest first."""
    by_weight: dict[float, list[tuple[str, str | None]]] = {}
    for doc in found:
        weight = sum(stats.idf(word.terms[0]) for word in unknown if doc.terms.intersection(word.terms))
        by_weight.setdefault(weight, []).append((doc.document_id, doc.category))
    return tuple(Named(weight, tuple(docs)) for weight, docs in sorted(by_weight.items(), reverse=True))
