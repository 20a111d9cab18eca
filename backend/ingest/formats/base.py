"""What a format declares (backend/ingest/formats/): how its files are recognised, checked, read and shown.

A `Format` is plain data plus the functions that differ between formats. The pipeline asks the registry
(backend/ingest/formats/__init__.py) instead of naming kinds: upload validation takes the extensions,
signature and content check; the extract step the reader; the store the MIME type; the viewer and the
citations the place and viewer kinds. A reader runs in the extraction sandbox's child processes
(backend/ingest/sandbox.py): `read` is the whole file in one job, `sandboxed` (where set) orchestrates
several jobs (a PDF's OCR'd pages in parallel), and `pieces` (recordings) reads a long file in durable
pieces, each its own DBOS step (backend/ingest/recording_steps.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from backend.ingest.formats.checks import Check
from backend.ingest.types import ExtractResult, ProgressCallback
from backend.places import PlaceKind
from backend.store.kinds import DocKind, place_of

if TYPE_CHECKING:
    from backend.ingest.sandbox import SandboxPool

# How the web app shows a document (frontend/src/lib/formats.ts maps each kind to one).
ViewerKind = Literal["pdf", "slides", "sheet", "text", "recording"]
# How a format's `nothing_found` begins: why a file read without error gave no text.
NO_TEXT = "No text could be found in this file"
OFFICE_MIME = "application/vnd.openxmlformats-officedocument."


class Reader(Protocol):
    """The whole file in this process (a sandbox child, a test, a tool)."""

    def __call__(self, path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult: ...


class SandboxedReader(Protocol):
    """The file read in the pool's workers, as several jobs."""

    def __call__(self, pool: SandboxPool, path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None,
                 should_stop: Callable[[], bool] | None) -> ExtractResult: ...


@dataclass(frozen=True)
class Format:
    """One format Quire reads. `label` reads "Read as {label}"; `name` is how the list of what Quire reads
    names it; `signature` says whether a file's first bytes (and, for a package, its contents) are this
    format beyond doubt — then they decide, whatever the name says; `check` refuses at upload (RejectedFile)
    a file whose content is not what its name claims or cannot be read (told whether the signature
    showed it: a file named .pdf without a PDF's header is refused, a package named .docx looked into);
    `nothing_found` says why a file read
    without error gave no text, in the format's words (pages: its length in `unit`s)."""

    kind: DocKind
    label: str
    name: str
    extensions: tuple[str, ...]
    mime: str
    viewer: ViewerKind
    read: Reader | None  # None: read in pieces (`pieces`), never as one job
    sandboxed: SandboxedReader | None = None
    signature: Callable[[bytes, Path], bool] | None = None
    check: Check | None = None
    nothing_found: Callable[[int | None], str] | None = None
    unit: str = "page"
    inline: bool = False  # the original opens in the browser (a PDF, a recording); anything else is a download
    pieces: bool = False  # read in durable pieces (backend/ingest/pieces.py), not in one extract step

    @property
    def place(self) -> PlaceKind:
        return place_of(self.kind)


def plain(extract: Callable[[Path], ExtractResult]) -> Reader:
    """A reader that needs neither OCR languages nor progress (one pass over a small text file)."""

    def read(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
        return extract(path)

    return read
