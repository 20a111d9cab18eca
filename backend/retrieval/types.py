"""Value types of the retrieval layer: what goes into the index, how a search is scoped, what comes out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

import numpy as np

SearchMode = Literal["hybrid", "dense", "sparse"]
IndexState = Literal["empty", "building", "ready"]


@dataclass(frozen=True)
class Scope:
    """Restricts a search to some documents and/or categories (union of both); empty = whole vault."""

    document_ids: frozenset[str] = field(default_factory=frozenset)
    categories: frozenset[str] = field(default_factory=frozenset)

    @property
    def is_empty(self) -> bool:
        return not self.document_ids and not self.categories

    def admits(self, document_id: str, category: str | None) -> bool:
        if self.is_empty:
            return True
        return document_id in self.document_ids or (category is not None and category in self.categories)


class IndexedBlock(NamedTuple):
    """A live block as the index sees it. `embedding` is set only for vectors of the current model;
    `terms`, if set, is the block's cached `Analyzer.term_counts` (distinct terms, counts) from an
    analyser with the index's fingerprint (otherwise the index analyses `text` itself).

    A NamedTuple rather than a dataclass: a startup build creates one per block, and a frozen dataclass
    costs four times as much to create."""

    id: str
    document_id: str
    filename: str
    category: str | None
    ordinal: int
    page: int | None
    section: str | None
    kind: str
    text: str
    embedding: np.ndarray | None = None
    terms: tuple[str, bytes] | None = None
    page_label: str | None = None
    document_kind: str | None = None


class BlockDetails(NamedTuple):
    """What a hit shows of a live block besides its ranking."""

    document_id: str
    filename: str
    page: int | None
    section: str | None
    kind: str
    text: str
    page_label: str | None
    document_kind: str | None
    ordinal: int = 0  # the block's place in its document's reading order


class Copy(NamedTuple):
    """A live block with its details: one of the places a text stands in its document."""

    block_id: str
    details: BlockDetails


# For each of the given block ids that is live: the live blocks of its document holding the very same text,
# itself among them (backend/retrieval/repeats.py). Ids missing from the result are not live.
CopiesSource = Callable[[Sequence[str]], Mapping[str, Sequence[Copy]]]


@dataclass(frozen=True)
class Location:
    """Another place in the same document where a hit's text stands as well."""

    block_id: str
    page: int | None
    page_label: str | None
    section: str | None


@dataclass(frozen=True)
class Hit:
    block_id: str
    document_id: str
    filename: str
    page: int | None
    section: str | None
    kind: str
    text: str
    snippet: str
    score: float
    dense_rank: int | None
    sparse_rank: int | None
    relevance: float  # the query's coverage by this passage, 0..1 (backend/retrieval/relevance.py)
    relevant: bool  # relevant enough to answer from: coverage at or above the calibrated threshold
    page_label: str | None = None  # the printed label of `page` (PDF page labels), when the file has one
    document_kind: str | None = None  # the document's format: pdf, pptx, xlsx, ...
    # The other places of the same document holding the same text (collapsed into this hit), in reading order.
    also_at: tuple[Location, ...] = ()


class ScoredBlock(NamedTuple):
    """One entry of a channel's ranked list: the block and the channel's own score (higher = better)."""

    block_id: str
    score: float


class Ranking(NamedTuple):
    """A ranked list as two parallel lists, best first: what the channels hand the hybrid search, which
    needs only the ids (and scores in a single-channel mode), cheaper than a `ScoredBlock` per entry."""

    block_ids: list[str]
    scores: list[float]

    def scored(self) -> list[ScoredBlock]:
        return list(map(ScoredBlock, self.block_ids, self.scores))
