"""This process's memory of drawn PDF pages: PNGs, and pages refused as too complex to draw.

The browser already keeps each page image per file version (ETag, an hour's `Cache-Control`); this serves
the requests it still sends (another tab, a reload after the hour, zooming back to a scale seen) without
a trip to the viewer's sandbox worker, and it keeps a hostile page from occupying that worker on every
view: its refusal is answered from here for REFUSAL_KEPT_S (not for ever: a worker can also be lost to
something outside the page, the machine running short of memory, and the page then deserves another
try). Keys carry the file's SHA-256, so a new version is never answered from an old one's entry, and
every other process keeps its own cache (nothing assumes one process). The service checks that the
document exists before asking, so a deleted document's entry is never served; it leaves memory as newer
pages push it out.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

MAX_PNG_BYTES = 48 * 1024 * 1024  # about 200 pages at the viewer's scale (median 212 KB), per process
MAX_REFUSALS = 1000
REFUSAL_KEPT_S = 600.0


@dataclass(frozen=True)
class PageKey:
    sha256: str
    page: int
    scale: float


class PageCache:
    """Least recently used PNGs up to `max_bytes`, and the latest `max_refusals` refused pages (by file
    version and page: a page too complex at one scale is at every scale, its drawing work is the same),
    each for `refusal_kept_s`."""

    def __init__(self, max_bytes: int = MAX_PNG_BYTES, max_refusals: int = MAX_REFUSALS,
                 refusal_kept_s: float = REFUSAL_KEPT_S) -> None:
        self.max_bytes = max_bytes
        self.max_refusals = max_refusals
        self.refusal_kept_s = refusal_kept_s
        self._pngs: OrderedDict[PageKey, bytes] = OrderedDict()
        self._bytes = 0
        self._refused: OrderedDict[tuple[str, int], tuple[float, str]] = OrderedDict()
        self._lock = threading.Lock()

    def png(self, key: PageKey) -> bytes | None:
        with self._lock:
            png = self._pngs.get(key)
            if png is not None:
                self._pngs.move_to_end(key)
            return png

    def keep_png(self, key: PageKey, png: bytes) -> None:
        if len(png) > self.max_bytes:
            return
        with self._lock:
            old = self._pngs.pop(key, None)
            self._bytes -= len(old) if old is not None else 0
            self._pngs[key] = png
            self._bytes += len(png)
            while self._bytes > self.max_bytes:
                _, dropped = self._pngs.popitem(last=False)
                self._bytes -= len(dropped)

    def refusal(self, sha256: str, page: int) -> str | None:
        """Why the page was refused as too complex, if it was."""
        with self._lock:
            refused = self._refused.get((sha256, page))
            if refused is None:
                return None
            if time.monotonic() > refused[0]:
                del self._refused[(sha256, page)]
                return None
            return refused[1]

    def keep_refusal(self, sha256: str, page: int, reason: str) -> None:
        with self._lock:
            self._refused[(sha256, page)] = (time.monotonic() + self.refusal_kept_s, reason)
            self._refused.move_to_end((sha256, page))
            while len(self._refused) > self.max_refusals:
                self._refused.popitem(last=False)


PAGES = PageCache()  # this process's
