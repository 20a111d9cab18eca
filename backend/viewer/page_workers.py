"""The viewer's PDF work (page images, passage boxes) in sandboxed child processes of its own pool.

Drawing a page is unbounded work on a file someone else made: a few-KB page can hold hundreds of
thousands of vector paths (tens of seconds of CPU), a huge image or shading (gigabytes), or a stream that
makes MuPDF loop or crash. In the server's own process that would pin a core or blow its memory on every
view, and a segfault would take the server down. So it runs in the same sandbox as file extraction
(backend/sandbox.py: a forkserver child capping its own address space and CPU time, a fresh child after
any broken limit, a stuck child replaced), with a separate pool and tighter limits:

- **Its own pool** (`VIEWER_WORKERS`, one worker): ingesting a scanned book keeps every
  extraction worker busy for minutes, and a person opening a page must not wait behind that. One worker
  suffices for interactive viewing (a page takes 30–350 ms to draw; the image and its passage boxes are
  two quick jobs) and costs one idle process (about 100 MB resident) per Quire process; a hostile page
  holds it for at most its CPU limit, after which the next page is drawn.
- **Limits fit for a page, not a book** (`VIEWER_LIMITS`): CPU (5 s: a normal page needs well under
  0.5 s; the CPU limit is counted in whole seconds; it also bounds how long a hostile page keeps others
  waiting) and memory (1024 MB of address space: a worker starts from the one forkserver, which has
  imported every pool's libraries — extraction's readers and OCR too — so it holds about 400 MB of address
  space, some 180 MB resident, before drawing anything; a 4-megapixel image and the decoded images of a
  600 dpi scan need the rest. At 512 MB a worker reached the cap on large pages and was replaced after each
  one). No wall-clock limit: on a busy
  machine a page takes longer to draw, and is drawn; refusing it as "too complex" (and remembering the
  refusal) would blame the page for the machine's load.

A page over a limit answers 422 `page_too_complex`; that refusal is remembered for the file version, so
the same page does not occupy the worker again (see backend/viewer/page_cache.py). Each Quire process has
its own pool; nothing here is shared between processes.
"""

from __future__ import annotations

import threading
from typing import Any

from backend.errors import QuireError
from backend.sandbox import JobCrashed, LimitBroken, ProcessLimits, ProcessPool, preload
from backend.viewer import pdf_pages

preload(["backend.viewer.pdf_pages"])
_STATUS = {"page_out_of_range": 404, "unreadable_pdf": 422}


class PageTooComplex(QuireError):
    """The page broke a limit of the viewer's sandbox; `reason` says which."""

    def __init__(self, page: int, reason: str) -> None:
        super().__init__("page_too_complex", f"Page {page} is too complex to show; download the original.", 422,
                         {"reason": reason})


class _Shared:
    """The process's one viewer pool (a holder, so `viewer_pool` needs no `global`)."""

    pool: ProcessPool | None = None
    lock = threading.Lock()


# What drawing one page (or locating a passage on it) may use, in one worker of its own pool: beyond these
# a page answers 422 page_too_complex. One worker: the viewer draws a page at a time per process.
VIEWER_WORKERS = 1
VIEWER_LIMITS = ProcessLimits(memory_mb=1024, cpu_s=5)


def viewer_pool() -> ProcessPool:
    """The process's viewer pool, made on first use."""
    with _Shared.lock:
        if _Shared.pool is None:
            _Shared.pool = ProcessPool(VIEWER_WORKERS, VIEWER_LIMITS, name="quire-viewer")
        return _Shared.pool


def run_page_job(job: Any, path: str, page: int, *args: Any) -> Any:
    """`job(path, page, *args)` in a viewer worker; its refusals and broken limits as QuireErrors."""
    try:
        return viewer_pool().run(job, (path, page, *args))
    except pdf_pages.PageError as exc:
        raise QuireError(exc.code, exc.message, _STATUS.get(exc.code, 422)) from None
    except LimitBroken as exc:
        raise PageTooComplex(page, exc.reason) from None
    except JobCrashed as exc:
        raise QuireError("unreadable_pdf", f"Page {page} of this PDF cannot be shown ({exc.name}).", 422) from None
