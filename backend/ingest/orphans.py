"""Startup sweep of the upload staging folder (`docs/.pending`).

A connection killed mid-upload, or a crash between staging a file and registering its run, leaves files
there that nothing will ever read: partial `.upload-*` files and staged files no run names. They are
removed at startup when they were last written before this process started — so an upload that another
Quire process sharing the folder is still writing (its file keeps changing) is left alone — and, for
staged files, when no ingestion run references them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from backend.ingest import files
from backend.store import staged_files
from backend.store.db import Database

log = logging.getLogger(__name__)

PARTIAL_PREFIX = ".upload-"


@dataclass(frozen=True)
class Sweep:
    partial: int  # `.upload-*` files removed
    staged: int  # unreferenced staged files removed
    bytes: int


def remove_orphaned_uploads(db: Database, docs_dir: Path, started_at: float) -> Sweep:
    """Remove what a dead upload left in the staging folder; `started_at` is this process's start (epoch s)."""
    folder = files.pending_dir(docs_dir)
    old = [path for path in folder.iterdir() if path.is_file() and _last_written(path) < started_at]
    partial = [path for path in old if path.name.startswith(PARTIAL_PREFIX)]
    candidates = [path for path in old if not path.name.startswith(PARTIAL_PREFIX)]
    referenced = staged_files.referenced_paths(db, [str(path) for path in candidates])
    staged = [path for path in candidates if str(path) not in referenced]
    removed = 0
    for path in (*partial, *staged):
        try:
            size = path.stat().st_size
            path.unlink()
        except FileNotFoundError:  # another process swept it first
            continue
        removed += size
    if partial or staged:
        log.warning("removed %d partial and %d orphaned staged uploads (%.1f MB) left by an earlier run",
                    len(partial), len(staged), removed / 1e6)
    return Sweep(len(partial), len(staged), removed)


def _last_written(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return float("inf")  # gone meanwhile: nothing to do
