"""Viewer figures: how long a PDF page takes to render to PNG (at the viewer's scale 2) and to locate a
cited passage on it, over the pages of the corpus PDFs with a text layer.

Calls the same functions the endpoints call (backend/viewer/pdf_pages.py), in this process, so the
figures leave out HTTP. Usage: python scripts/bench_viewer.py [corpus folder]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import pymupdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.ingest.extract.pdf import page_text
from backend.viewer.pdf_pages import find_passage, render_page_png

PDFS = ["federal-register-2020-17221.pdf", "geotopo-lecture-notes-de.pdf"]
PAGES_PER_FILE = 15
SCALE = 2.0
PASSAGE_CHARS = 1000  # about one chunk (QUIRE_CHUNK_SIZE's default)


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpus"
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
            png = render_page_png(path, number, SCALE)
            renders.append(time.perf_counter() - started)
            sizes.append(len(png))
            passage = text[len(text) // 3 : len(text) // 3 + PASSAGE_CHARS]
            if not passage.strip():
                continue
            started = time.perf_counter()
            boxes = find_passage(path, number, passage)
            finds.append(time.perf_counter() - started)
            found.append(boxes.matched_words / max(1, boxes.passage_words))

    def ms(values: list[float], q: float) -> str:
        return f"{statistics.quantiles(values, n=100)[int(q) - 1] * 1000:.0f} ms"

    print(f"pages: {len(renders)} from {', '.join(PDFS)}")
    print(f"render PNG at scale {SCALE}: p50 {ms(renders, 50)}, p95 {ms(renders, 95)};"
          f" median size {statistics.median(sizes) / 1024:.0f} KB")
    print(f"locate a {PASSAGE_CHARS}-character passage: p50 {ms(finds, 50)}, p95 {ms(finds, 95)};"
          f" words located: median {statistics.median(found):.0%}, lowest {min(found):.0%}")


if __name__ == "__main__":
    main()
