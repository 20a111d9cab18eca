"""The straightforward hybrid index that scripts/bench_search.py measures the product against.

FAISS flat (exact inner product over normalised vectors) + `rank_bm25.BM25Okapi` over ``lower().split()``
tokens, built over all live blocks read from Postgres with the product's own query, fused by the same
Reciprocal Rank Fusion with the same candidate depth. Nothing is incremental: any change is a rebuild.
"""

from __future__ import annotations

import faiss
import numpy as np
from rank_bm25 import BM25Okapi

from backend.llm.embedders import l2_normalise
from backend.retrieval.fusion import reciprocal_rank_fusion
from backend.retrieval.pipeline import candidate_depth
from backend.store import blocks as store
from backend.store.db import Database


class ReferenceIndex:
    def __init__(self, db: Database, embed_model: str) -> None:
        self.db = db
        self.embed_model = embed_model
        self.bm25: BM25Okapi | None = None
        self.faiss: faiss.IndexFlatIP | None = None
        self.documents: list[str] = []  # document id per row

    def build(self) -> None:
        """Read every live block and build both structures from scratch."""
        texts, vectors, documents = [], [], []
        for rows in store.iter_live_blocks(self.db, self.embed_model):
            texts += [row["text"].lower().split() for row in rows]
            documents += [row["document_id"] for row in rows]
            vectors.append(store.decode_vectors([row["vector"] for row in rows]))
        matrix = l2_normalise(np.concatenate(vectors))
        index = faiss.IndexFlatIP(matrix.shape[1])
        index.add(matrix)
        self.bm25, self.faiss, self.documents = BM25Okapi(texts), index, documents

    def search(self, query: str, vector: np.ndarray, k: int) -> list[str]:
        """Document ids of the k best blocks (as the product's hybrid search, without feedback)."""
        assert self.bm25 is not None
        assert self.faiss is not None
        depth = candidate_depth(k)
        scores = self.bm25.get_scores(query.lower().split())
        top = np.argpartition(-scores, depth)[:depth]
        sparse = [int(i) for i in top[np.argsort(-scores[top], kind="stable")] if scores[i] > 0]
        _, ids = self.faiss.search(l2_normalise(vector), depth)
        fused = reciprocal_rank_fusion([[str(i) for i in sparse], [str(i) for i in ids[0] if i >= 0]])
        return [self.documents[int(f.block_id)] for f in fused[:k]]
