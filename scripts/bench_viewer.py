"""Viewer figures: how long a PDF page takes to render to PNG (at the viewer's scale 2) and to locate a
cited passage on it, over the pages of the corpus PDFs with a text layer; both in this process (what the
server did before) and in a worker of the viewer's sandbox pool (what it does now: the job sent to the
child, the PNG or boxes sent back), plus the pool's first job (starting the forkserver and a worker).
With --hostile, also the page of tests/support/hostile.py's `tangled_lines_pdf`: how long the worker
takes to refuse it, and what drawing it in this process costs (wall and CPU time; half a minute or so).

Calls the same functions the endpoints call (backend/viewer/pdf_pages.py, backend/viewer/page_workers.py),
so the figures leave out HTTP. Usage: python scripts/bench_viewer.py [--hostile] [--smoke] [corpus folder]
`--smoke`: 3 pages of each PDF, to prove the benchmark runs (with --hostile, the tangled page as well).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.ingest.extract.pdf import page_text
from backend.sandbox import LimitBroken, ProcessPool
from backend.viewer.page_workers import VIEWER_LIMITS  # also has the forkserver preload the viewer's jobs
from backend.viewer.pdf_pages import passage_job, render_job, render_page_png
from scripts.shared_data import CORPUS
from tests.support.hostile import tangled_lines_pdf

PDFS = ["federal-register-2020-17221.pdf", "geotopo-lecture-notes-de.pdf"]
PAGES_PER_FILE = 15
SCALE = 2.0
PASSAGE_CHARS = 1000  # about one chunk (QUIRE_CHUNK_SIZE's default)

Run = Callable[[Callable[..., Any], tuple[Any, ...]], Any]


@dataclass
class Figures:
    renders: list[float] = field(default_factory=list)
    finds: list[float] = field(default_factory=list)
    found: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


def timed(run: Run, job: Callable[..., Any], args: tuple[Any, ...], into: list[float]) -> Any:
    started = time.perf_counter()
    result = run(job, args)
    into.append(time.perf_counter() - started)
    return result


def measure(corpus: Path, runs: dict[str, Run], pages: int) -> dict[str, Figures]:
    """Every page through each way in turn, so both meet the same machine load and the same file cache."""
    figures = {name: Figures() for name in runs}
    for name in PDFS:
        path = corpus / name
        with pymupdf.open(path) as document:
            count = min(pages, document.page_count)
            texts = [page_text(document.load_page(n)) for n in range(count)]
        for number, text in enumerate(texts, start=1):
            passage = text[len(text) // 3 : len(text) // 3 + PASSAGE_CHARS]
            for way, run in runs.items():
                into = figures[way]
                into.sizes.append(len(timed(run, render_job, (str(path), number, SCALE, "pdf"), into.renders)))
                if passage.strip():
                    boxes = timed(run, passage_job, (str(path), number, passage, "pdf", None), into.finds)
                    into.found.append(boxes.matched_words / max(1, boxes.passage_words))
    return figures


def ms(values: list[float], q: float) -> str:
    return f"{statistics.quantiles(values, n=100)[int(q) - 1] * 1000:.0f} ms"


def hostile(pool: ProcessPool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = tangled_lines_pdf(Path(folder) / "tangled.pdf")
        started = time.perf_counter()
        try:
            pool.run(render_job, (str(path), 1, 1.5, "pdf"))
            outcome = "drawn"
        except LimitBroken as exc:
            outcome = f"refused: it {exc.reason}"
        print(f"tangled page, viewer worker: {outcome} after {time.perf_counter() - started:.1f} s")
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        started = time.perf_counter()
        render_page_png(path, 1, 1.5)
        after = resource.getrusage(resource.RUSAGE_SELF)
        print(f"tangled page, in this process (before): drawn in {time.perf_counter() - started:.1f} s,"
              f" {after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime:.1f} s of CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--hostile", action="store_true", help="also the tangled page (half a minute or so)")
    parser.add_argument("--smoke", action="store_true", help="3 pages of each PDF: proves the script works")
    args = parser.parse_args()
    corpus, pages = args.corpus, 3 if args.smoke else PAGES_PER_FILE
    print(f"pages: {pages} of each of {', '.join(PDFS)}")
    pool = ProcessPool(1, VIEWER_LIMITS, name="bench-viewer")
    try:
        started = time.perf_counter()
        pool.run(render_job, (str(corpus / PDFS[0]), 1, SCALE, "pdf"))
        print(f"the sandbox worker's first job (starting the forkserver and the worker): "
              f"{(time.perf_counter() - started) * 1000:.0f} ms")
        figures = measure(corpus, {"in this process (before)": lambda job, args: job(*args, None),
                                   "in the viewer's sandbox worker (now)": pool.run}, pages)
        report(figures)
        if args.hostile:
            hostile(pool)
    finally:
        pool.close()


def report(figures: dict[str, Figures]) -> None:
    for way, into in figures.items():
        print(f"{way}:")
        print(f"  render PNG at scale {SCALE}: p50 {ms(into.renders, 50)}, p95 {ms(into.renders, 95)};"
              f" median size {statistics.median(into.sizes) / 1024:.0f} KB")
        print(f"  locate a {PASSAGE_CHARS}-character passage: p50 {ms(into.finds, 50)}, p95 {ms(into.finds, 95)};"
              f" words located: median {statistics.median(into.found):.0%}, lowest {min(into.found):.0%}")


if __name__ == "__main__":
    main()
