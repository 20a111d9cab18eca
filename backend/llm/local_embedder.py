"""In-process sentence embeddings on CPU with ONNX Runtime (QUIRE_EMBEDDER=local): the built-in model.

Runs the install-time export of a sentence-transformers model (backend/llm/onnx_export.py, made by
`scripts/setup.sh --local`): mean pooling inside the graph, weight products in 8-bit integers per token
(backend/llm/int8_graph.py). It needs only `onnxruntime` and `tokenizers` at run time, no torch. Which
models exist and where their files live is backend/llm/local_models.py; nothing is ever downloaded.

Vectors are recorded as ``local:<model>-int8``: they differ slightly from the fp32 model's (cosine ≥ 0.99,
checked at export), so a vault embedded by the earlier fp32 runtime is re-embedded instead of mixed.

A model reads a fixed number of word pieces at most (384 for mpnet, 256 for MiniLM) and cuts a longer
text there. `windows=True` embeds a longer text as the mean of its overlapping windows' vectors instead
(backend/llm/windows.py): measured, not shipped (scripts/eval_retrieval.py), recorded under `+windows`.

Texts are embedded in order of length, in batches of similar length (padding costs as much as text), with
one batch at a time (ONNX Runtime already spreads one batch over every core); a query does not wait for
them. Its worker threads do not
spin while waiting, which on a busy machine only takes CPU from other work. Loading takes a second or two,
so the server calls `load` in the background at start (`backend.llm.embedders.preload`); `state` and
`problem` tell `/api/health` whether the model is loading, ready or not installed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from backend.llm.embedders import LoadState, SpeedMeter, l2_normalise
from backend.llm.errors import ModelError, ModelUnavailable
from backend.llm.local_models import (
    DEFAULT_LOCAL_MODEL,
    INSTALL_HINT,
    LOCAL_MODELS,
    InstalledModel,
    LocalModelName,
    installed_model,
    verify,
)
from backend.llm.windows import pool_windows, window_spans

BATCH_TOKENS = 8192  # word pieces per batch, padding included: ~22 passages of 384, 64 short ones at most
BATCH_TEXTS = 64


class _Runtime:
    """A loaded model: its ONNX Runtime session and two tokenizers (one cuts at the limit, one does not)."""

    def __init__(self, installed: InstalledModel) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelUnavailable("onnxruntime or tokenizers is not installed.", INSTALL_HINT) from exc
        verify(installed)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = os.cpu_count() or 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = onnxruntime.InferenceSession(str(installed.graph), options, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(installed.tokenizer))
        self.tokenizer.enable_truncation(installed.max_length)
        self.tokenizer.no_padding()
        self.splitter = Tokenizer.from_file(str(installed.tokenizer))
        self.splitter.no_truncation()
        self.splitter.no_padding()
        self.pad_id = installed.pad_id
        self.limit = installed.max_length - self.tokenizer.num_special_tokens_to_add(False)

    def encode(self, texts: Sequence[str], dimension: int) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(list(texts))
        out = np.zeros((len(texts), dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        start = 0
        while start < len(order):
            end = start + 1
            # Sorted by length, so the batch's last text is its longest: its length sets the padding.
            while end < len(order) and end - start < BATCH_TEXTS \
                    and (end - start + 1) * len(encodings[order[end]].ids) <= BATCH_TOKENS:
                end += 1
            batch = order[start:end]
            out[batch] = self._run([encodings[i].ids for i in batch])
            start = end
        return out

    def _run(self, pieces: list[list[int]]) -> np.ndarray:
        width = max(len(p) for p in pieces)
        ids = np.full((len(pieces), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(pieces), width), dtype=np.int64)
        for row, piece in enumerate(pieces):
            ids[row, :len(piece)] = piece
            mask[row, :len(piece)] = 1
        result: np.ndarray = self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
        return result

    def windows(self, text: str) -> list[str]:
        offsets = self.splitter.encode(text, add_special_tokens=False).offsets
        return [text[start:end] for start, end in window_spans(offsets, self.limit)] or [text]


class LocalEmbedder:
    """`Embedder` over an exported model on CPU; loads lazily, thread-safe."""

    def __init__(self, name: LocalModelName = DEFAULT_LOCAL_MODEL, *, models_dir: Path | None = None,
                 windows: bool = False) -> None:
        """`models_dir`: where the exports are (default: this environment's, `installed_models_dir()`).
        `windows=True`: a text longer than the model's limit is embedded by windows (module docstring)."""
        self._spec = LOCAL_MODELS[name]
        self._models_dir = models_dir
        self._windows = windows
        self._runtime: _Runtime | None = None
        self._state: LoadState = "not loaded"
        self._problem: ModelUnavailable | None = None
        self._lock = threading.Lock()  # one batch at a time (see the module docstring)
        self.speed = SpeedMeter()

    @property
    def model(self) -> str:
        name = f"local:{self._spec.name}-int8"
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
        loaded = self._runtime
        if loaded is not None and len(texts) == 1 and not split:
            # A query does not wait behind a batch of passages (seconds on a busy machine): ONNX Runtime
            # runs one session from several threads, and one short text costs little memory.
            return self._vectors(loaded, [[texts[0]]])
        with self._lock:
            runtime = self._load()
            pieces = [runtime.windows(text) for text in texts] if split else [[text] for text in texts]
            return self._vectors(runtime, pieces)

    def _vectors(self, runtime: _Runtime, pieces: list[list[str]]) -> tuple[np.ndarray, list[int]]:
        flat = [p for parts in pieces for p in parts]
        try:
            with self.speed.timed() as done:
                vectors = runtime.encode(flat, self._spec.dimension)
                done(len(flat))
        except Exception as exc:  # onnxruntime raises its own types (shape, memory)
            raise ModelError(f"Local embedding failed: {exc}", retryable=False) from exc
        return l2_normalise(vectors), [len(parts) for parts in pieces]

    def _load(self) -> _Runtime:
        if self._runtime is not None:
            return self._runtime
        self._state = "loading"
        try:
            self._runtime = _Runtime(installed_model(self._spec, self._models_dir))
        except Exception as exc:  # recorded for /api/health, then raised to the caller as it was
            self._state = "unavailable"
            self._problem = exc if isinstance(exc, ModelUnavailable) else ModelUnavailable(
                f"The local embedding model could not be loaded: {exc}", INSTALL_HINT)
            raise
        self._state, self._problem = "ready", None
        return self._runtime
