"""Extraction sandbox figures: memory of the server with its children while it reads hostile files, how
fast a cancel stops the reading process, and OCR throughput of a scanned PDF with 1 worker vs one per core,
side by side with its floor: two `tesseract` command-line runs at once over the same page renders.

It starts a throwaway embedded Postgres, the fake Ollama and real Quire servers, and measures through the
public API with psutil over the server's process tree (summed RSS: shared pages count in every process,
so the figure is an upper bound). Usage: .venv/bin/python scripts/bench_extract.py [--ocr-pages 8] [--ocr-only]
[--smoke]; `--smoke` reads the same hostile files (their limits need their sizes) but OCRs 2 pages, to prove
the benchmark runs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

import pymupdf

from backend.config import Settings
from backend.ingest.extract.ocr import OCR_DPI
from tests.support.documents import make_pdf, render_text_image
from tests.support.fake_ollama import FakeOllama
from tests.support.hostile import (
    PeakMeter,
    giant_page_pdf,
    huge_xml_docx,
    nested_list_markdown,
    one_line_text,
    tree,
)
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

MIB = 2**20


def ingest(api: httpx.Client, name: str, data: bytes) -> tuple[dict, float]:
    started = time.perf_counter()
    response = upload(api, {name: data})
    response.raise_for_status()
    wait_for_run(api, response.json()["workflow_id"], timeout_s=900)
    document = next(doc for doc in api.get("/api/documents").json() if doc["filename"] == name)
    return document, time.perf_counter() - started


def hostile(server: QuireServer, tmp: Path) -> None:
    assert server.process is not None
    pid = server.process.pid
    cases: list[tuple[str, Callable[[], bytes]]] = [
        ("giant-page.pdf", lambda: giant_page_pdf(tmp / "giant.pdf").read_bytes()),
        ("nested-list.md", nested_list_markdown),
        ("one-line.txt", one_line_text),
        ("huge-xml.docx", lambda: huge_xml_docx(tmp / "huge.docx").read_bytes()),
    ]
    with server.client(timeout=300.0) as api:
        before = psutil.Process(pid).memory_info().rss
        print(f"server alone before: {before / MIB:.0f} MiB")
        for name, make in cases:
            data = make()
            with PeakMeter(pid) as meter:
                document, seconds = ingest(api, name, data)
            outcome = document["status"] + (f" ({document['error']})" if document["error"] else "")
            print(f"{name:16} {len(data) / MIB:6.1f} MiB  {seconds:5.1f} s  peak RSS with children "
                  f"{meter.peak / MIB:5.0f} MiB  -> {outcome}")
        after = psutil.Process(pid).memory_info().rss
        print(f"server alone after:  {after / MIB:.0f} MiB (grew {(after - before) / MIB:.0f} MiB)")
        cancel(api, pid, (tmp / "huge.docx").read_bytes())


def cancel(api: httpx.Client, pid: int, data: bytes) -> None:
    response = upload(api, {"cancelled.docx": data})
    workflow_id = response.json()["workflow_id"]
    while (status := api.get(f"/api/ingest/{workflow_id}").json()["documents"][0]["status"]) != "extracting":
        if status in ("ready", "failed"):  # never seen reading: say so rather than wait forever
            raise SystemExit(f"the file to cancel ended {status} before it was seen being read")
        time.sleep(0.02)
    time.sleep(1.0)
    workers = {p.pid for p in tree(pid) if p.pid != pid and _busy(p)}
    started = time.perf_counter()
    api.post(f"/api/ingest/{workflow_id}/cancel").raise_for_status()
    while any(psutil.pid_exists(worker) and _busy(psutil.Process(worker)) for worker in workers):
        time.sleep(0.005)
    print(f"cancel -> reading process gone after {(time.perf_counter() - started) * 1000:.0f} ms "
          f"(request included)")


def _busy(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_RUNNING or process.cpu_percent(0.05) > 10
    except psutil.Error:
        return False


def ocr_throughput(postgres: ThrowawayPostgres, fake: FakeOllama, tmp: Path, pages: int) -> None:
    """A scanned PDF through a running server (a note ingested first, as on a server in use), with 1 worker
    and with one per core, between two measures of the floor. Upload to ready runs from the request to
    the run's last step as the server recorded it (no polling in the figure); reading is the document's
    read step: its text pass and every page's OCR."""
    texts = [f"Scanned page {n}: glaciers carve valleys, leave moraines and drumlins behind." * 3
             for n in range(pages)]
    pdf = make_pdf(tmp / "scans.pdf", texts, scanned=range(1, pages + 1)).read_bytes()
    floors = [tesseract_floor(tmp, pdf)]
    figures: dict[str, tuple[float, float]] = {}
    for workers in ("1", "0"):
        server = QuireServer(postgres.fresh_database(), Path(tempfile.mkdtemp(dir=tmp)), fake.url,
                             QUIRE_EXTRACT_WORKERS=workers).start()
        try:
            with server.client(timeout=300.0) as api:
                ingest(api, "note.md", b"# A note\n\nMoraines are left behind by glaciers.\n")
                started = time.time()
                response = upload(api, {"scans.pdf": pdf})
                response.raise_for_status()
                run = wait_for_run(api, response.json()["workflow_id"], timeout_s=900)
            ready_at = max(datetime.fromisoformat(step["finished_at"]).timestamp() for step in run["steps"])
            document = run["documents"][0]
            read_s = next(step["seconds"] for step in document["steps"] if step["name"] == "read")
            label = "1 worker" if workers == "1" else f"{len(os.sched_getaffinity(0))} workers (one per core)"
            print(f"OCR {pages} scanned pages, {label}: upload to ready {ready_at - started:.1f} s "
                  f"({pages / (ready_at - started):.2f} pages/s), reading {read_s:.1f} s, {document['status']}")
            figures[workers] = (ready_at - started, read_s)
        finally:
            server.stop()
    floors.append(tesseract_floor(tmp, pdf))
    floor_s = sum(floors) / len(floors)
    to_ready, reading = figures["0"]
    print(f"OCR {pages} scanned pages, 2 tesseract CLIs at once on the same renders: {floor_s:.1f} s "
          f"({floors[0]:.1f} s before, {floors[1]:.1f} s after); Quire (one worker per core) at "
          f"{floor_s / reading:.2f}x their speed reading, {floor_s / to_ready:.2f}x upload to ready")


def tesseract_floor(tmp: Path, pdf: bytes) -> float:
    """Seconds two `tesseract` CLIs, one page each at a time, take over the PDF's pages rendered as Quire
    renders them for OCR (OCR_DPI, grey), reading them as Quire does (its languages, `--psm 1`)."""
    folder = tmp / "renders"
    folder.mkdir(exist_ok=True)
    images = []
    with pymupdf.open(stream=pdf, filetype="pdf") as document:
        for number, page in enumerate(document):
            image = folder / f"{number}.png"
            page.get_pixmap(dpi=OCR_DPI, colorspace=pymupdf.csGRAY).save(str(image))
            images.append(image)
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}  # as the sandbox runs tesseract
    languages = Settings.load().ocr_languages
    started = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda image: subprocess.run(["tesseract", str(image), "-", "-l", languages, "--psm", "1",
                                                    "tsv"], env=env, capture_output=True, check=True), images))
    return time.perf_counter() - started


def omp_threads(tmp: Path) -> None:
    """Two tesseract runs side by side (as two pool workers run them), with and without OMP_THREAD_LIMIT=1."""
    image = tmp / "page.png"
    image.write_bytes(render_text_image("Moraines and drumlins are left behind by glaciers. " * 12))
    for limit in (None, "1"):
        env = {key: value for key, value in os.environ.items() if key != "OMP_THREAD_LIMIT"}
        if limit is not None:
            env["OMP_THREAD_LIMIT"] = limit
        started = time.perf_counter()
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda _, env=env: subprocess.run(["tesseract", str(image), "-", "--psm", "1"], env=env,
                                                            capture_output=True, check=True), range(4)))
        print(f"4 pages, 2 tesseracts at once, OMP_THREAD_LIMIT={limit or 'unset'}: "
              f"{time.perf_counter() - started:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ocr-pages", type=int, default=8)
    parser.add_argument("--ocr-only", action="store_true", help="only the OCR throughput figures")
    parser.add_argument("--smoke", action="store_true", help="2 scanned pages: proves the script works")
    args = parser.parse_args()
    if args.smoke:
        args.ocr_pages = 2
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        postgres, fake = ThrowawayPostgres(), FakeOllama().start()
        try:
            if not args.ocr_only:
                server = QuireServer(postgres.fresh_database(), tmp / "data", fake.url).start()
                try:
                    hostile(server, tmp)
                finally:
                    server.stop()
            ocr_throughput(postgres, fake, tmp, args.ocr_pages)
            omp_threads(tmp)
        finally:
            fake.stop()
            postgres.close()


if __name__ == "__main__":
    main()
