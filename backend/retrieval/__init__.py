"""Retrieval: the in-memory hybrid index (FAISS dense + BM25 sparse, fused by RRF) over live blocks."""
