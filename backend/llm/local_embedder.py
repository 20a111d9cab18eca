"""In-process sentence embeddings on CPU via sentence-transformers (QUIRE_EMBEDDER=local).

Optional (requirements-local.txt), imported only by the embedder factory. Which model runs and where its
files come from is backend/llm/local_models.py (all-mpnet-base-v2 by default, all-MiniLM-L6-v2 as the
fast choice); they are loaded from a local folder with the Hugging Face hub switched offline, so nothing
is ever downloaded. torch and sentence-transformers are imported on first use, not at import.

A model reads a fixed number of word pieces at most (384 for mpnet, 256 for MiniLM) and cuts a longer
text there (a default block of QUIRE_CHUNK_SIZE 1,000 characters is about 200–250 pieces).
`windows=True` embeds a longer text as the mean of its overlapping windows' vectors instead
(backend/llm/windows.py): measured, not shipped — on Cranfield with MiniLM it lost on the tuning half
(hybrid nDCG@10 0.4237 → 0.4186) while gaining little on the test half (0.4151 → 0.4162), see
scripts/eval_retrieval.py. Its vectors are recorded under another model name (`+windows`), and each
model's under its own, so two kinds are never mixed in one vault.

Loading mpnet takes seconds (longer on first use, when it is unpacked), so the server calls `load` in the
background at start (`backend.llm.embedders.preload`): searches meanwhile run on keywords, with a notice,
rather than wait for it. `state` and `problem` tell `/api/health` whether the model is loading, ready or
cannot be loaded, and why.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from backend.llm.embedders import LoadState, l2_normalise
from backend.llm.errors import ModelError, ModelUnavailable
from backend.llm.local_models import DEFAULT_LOCAL_MODEL, INSTALL_HINT, LOCAL_MODELS, LocalModelName, model_folder
from backend.llm.windows import pool_windows, window_spans


class LocalEmbedder:
    """`Embedder` over a sentence-transformers model on CPU; loads lazily, thread-safe."""

    def __init__(self, models_dir: Path, name: LocalModelName = DEFAULT_LOCAL_MODEL, batch_size: int = 32, *,
                 windows: bool = False) -> None:
        """`models_dir`: where a model shipped as an archive is unpacked once (local_models.py).
        `windows=True`: a text longer than the model's limit is embedded by windows (see the module
        docstring; scripts/eval_retrieval.py's comparison row), not cut at the limit."""
        self._spec = LOCAL_MODELS[name]
        self._models_dir = models_dir
        self._windows = windows
        self._batch_size = batch_size
        self._model: Any = None
        self._state: LoadState = "not loaded"
        self._problem: ModelUnavailable | None = None
        # One encode at a time: torch already spreads one batch over all cores, and parallel calls
        # would only multiply peak memory.
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        name = f"local:{self._spec.name}"
        return f"{name}+windows" if self._windows else name

    @property
    def dimension(self) -> int:
        return self._spec.dimension

    @property
    def name(self) -> LocalModelName:
        return self._spec.name

    @property
    def state(self) -> LoadState:
        return self._state

    @property
    def problem(self) -> ModelUnavailable | None:
        """Why the last load failed (its message and what to install), while `state` is "unavailable"."""
        return self._problem

    def load(self) -> None:
        """Load the model now rather than at the first embedding; raises ModelUnavailable. A failed load
        is tried again at the next call (the user may have installed what was missing meanwhile)."""
        with self._lock:
            self._load()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self._windows:
            return pool_windows(*self.embed_windows(texts))
        return self._encode(texts, split=False)[0]

    def embed_windows(self, texts: Sequence[str]) -> tuple[np.ndarray, list[int]]:
        """Unit vectors of each text's windows (the text itself when it fits the model), text after
        text, and how many windows each text has."""
        return self._encode(texts, split=True)

    def _encode(self, texts: Sequence[str], split: bool) -> tuple[np.ndarray, list[int]]:
        if not texts:
            return np.zeros((0, self._spec.dimension), dtype=np.float32), []
        with self._lock:
            model = self._load()
            pieces = [self._split(model, text) for text in texts] if split else [[text] for text in texts]
            try:
                vectors = model.encode([p for parts in pieces for p in parts], batch_size=self._batch_size,
                                       convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False)
            except RuntimeError as exc:  # torch reports shape/memory failures as RuntimeError
                raise ModelError(f"Local embedding failed: {exc}", retryable=False) from exc
        return l2_normalise(np.asarray(vectors, dtype=np.float32)), [len(parts) for parts in pieces]

    @staticmethod
    def _split(model: Any, text: str) -> list[str]:
        """The text's windows (itself when it fits): spans of at most the model's limit in word pieces,
        less the special tokens the tokenizer adds around each input."""
        tokenizer = model.tokenizer
        limit = model.max_seq_length - tokenizer.num_special_tokens_to_add(pair=False)
        offsets = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True,
                            verbose=False)["offset_mapping"]
        return [text[start:end] for start, end in window_spans(offsets, limit)] or [text]

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        self._state = "loading"
        try:
            self._model = self._read_model()
        except Exception as exc:  # recorded for /api/health, then raised to the caller as it was
            self._state = "unavailable"
            self._problem = exc if isinstance(exc, ModelUnavailable) else ModelUnavailable(
                f"The local embedding model could not be prepared: {exc}", INSTALL_HINT)
            raise
        self._state, self._problem = "ready", None
        return self._model

    def _read_model(self) -> Any:
        path = model_folder(self._spec, self._models_dir)
        # The model is read from a local folder; offline mode makes any accidental hub lookup fail fast
        # instead of trying the network.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelUnavailable("sentence-transformers is not installed.", INSTALL_HINT) from exc
        try:
            return SentenceTransformer(str(path), device="cpu", local_files_only=True)
        except (OSError, ValueError) as exc:
            message = f"The local embedding model could not be loaded: {exc}"
            raise ModelUnavailable(message, INSTALL_HINT) from exc
