"""Viewer figures: how long a PDF page takes to render to PNG (at the viewer's scale 2) and to locate a
cited passage on it, over the pages of the corpus PDFs with a text layer; both in this process (what the
server did before) and in a worker of the viewer's sandbox pool (what it does now: the job sent to the
child, the PNG or boxes sent back), plus the pool's first job (starting the forkserver and a worker).

Calls the same functions the endpoints call (backend/viewer/pdf_pages.py, backend/viewer/page_workers.py),
so the figures leave out HTTP. Usage: python scripts/bench_viewer.py [corpus folder]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.config import Settings
from backend.ingest.extract.pdf import page_text
from backend.sandbox import ProcessPool
from backend.viewer.page_workers import limits_for  # also has the forkserver preload the viewer's jobs
from backend.viewer.pdf_pages import passage_job, render_job

PDFS = ["federal-register-2020-17221.pdf", "geotopo-lecture-notes-de.pdf"]
PAGES_PER_FILE = 15
SCALE = 2.0
PASSAGE_CHARS = 1000  # about one chunk (QUIRE_CHUNK_SIZE's default)

Run = Callable[[Callable[..., Any], tuple[Any, ...]], Any]


def measure(corpus: Path, run: Run) -> None:
    renders: list[float] = []
    finds: list[float] = []
    found: list[float] = []
    sizes: list[int] = []
    for name in PDFS:
        path = corpus / name
        with pymupdf.open(path) as document:
            count = min(PAGES_PER_FILE, document.page_count)
            texts = [page_text(document.load_page(n)) for n in range(count)]
        for number, text in enumerate(texts, start=1):
            started = time.perf_counter()
            png = run(render_job, (str(path), number, SCALE))
            renders.append(time.perf_counter() - started)
            sizes.append(len(png))
            passage = text[len(text) // 3 : len(text) // 3 + PASSAGE_CHARS]
            if not passage.strip():
                continue
            started = time.perf_counter()
            boxes = run(passage_job, (str(path), number, passage))
            finds.append(time.perf_counter() - started)
            found.append(boxes.matched_words / max(1, boxes.passage_words))

    def ms(values: list[float], q: float) -> str:
        return f"{statistics.quantiles(values, n=100)[int(q) - 1] * 1000:.0f} ms"

    print(f"  render PNG at scale {SCALE}: p50 {ms(renders, 50)}, p95 {ms(renders, 95)};"
          f" median size {statistics.median(sizes) / 1024:.0f} KB")
    print(f"  locate a {PASSAGE_CHARS}-character passage: p50 {ms(finds, 50)}, p95 {ms(finds, 95)};"
          f" words located: median {statistics.median(found):.0%}, lowest {min(found):.0%}")


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpus"
    print(f"pages: {PAGES_PER_FILE} of each of {', '.join(PDFS)}")
    print("in this process (before):")
    measure(corpus, lambda job, args: job(*args, None))
    pool = ProcessPool(1, limits_for(Settings.load()), name="bench-viewer")
    try:
        started = time.perf_counter()
        pool.run(render_job, (str(corpus / PDFS[0]), 1, SCALE))
        print(f"in the viewer's sandbox worker (now); first job, starting the worker: "
              f"{(time.perf_counter() - started) * 1000:.0f} ms")
        measure(corpus, pool.run)
    finally:
        pool.close()


if __name__ == "__main__":
    main()
