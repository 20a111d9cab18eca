"""Where uploaded files live on disk: `docs/.pending/<random id>` until their version goes live, then
`docs/<filename>`. Moves are `os.replace` on one filesystem, so a file is never half-written."""

from __future__ import annotations

import hashlib
import os
import uuid
from pathlib import Path

_HASH_BLOCK = 1024 * 1024


def pending_dir(docs_dir: Path) -> Path:
    path = docs_dir / ".pending"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_pending_path(docs_dir: Path) -> Path:
    return pending_dir(docs_dir) / uuid.uuid4().hex


def live_path(docs_dir: Path, filename: str) -> Path:
    return docs_dir / filename


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def place_live(source: Path, target: Path) -> None:
    """Move a pending file into place; a replay after the move finds the target already there."""
    if source.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, target)
    elif not target.exists():
        raise FileNotFoundError(f"neither {source} nor {target} exists")


def remove_quietly(path: Path) -> None:
    path.unlink(missing_ok=True)
