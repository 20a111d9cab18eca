"""Quire: a local-first study vault (FastAPI + DBOS + Postgres + FAISS/BM25 + Ollama)."""
