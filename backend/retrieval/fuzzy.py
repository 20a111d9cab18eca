"""The vault's words within a typo of a word it does not hold: the fuzzy (trigram) side of search.

A `FuzzyVocabulary` holds index terms (stems, as the analyser makes them) and finds, for a term, those
within `max_edits(term)` edits (optimal string alignment: insertions, deletions, substitutions and
transpositions of neighbours, each one edit). It is the same structure in both search modes: in memory
the sparse channel feeds it every new term it interns (backend/retrieval/sparse.py); in the Postgres
mode each process fills one from the vocabulary table that a trigger keeps (migration 0023,
backend/store/search_sql.py) — the embedded Postgres has no pg_trgm, so no lookup runs in SQL.

How a lookup works: each term is cut into character trigrams of the term padded by one mark on each
side (n letters give n trigrams), and (trigram, term) pairs are kept sorted by trigram in a few
immutable segments (appended as terms arrive, merged geometrically, so a term is copied O(log n) times).
A term within d edits of the query shares at least u − 4d of the query's u distinct trigrams (an edit
touches at most four of them: a swap of neighbours changes two letters, each in three trigrams); the
candidates passing that count and the length difference are checked with RapidFuzz's OSA distance (in
C). Nothing runs per vocabulary term in Python: ~1 ms a word on a 100,000-term vocabulary
(scripts/bench_fuzzy.py).

Which words are corrected, and how far (`max_edits`, by the length of the word as typed): alphabetic
words of five letters or more, by one edit; from twelve letters, by two. Shorter words have many
neighbours one edit away ("bake" → "bike", "cake", "lake"), so a guess there is as likely wrong as right,
and two edits join unrelated words of ordinary length ("australia" and "austria", "australian" and
"austrian"), while a long compound ("regelstudienzet") has no neighbour but the word meant. Numbers and
identifiers are never corrected: "2019" is not a typo of "2018". Corrections are index terms, so stems:
a typo in an ending the stemmer strips from the right spelling ("organisaton", whose right spelling
stems to "organis") is not found.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA

ONE_EDIT_FROM = 5  # letters of a term from which one edit is tolerated
TWO_EDITS_FROM = 12  # ... and two
MAX_CORRECTIONS = 3  # of one word: a typo of a short word may be one of several, each a reading of the query
_WIDEST = 40  # longer terms (run-together text, hashes) are not kept: no one types them from memory
_PAD = 1  # the code point padding a term on both sides (never part of a term)
_TRIGRAMS_PER_EDIT = 4
_SHIFT = 21  # bits of a code point: a trigram is three of them in one uint64


def max_edits(term: str) -> int:
    """How many edits apart a term and its correction may be (see the module's docstring)."""
    if not term.isalpha() or len(term) < ONE_EDIT_FROM:
        return 0
    return 1 if len(term) < TWO_EDITS_FROM else 2


def correctable(term: str) -> bool:
    """Whether `term` is kept by a `FuzzyVocabulary`: a possible correction of a typo. The length rule is the
    typed word's: a word of five letters may be one edit from a four-letter stem ("valeu" → "valu")."""
    return term.isalpha() and ONE_EDIT_FROM - 1 <= len(term) <= _WIDEST


def corrections(close: Iterable[tuple[str, int]], df: Mapping[str, int]) -> tuple[str, ...]:
    """The corrections of a word from the vault's words close to it (`close`: term, edits) and their
    document frequencies (`df`; a term missing there is held by no live block, so it is no correction):
    the live terms at the fewest edits, the `MAX_CORRECTIONS` most frequent of them (a typo is likelier
    of a word the vault uses often: the noisy channel's prior), then alphabetically."""
    live = [(edits, -df[term], term) for term, edits in close if df.get(term, 0) > 0]
    if not live:
        return ()
    fewest = min(edits for edits, _, _ in live)
    return tuple(term for _, _, term in sorted(x for x in set(live) if x[0] == fewest)[:MAX_CORRECTIONS])


def _trigrams(terms: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(trigram keys, index of the term in `terms`) of every term, each distinct pair once, by key."""
    width = max(map(len, terms))
    chars = np.zeros((len(terms), width + 2), dtype=np.uint64)
    chars[:, 1:-1] = np.array(terms, dtype=f"<U{width}").view(np.uint32).reshape(len(terms), width)
    lengths = np.fromiter(map(len, terms), dtype=np.int64, count=len(terms))
    chars[:, 0] = _PAD
    chars[np.arange(len(terms)), lengths + 1] = _PAD
    keys = (chars[:, :-2] << np.uint64(2 * _SHIFT)) | (chars[:, 1:-1] << np.uint64(_SHIFT)) | chars[:, 2:]
    inside = np.arange(width)[None, :] < lengths[:, None]  # n letters + 2 pads: n trigrams
    keys = keys[inside]
    rows = np.broadcast_to(np.arange(len(terms), dtype=np.int64)[:, None], inside.shape)[inside]
    order = np.lexsort((rows, keys))
    keys, rows = keys[order], rows[order]
    repeated = np.zeros(len(keys), dtype=bool)  # a trigram a term holds twice ("anana")
    repeated[1:] = (keys[1:] == keys[:-1]) & (rows[1:] == rows[:-1])
    return keys[~repeated], rows[~repeated]


@dataclass(frozen=True)
class _Segment:
    keys: np.ndarray  # uint64 trigram keys, ascending
    codes: np.ndarray  # int32: the term (its place in the vocabulary) holding each key

    def sharing(self, keys: np.ndarray, least: int) -> np.ndarray:
        """The codes of this segment's terms holding at least `least` (≥ 1) of the distinct `keys`.

        Such a term holds one of any len(keys) − least + 1 of them, so the candidates are the holders of
        that many of the rarest keys; the commoner keys' (long) lists are only searched for them (a key's
        codes are ascending: see `_merged`)."""
        lo = np.searchsorted(self.keys, keys, side="left")
        hi = np.searchsorted(self.keys, keys, side="right")
        order = np.argsort(hi - lo, kind="stable")
        cut = len(keys) - least + 1
        rare = [self.codes[lo[i]:hi[i]] for i in order[:cut] if hi[i] > lo[i]]
        if not rare:
            return np.zeros(0, dtype=np.int32)
        codes, held = np.unique(np.concatenate(rare), return_counts=True)
        for i in order[cut:]:
            column = self.codes[lo[i]:hi[i]]
            if len(column):
                at = np.minimum(np.searchsorted(column, codes), len(column) - 1)
                held += column[at] == codes
        return codes[held >= least]


def _merged(a: _Segment, b: _Segment) -> _Segment:
    """`a` and `b` (the newer: its codes are all higher) as one; a stable sort by key keeps each key's codes
    ascending."""
    keys = np.concatenate([a.keys, b.keys])
    order = np.argsort(keys, kind="stable")
    return _Segment(keys[order], np.concatenate([a.codes, b.codes])[order])


@dataclass(frozen=True)
class _State:
    segments: tuple[_Segment, ...] = ()
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint8))  # each term's, by code


class FuzzyVocabulary:
    """Append-only terms with a trigram lookup. Writers are serialised; a reader takes the state once and
    never waits (a term is published only after its pairs are)."""

    def __init__(self) -> None:
        self._terms: list[str] = []
        self._state = _State()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._terms)

    @property
    def nbytes(self) -> int:
        """The segments' arrays (the terms' strings are shared with whoever gave them)."""
        state = self._state
        return (sum(int(s.keys.nbytes + s.codes.nbytes) for s in state.segments) + int(state.lengths.nbytes)
                + 8 * len(self._terms))

    def add(self, terms: Iterable[str]) -> int:
        """Keep the correctable ones of `terms` (which must be new to this vocabulary); returns how many."""
        fresh = [t for t in terms if correctable(t)]
        if not fresh:
            return 0
        with self._lock:
            state = self._state
            keys, rows = _trigrams(fresh)
            segments = [*state.segments, _Segment(keys, (rows + len(self._terms)).astype(np.int32))]
            # Merge while the newest segment is at least half the size of the one before (a binary counter).
            while len(segments) > 1 and len(segments[-1].keys) * 2 >= len(segments[-2].keys):
                segments[-2:] = [_merged(segments[-2], segments[-1])]
            lengths = np.fromiter(map(len, fresh), dtype=np.uint8, count=len(fresh))
            self._terms.extend(fresh)
            self._state = _State(tuple(segments), np.concatenate([state.lengths, lengths]))
        return len(fresh)

    def similar(self, term: str) -> list[tuple[str, int]]:
        """The vocabulary's terms within `max_edits(term)` edits of `term` (itself excluded), with their
        distance, nearest first, then alphabetically."""
        edits = max_edits(term)
        state = self._state
        if edits == 0 or not state.segments or len(term) > _WIDEST:
            return []
        keys, _ = _trigrams([term])
        least = max(len(keys) - _TRIGRAMS_PER_EDIT * edits, 1)
        found = np.concatenate([s.sharing(keys, least) for s in state.segments])
        found = found[np.abs(state.lengths[found].astype(np.int64) - len(term)) <= edits]
        candidates = [other for other in map(self._terms.__getitem__, found.tolist()) if other != term]
        close = process.extract(term, candidates, scorer=OSA.distance, score_cutoff=edits, limit=None)
        return sorted(((other, int(distance)) for other, distance, _ in close), key=lambda pair: (pair[1], pair[0]))
