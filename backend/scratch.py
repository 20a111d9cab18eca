"""Scratch folders in the system's temp folder, named after the process that made them.

Some work needs a file on disk for a moment: a chat attachment's copy while it is read, the PDF made
from a photo while it is OCR'd, scanned pages' images while tesseract reads them, an Anki package while
it is written, a recorded question while it is transcribed. `scratch_folder` removes its folder
when the work ends; a process killed meanwhile (SIGKILL, power loss) cannot, and left a copy of the
user's document in the temp folder for good. The folder's name carries its process id, so that any Quire
process starting on the machine removes the folders of processes that are gone
(`remove_abandoned_scratch`) and leaves those of live ones alone, whatever their age.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

log = logging.getLogger(__name__)

Purpose = Literal["attachment", "image", "apkg", "voice", "ocr"]
_NAME = re.compile(r"quire-(?:attachment|image|apkg|voice|ocr)-(\d+)-")


@contextmanager
def scratch_folder(purpose: Purpose) -> Iterator[Path]:
    """A private (0700) folder for `purpose`, removed with what it holds when the block ends."""
    with tempfile.TemporaryDirectory(prefix=f"quire-{purpose}-{os.getpid()}-") as folder:
        yield Path(folder)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive, and not ours to judge
        return True
    return True


def remove_abandoned_scratch() -> int:
    """Remove the scratch folders whose process is gone; returns how many."""
    removed = 0
    for folder in Path(tempfile.gettempdir()).glob("quire-*-*-*"):
        match = _NAME.match(folder.name)
        if match is None or not folder.is_dir() or _alive(int(match.group(1))):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    if removed:
        log.info("removed %d scratch folder(s) a stopped Quire process left in %s", removed, tempfile.gettempdir())
    return removed
