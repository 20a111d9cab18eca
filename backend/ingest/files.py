"""Originals on this process's disk: the upload area and the read-through cache of originals.

The originals themselves live in Postgres (`backend/store/originals.py`), so any process can serve any
of them and losing an app machine loses nothing. Each process keeps a cache under
`docs/objects/<sha[:2]>/<sha>`: written once (a temp file, verified by SHA-256, then `os.replace`, so a
reader never sees half a file) and read by extraction and by `GET /api/documents/{id}/file`.
Uploads stream into `docs/.pending/.upload-*` and leave it the moment they are accepted or refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import time
import uuid
from collections.abc import Iterable
from pathlib import Path

from backend.ingest.formats import FORMATS
from backend.store import originals as store
from backend.store.db import Database

log = logging.getLogger(__name__)

_HASH_BLOCK = 1024 * 1024


def mime_for(kind: str) -> str:
    """The MIME type a document kind's originals are stored and served with (its format declares it)."""
    fmt = FORMATS.get(kind)  # type: ignore[call-overload]
    return fmt.mime if fmt is not None else "application/octet-stream"


class OriginalMissing(Exception):
    """The original is neither cached here nor stored in Postgres."""


def pending_dir(docs_dir: Path) -> Path:
    path = docs_dir / ".pending"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_pending_path(docs_dir: Path) -> Path:
    return pending_dir(docs_dir) / f".upload-{uuid.uuid4().hex}"


def objects_dir(docs_dir: Path) -> Path:
    return docs_dir / "objects"


def cache_path(docs_dir: Path, sha256: str) -> Path:
    if len(sha256) != 64 or any(ch not in "0123456789abcdef" for ch in sha256):
        raise ValueError(f"not a sha256 hex digest: {sha256!r}")
    return objects_dir(docs_dir) / sha256[:2] / sha256


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def store_original(db: Database, docs_dir: Path, source: Path, sha256: str) -> Path:
    """Put an accepted upload's bytes into Postgres (committed before anything refers to them), then move
    the file into this process's cache. Returns the cached path."""
    size = source.stat().st_size
    with source.open("rb") as handle:
        store.write_original(db, sha256, handle, size)
    target = cache_path(docs_dir, sha256)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(source, target)  # same bytes whoever wins a race: the content is the name
    return target


def materialise(db: Database, docs_dir: Path, sha256: str) -> Path:
    """The cached file of an original, fetched from Postgres (and verified) when this process lacks it."""
    target = cache_path(docs_dir, sha256)
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{sha256}.{uuid.uuid4().hex}.part")
    digest = hashlib.sha256()
    written = False
    try:
        with temp.open("wb") as handle:
            for data in store.iter_chunks(db, sha256):
                digest.update(data)
                handle.write(data)
                written = True
        if not written and store.original_size(db, sha256) != 0:
            raise OriginalMissing(sha256)
        if digest.hexdigest() != sha256:
            raise OriginalMissing(f"{sha256}: the stored bytes do not match their digest")
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    return target


def remove_cached(docs_dir: Path, shas: Iterable[str]) -> None:
    for sha in shas:
        cache_path(docs_dir, sha).unlink(missing_ok=True)


def sweep_cache(db: Database, docs_dir: Path, parts_older_than_s: float = 0.0) -> int:
    """Remove cached originals Postgres no longer has (deleted by another process) and temp files left
    more than `parts_older_than_s` ago (while the process runs, a younger one may be a fetch in progress)."""
    root = objects_dir(docs_dir)
    if not root.is_dir():
        return 0
    cached = {path.name: path for path in root.glob("??/*") if path.is_file()}
    removed = 0
    cutoff = time.time() - parts_older_than_s
    for name, path in cached.items():
        if name.startswith(".") and name.endswith(".part"):
            with contextlib.suppress(FileNotFoundError):  # finished (renamed) meanwhile
                if parts_older_than_s <= 0 or path.stat().st_mtime < cutoff:
                    path.unlink()
                    removed += 1
    names = [name for name in cached if not name.startswith(".")]
    kept = store.known_shas(db, names)
    for name in names:
        if name not in kept:
            cached[name].unlink(missing_ok=True)
            removed += 1
    return removed


def adopt_legacy_files(db: Database, docs_dir: Path) -> int:
    """Bring originals of a vault from before Postgres held them (`docs/<filename>`) into `originals`.

    Idempotent and safe to interrupt: the file is verified against its recorded digest, stored, and only
    then moved into the cache. A missing or altered file is left alone and logged (another process may
    hold it)."""
    adopted = 0
    root = docs_dir.resolve()
    for sha, path in store.legacy_files(db):
        resolved = path.resolve()
        if not resolved.is_relative_to(root) or not resolved.is_file() or store.has_original(db, sha):
            continue  # elsewhere, gone, or a second path with bytes adopted a moment ago
        if sha256_file(resolved) != sha:
            log.warning("not adopting %s: its content no longer matches the stored version", resolved)
            continue
        store_original(db, docs_dir, resolved, sha)
        store.forget_legacy_path(db, sha)
        adopted += 1
    if adopted:
        log.info("adopted %d original files into Postgres", adopted)
    return adopted
