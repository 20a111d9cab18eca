"""Passages a document repeats: one search result per text within a document, with where else it stands.

Some files hold their own text more than once (the trustee handbook of shared/corpus holds it four times:
of its 1,076 passages, 1,068 have an exact copy in the same file). Without this, a search for something in
a repeated passage filled its result slots, and a chat answer's sources and the model's context, with the
same text two to four times. Within one document, passages with the same text are one result: shown at
their earliest place (reading order), ranked where their best-ranked copy ranked, the other places listed
in `also_at`. Passages of different documents are never collapsed: two versions of a file are two files,
and which to keep is the user's choice.

"The same text" is exact equality after NFKC, case folding and collapsing whitespace (`same_text`), with
one more rule: the number in a "Footnote n:" / "Endnote n:" label is not compared. Word numbers its notes
by their running count and the DOCX reader writes that count into the label (extract/docx.py), so a
section the handbook repeats says "Footnote 2:" in one copy and "Footnote 5:" in the next, with the same
note text: the number is the file's bookkeeping, not what the author wrote. Other near duplicates are not
collapsed: a one-character difference cannot be told from a changed amount, date or section number
("$1,000" / "$4,000"), which is the difference a reader must see.
A heading line is not stripped either: the chunker writes the heading into the passage only where the
passage begins its section, so both copies of a repeated section carry it; where they differ (one copy
under a heading, one under another), they are different passages of the document.

How copies are found. Postgres indexes each live block by (document, hash of its text) (migration 0020:
an expression index, so each entry is computed as the block is written and the migration fills it for the
blocks already there). The query that reads the hits' texts (one round trip, as before) joins each hit to
its document's live blocks of the same hash, so every copy is known, also one ranked far below the
candidates or not at all. The hash is of the text as stored: the copies of a repeated passage are
extracted alike (the handbook's 1,068 repeated passages: 517 distinct strings, 515 distinct normalised
texts), and normalising in SQL was what cost (NFKC and a whitespace regexp_replace, ~0.2–0.3 ms a block:
at 100,000 blocks the index over normalised text took 19.5 s to build, a stored column of it 44.8 s, the
index over the text as stored 0.7 s). Two copies that differ only in case or whitespace are still one
result when both are among the candidates read: the passages are keyed by `same_text` here (20–75 µs per
1,000 characters on this loaded machine, once per candidate read). Keys computed only at query time, with
no index, would have named only the copies among the candidates read.

Filling k. Collapsing must not leave fewer than k results when the document has more to offer, so the
candidate depth (each channel's list, `candidate_depth`) and the hit count k are kept apart: the fused
candidates are read in rank order, in batches, until k distinct texts are found, skipping copies already
known; if the candidates run out first and a channel's list was full, both channels are asked again four
times deeper (at most `MAX_DEPTH`), and the texts found so far keep their places. A vault without repeats
reads exactly k candidates' texts in one round trip, as before, and ranks exactly as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from backend.retrieval.fusion import Fused
from backend.retrieval.types import BlockDetails, CopiesSource, Copy, Location
from backend.store import blocks as store
from backend.store.db import Database

# The deepest channel lists a search asks for to fill k (pgvector's HNSW beam reaches 1,000 at most).
MAX_DEPTH = 1000
DEEPER = 4
# A note label as the DOCX reader writes it, case-folded: its number is Word's running count.
_NOTE_NUMBER = re.compile(r"\b(footnote|endnote) \d+:")

# The fused candidates at a channel depth, and whether every channel returned fewer than that depth (so
# asking deeper finds nothing more).
Ranker = Callable[[int], tuple[list[Fused], bool]]


def same_text(text: str) -> str:
    """The text as compared: NFKC, case-folded, whitespace runs as one space, trimmed, notes unnumbered."""
    return _NOTE_NUMBER.sub(r"\1:", " ".join(unicodedata.normalize("NFKC", text).casefold().split()))


@dataclass
class Passage:
    """One distinct text of one document: the best-ranked copy's ranking and every copy known."""

    fused: Fused
    copies: dict[str, Copy] = field(default_factory=dict)

    @property
    def shown(self) -> Copy:
        """The earliest copy in reading order: the one a result shows and a citation opens."""
        return min(self.copies.values(), key=lambda c: c.details.ordinal)

    @property
    def also_at(self) -> tuple[Location, ...]:
        shown = self.shown.block_id
        return tuple(Location(c.block_id, c.details.page, c.details.page_label, c.details.section)
                     for c in sorted(self.copies.values(), key=lambda c: c.details.ordinal)
                     if c.block_id != shown)


def distinct_passages(rank: Ranker, k: int, depth: int, copies_of: CopiesSource) -> list[Passage]:
    """The k best distinct passages (fewer only if the scope holds fewer), best first."""
    found: dict[tuple[str, str], Passage] = {}
    known: set[str] = set()  # block ids read, or known as a copy of a passage found
    while True:
        fused, exhausted = rank(depth)
        pending = (f for f in fused if f.block_id not in known)
        while len(found) < k and (batch := _take(pending, known, k - len(found))):
            _collect(batch, copies_of([f.block_id for f in batch]), found, known)
        if len(found) >= k or exhausted or depth >= MAX_DEPTH:
            return list(found.values())[:k]
        depth = min(depth * DEEPER, MAX_DEPTH)


def _take(pending: Iterator[Fused], known: set[str], n: int) -> list[Fused]:
    """The next `n` candidates not known yet (a copy learnt of since the iterator was made is skipped)."""
    batch: list[Fused] = []
    for f in pending:
        if f.block_id in known:
            continue
        batch.append(f)
        if len(batch) == n:
            break
    return batch


def _collect(batch: Sequence[Fused], copies: Mapping[str, Sequence[Copy]], found: dict[tuple[str, str], Passage],
             known: set[str]) -> None:
    """Add each live candidate of `batch` to its passage (a new one, or one found before)."""
    for f in batch:
        known.add(f.block_id)
        candidates = copies.get(f.block_id)
        if not candidates:  # no longer live
            continue
        own = next(c for c in candidates if c.block_id == f.block_id)
        key = (own.details.document_id, same_text(own.details.text))
        passage = found.get(key)
        if passage is None:
            passage = found[key] = Passage(f)
        for copy in candidates:  # the very same text in the same document (the source's contract)
            passage.copies[copy.block_id] = copy
            known.add(copy.block_id)


def live_copies(db: Database, block_ids: Sequence[str]) -> dict[str, list[Copy]]:
    """The hits' details as Postgres has them now, by block id, each with the other live places of its
    document holding the same text (backend/retrieval/repeats.py): a block deleted or replaced meanwhile by
    any process is left out, even before an in-memory index applies the change."""
    out: dict[str, list[Copy]] = {}
    for row in store.live_block_copies(db, block_ids):
        details = BlockDetails(row["document_id"], row["filename"], row["page"], row["section"], row["kind"],
                               row["text"], row["page_label"], row["document_kind"], row["ordinal"])
        out.setdefault(row["hit"], []).append(Copy(row["id"], details))
    return out
