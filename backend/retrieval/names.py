"""The document-name channel: a question word no block holds but a document's name does.

A table's rows do not repeat what the table is about and a slide deck's slides rarely name the deck:
"How many penguin species are in the data?" asks about `palmer-penguins.csv`, none of whose passages says
"penguin". BM25 never sees file names, and the judgement reads a passage with its document's name
(backend/retrieval/relevance.py, `context_of`) only for passages some channel found. So, in hybrid and
keyword search, a question word that no block holds is looked up among the documents' names; the
documents named by one are ranked once more by BM25 for the question's other words, within those
documents only, and that list is fused by RRF like the typo channel's (backend/retrieval/pipeline.py).

A question whose every word some block holds gets no such list, so it ranks exactly as before; so does
one whose unknown words name no document. A name is read as the judgement reads it: the file name
without its extension, its separators as spaces, analysed in both languages (a name has no language of
its own to detect).
"""

from __future__ import annotations

from backend.retrieval.relevance import context_of
from backend.retrieval.tokenizer import Analyzer


def name_terms(analyzer: Analyzer, filename: str) -> frozenset[str]:
    """The index terms of a document's name, as a question word's terms are matched against it."""
    return frozenset(analyzer.terms(context_of(filename, None), "und"))
