"""Extraction time of workbooks, decks and Word documents in the sandbox's pool (no server): the cost of
reading a workbook twice (values, then formulas where no value was cached) and of OCR'ing the pictures on
slides and in Word documents.

Files: the corpus's workbooks, decks and Word documents, the hostile workbook declaring A1:XFD1048576, and a generated
100,000-row workbook whose last column is a formula (openpyxl writes no cached values). Each file is
read `--runs` times through the pool (median wall time) and once in this process for its CPU time,
tesseract's included, which other work on the machine does not inflate as it does wall time.
Usage: .venv/bin/python scripts/bench_office.py [--runs 3] [--kinds docx,pptx] [--smoke]
  --smoke: every file read once, the formula workbook 1,000 rows long, to prove the benchmark runs.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.process import configure_process

configure_process()

from backend.ingest.extract import extract_document
from backend.ingest.sandbox import Limits, SandboxPool, extract_sandboxed
from backend.store.kinds import DocKind
from scripts.shared_data import CORPUS
from tests.support.hostile import workbook_spanning_every_cell


def formula_workbook(path: Path, rows: int) -> Path:
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Data")
    sheet.append(["Item", "Count", "Price", "Note", "Total"])
    for row in range(2, rows + 2):
        sheet.append([f"item {row}", row % 97, row * 0.25, "plain", f"=B{row}*C{row}"])
    workbook.save(path)
    return path


def cpu_seconds(path: Path, kind: DocKind) -> float:
    """CPU time of reading `path` in this process, the tesseract processes it starts included."""
    def used() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    before = used()
    extract_document(path, kind, ocr_languages="eng+deu")
    return used() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kinds", default="xlsx,pptx,docx", help="which kinds of file to read, comma-separated")
    parser.add_argument("--smoke", action="store_true", help="one read each, a short formula workbook")
    args = parser.parse_args()
    if args.smoke:
        args.runs = 1
    formula_rows = 1_000 if args.smoke else 100_000
    kinds = set(args.kinds.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        files: list[tuple[Path, DocKind]] = []
        if "xlsx" in kinds:
            files += [(CORPUS / "readxl-datasets.xlsx", "xlsx"), (CORPUS / "readxl-deaths.xlsx", "xlsx"),
                      (workbook_spanning_every_cell(Path(tmp) / "every-cell.xlsx"), "xlsx"),
                      (formula_workbook(Path(tmp) / "formulas.xlsx", formula_rows), "xlsx")]
        if "pptx" in kinds:
            files += [(CORPUS / "py4e-02-expressions.pptx", "pptx"),
                      (CORPUS / "docling-powerpoint-sample.pptx", "pptx")]
        if "docx" in kinds:
            files += [(CORPUS / "docling-word-sample.docx", "docx"),
                      (CORPUS / "doj-chapter13-trustee-handbook.docx", "docx")]
        pool = SandboxPool(2, Limits())
        try:
            print(f"{'file':<36} {'median s':>9} {'CPU s':>7} {'blocks':>7} {'chars':>9}")
            for path, kind in files:
                times = []
                for _ in range(args.runs):
                    started = time.perf_counter()
                    result = extract_sandboxed(pool, path, kind, ocr_languages="eng+deu")
                    times.append(time.perf_counter() - started)
                chars = sum(len(unit.text) for unit in result.units)
                print(f"{path.name:<36} {statistics.median(times):>9.2f} {cpu_seconds(path, kind):>7.2f} "
                      f"{len(result.units):>7} {chars:>9,}")
        finally:
            pool.close()


if __name__ == "__main__":
    main()
