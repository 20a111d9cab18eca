"""Which executor id this process runs under.

The id is DBOS's executor id (DBOS recovers a process's own pending workflows under it at start) and
the index change feed's origin (a process skips the changes it made itself), so it must be unique per
live process and stable across restarts of the same installation. `QUIRE_EXECUTOR_ID` wins; otherwise
the id is generated once and kept in the data folder, so a restart after a crash resumes its own work
at once while every other installation (another data folder, another container) gets its own id.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import tempfile
from pathlib import Path

ID_FILE = "executor-id"
# Every Quire process used this id before ids were generated; a vault from then keeps it, so the
# workflows it left pending are still recognised as its own.
LEGACY_ID = "local"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def resolve_executor_id(configured: str | None, data_dir: Path) -> str:
    if configured:
        return configured
    path = data_dir / ID_FILE
    try:
        stored = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        stored = ""
    if stored:
        return stored
    existing_vault = (data_dir / "postgres").exists() or (data_dir / "docs").exists()
    executor_id = LEGACY_ID if existing_vault else _generated_id()
    _write_atomically(path, executor_id)
    return executor_id


def _generated_id() -> str:
    host = _UNSAFE.sub("-", socket.gethostname()).strip("-")[:40] or "quire"
    return f"{host}-{secrets.token_hex(4)}"


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".executor-id-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
