"""Scope-covering retrieval: every document gets its share, long documents are sampled evenly over
their length (reading only the scoped documents), and MMR avoids near-duplicate passages."""

from __future__ import annotations

import itertools
import uuid
from dataclasses import replace

import numpy as np
import pytest

from backend.retrieval.types import Scope
from backend.store import study_sources
from backend.store.db import Database
from backend.study.errors import GenerationFailed
from backend.study.passages import _candidate, allot, mmr, render, scope_passages

EMBED_MODEL = "test:model"


def add_document(db: Database, name: str, texts: list[str], vectors: list[list[float]] | None = None) -> str:
    """Test data: a ready document with live blocks (and optionally vectors of EMBED_MODEL)."""
    doc_id = str(uuid.uuid4())
    with db.transaction() as conn:
        conn.execute("INSERT INTO documents (id, filename, status, sha256) VALUES (%s, %s, 'ready', %s)",
                     (doc_id, name, doc_id))
        for i, text in enumerate(texts):
            vector = np.asarray(vectors[i], dtype=np.float32) if vectors else None
            conn.execute(
                "INSERT INTO blocks (id, document_id, doc_sha256, ordinal, text, page, kind, embedding, embed_model,"
                " is_live) VALUES (%s, %s, %s, %s, %s, %s, 'text', %s, %s, true)",
                (str(uuid.uuid4()), doc_id, doc_id, i, text, i + 1, vector, EMBED_MODEL if vectors else None),
            )
    return doc_id


def test_allot_splits_evenly_within_what_each_document_has() -> None:
    assert allot(7, {"a": 10, "b": 10, "c": 10}) == {"a": 3, "b": 2, "c": 2}
    assert allot(7, {"a": 1, "b": 10}) == {"a": 1, "b": 6}
    assert allot(5, {"a": 1, "b": 1}) == {"a": 1, "b": 1}


def test_mmr_skips_near_duplicates() -> None:
    rows = [{"text": t, "embedding": None} for t in ("a", "b", "c")]
    candidates = [replace(_candidate(r), vector=np.asarray(v, dtype=np.float32))
                  for r, v in zip(rows, ([1.0, 0.0], [0.999, 0.045], [0.0, 1.0]), strict=True)]
    picked = mmr(candidates, [1.0, 0.95, 0.5], 2)
    assert [c.row["text"] for c in picked] == ["a", "c"]


def test_lexical_mmr_without_vectors() -> None:
    rows = [{"text": t, "embedding": None} for t in ("mitochondria make energy", "mitochondria make energy too",
                                                        "ribosomes build proteins")]
    picked = mmr([_candidate(r) for r in rows], [1.0, 0.99, 0.5], 2)
    assert [c.row["text"] for c in picked] == ["mitochondria make energy", "ribosomes build proteins"]


def test_a_long_document_is_sampled_evenly_and_only_scoped_documents_are_read(db: Database) -> None:
    long_doc = add_document(db, "long.md", [f"paragraph {i}" for i in range(100)])
    other = add_document(db, "other.md", ["elsewhere"])
    rows = study_sources.scope_blocks(db, [long_doc], EMBED_MODEL, 10, phase=0.0)
    ordinals = [r["ordinal"] for r in rows]
    assert len(ordinals) == 10
    assert {r["document_id"] for r in rows} == {long_doc}
    assert all(9 <= b - a <= 11 for a, b in itertools.pairwise(ordinals))
    shifted = [r["ordinal"] for r in study_sources.scope_blocks(db, [long_doc], EMBED_MODEL, 10, phase=0.5)]
    assert len(shifted) == 10
    assert shifted != ordinals
    assert other not in {r["document_id"] for r in rows}


def test_scope_passages_cover_every_document_with_keys_in_reading_order(db: Database) -> None:
    names = [f"{uuid.uuid4().hex[:6]}-{n}.md" for n in ("a", "b", "c")]
    vectors = [[1.0, 0.0], [0.0, 1.0], [0.7, 0.7], [0.6, 0.8]]
    ids = [add_document(db, name, [f"{name} part {i}" for i in range(4)], vectors) for name in names]
    passages = scope_passages(db, EMBED_MODEL, Scope(document_ids=frozenset(ids)), 6)
    assert len(passages) == 6
    assert {p.filename for p in passages} == set(names)
    assert [p.key for p in passages] == [f"P{i}" for i in range(1, 7)]
    assert [p.filename for p in passages] == sorted(p.filename for p in passages)
    one = scope_passages(db, EMBED_MODEL, Scope(document_ids=frozenset(ids[:1])), 6)
    assert {p.filename for p in one} == {names[0]}
    assert len(one) == 4
    text = render(one)
    assert text.count("<passage id=") == 4
    assert f'source="{names[0]}, p. 1"' in text


def test_a_scope_without_text_is_a_clear_failure(db: Database) -> None:
    with pytest.raises(GenerationFailed) as failure:
        scope_passages(db, EMBED_MODEL, Scope(document_ids=frozenset({str(uuid.uuid4())})), 5)
    assert failure.value.code == "empty_scope"
