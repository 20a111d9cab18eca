"""Every benchmark in `scripts/` runs as a user runs it (a subprocess), at its `--smoke` size, and prints its
figures: a benchmark that crashes or stops printing what docs/benchmarks.md quotes fails the suite (issue #27,
"benchmarks cannot rot"). One case per script, each with the lines its figures must be on; the figures'
values at this size mean nothing. bench_embed, bench_scale, bench_transcribe and bench_tts have tests of their
own (tests/scripts/); bench_reference.py is no script but the reference index bench_search measures against,
run by bench_search's case. A case whose script needs what this machine lacks is skipped, saying what."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.scripts import script_output

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

NUMBER = r"[\d.,]+"


def _missing_whisper() -> str | None:
    if importlib.util.find_spec("faster_whisper") is None:
        return "voice requirements not installed (pip install -r requirements-voice.txt)"
    from backend.speech.models import find_model

    files = find_model("tiny.en")
    if files is None or files.name != "tiny.en":
        return "the tiny.en Whisper model is not installed (pip install -r requirements-voice.txt)"
    return None


@dataclass(frozen=True)
class Case:
    script: str
    figures: tuple[str, ...]  # one regex per line that must be printed (multiline, searched in stdout)
    args: tuple[str, ...] = ()
    missing: Callable[[], str | None] | None = None  # says why it cannot run here, if it cannot

    @property
    def id(self) -> str:
        return " ".join((self.script, *self.args))


CASES = [
    Case("bench_chat", (
        r"^sequential \| 6 \|( +[\d.]+ \|){9} 0$",
        r"^2 concurrent \| 6 \|( +[\d.]+ \|){9} 0$",
    )),
    Case("bench_chat_ab", (
        rf"^A .*: 6 turns, overhead p50 {NUMBER} ms, p95 {NUMBER} ms, start p50 {NUMBER} ms, failed 0$",
        rf"^B .*: 6 turns, overhead p50 {NUMBER} ms, p95 {NUMBER} ms, start p50 {NUMBER} ms, failed 0$",
        rf"^B - A overhead p50: [+-]{NUMBER} ms$",
    )),
    Case("bench_connections", (
        r"^started: 2 processes in \d+ s; peak sessions so far \d+",
        r"^batch of 2 documents: SUCCESS; sessions per process peak \d+ \(budget 9\), all processes peak \d+",
        r"^per process peaks: \[\d+, \d+\]$",
    )),
    Case("bench_db_loss", (
        r"^kills: 1; Quire process still the same: True; run: SUCCESS$",
        rf"^/api/health: \d+ answers, worst {NUMBER} ms, p99 {NUMBER} ms",
        rf"^/api/documents: \d+ answers, worst {NUMBER} ms, p99 {NUMBER} ms",
        rf"^kill 1: health says up after {NUMBER} s, /api/documents 200 after {NUMBER} s$",
        r"^lecture-2\.md: (\d+) live blocks, \1 distinct, \1 embedded$",
    )),
    Case("bench_extract", (
        r"^server alone before: \d+ MiB$",
        r"^giant-page\.pdf .* peak RSS with children +\d+ MiB +-> failed",
        r"^nested-list\.md .* peak RSS with children +\d+ MiB +-> ready$",
        r"^one-line\.txt .* peak RSS with children +\d+ MiB +-> failed",
        r"^huge-xml\.docx .* peak RSS with children +\d+ MiB +-> failed",
        r"^cancel -> reading process gone after \d+ ms",
        rf"^OCR 2 scanned pages, 1 worker: upload to ready {NUMBER} s \({NUMBER} pages/s\), reading {NUMBER} s, "
        r"ready$",
        rf"^OCR 2 scanned pages, \d+ workers \(one per core\): upload to ready {NUMBER} s \({NUMBER} pages/s\), "
        rf"reading {NUMBER} s, ready$",
        rf"^OCR 2 scanned pages, 2 tesseract CLIs at once on the same renders: {NUMBER} s \({NUMBER} s before, "
        rf"{NUMBER} s after\); Quire \(one worker per core\) at {NUMBER}x their speed reading, {NUMBER}x upload "
        r"to ready$",
        rf"^4 pages, 2 tesseracts at once, OMP_THREAD_LIMIT=1: {NUMBER} s$",
    )),
    Case("bench_fuzzy", (
        rf"^build: all at once {NUMBER} ms; in batches of 500 new terms p50 {NUMBER} ms",
        rf"^lookup of a misspelt word: p50 {NUMBER} ms, p95 {NUMBER} ms; {NUMBER} candidates on average",
        rf"^search, one word misspelt .* with the fuzzy channel p50 {NUMBER} ms",
        rf"^search, words as written .* with the fuzzy channel p50 {NUMBER} ms",
    )),
    Case("bench_ingest", (
        rf"^extract \+ chunk \+ store, pages/s +{NUMBER}",
        rf"^CPU ratio to the floor +{NUMBER}",
        rf"^DBOS ledger bytes per page +{NUMBER}",
        rf"^\d+ mixed small files, upload to ready \(s\) +{NUMBER}",
        rf"^re-scan \d+ unchanged files: scan step \(s\) +{NUMBER}",
    )),
    Case("bench_keyword_cap", (
        rf"^exact: p50 {NUMBER} ms, p95 {NUMBER} ms",
        r"^cap +100: impact lists of \d+ terms × \d+ blocks built in",
        rf"^cap +100: capped path [1-9]\d*/20 \(\d+ proven exact\); overlap@10 mean {NUMBER}",
        rf"^cap +400: capped path \d+/20 \(\d+ proven exact\); overlap@10 mean {NUMBER}",
    )),
    Case("bench_keyword_fold", (
        rf"^no change rows: statistics {NUMBER} ms per search$",
        rf"^2,800 block rows \+ [\d,]+ df rows \({NUMBER} MiB\): statistics {NUMBER} ms per search",
        rf"^  fold Fold\(stats_rows=2800, df_rows=\d+\) in \d+ ms; then statistics {NUMBER} ms, after VACUUM",
    )),
    Case("bench_office", tuple(
        rf"^{re.escape(name)} +{NUMBER} +{NUMBER} +[1-9]\d* +{NUMBER}$"
        for name in ("readxl-datasets.xlsx", "readxl-deaths.xlsx", "every-cell.xlsx", "formulas.xlsx",
                     "py4e-02-expressions.pptx", "docling-powerpoint-sample.pptx", "docling-word-sample.docx",
                     "doj-chapter13-trustee-handbook.docx"))),
    Case("bench_parallel_uploads", (
        r"^statuses: \{202: 8\}$",
        r"^distinct workflows: 1, run ended SUCCESS$",
        r"^distinct documents in answers: 1, in the library: 1$",
        r"^files left in docs/\.pending: 0$",
        r"^latency ms: p50 \d+, max \d+$",
    )),
    Case("bench_search", (
        r"^RSS added by the build +\d+",  # the memory breakdown
        rf"^build from Postgres \(s\) +{NUMBER} +{NUMBER}",  # product and reference columns
        rf"^hybrid k=7 p50 \(ms\) +{NUMBER} +{NUMBER}",
        rf"^delete visible \(ms\) +{NUMBER} +{NUMBER}",
        r"^  product: dense k=7 finds the query's document for \d+ of 22 queries$",
        r"^  reference: reference queries and deletes done",
    )),
    Case("bench_search", (
        r"^  product: keyword impact lists \(\d+ terms × \d+ blocks\) ready .* HNSW index built once",
        rf"^build from Postgres \(s\) +{NUMBER}",
        rf"^hybrid k=7 p50 \(ms\) +{NUMBER}",
        rf"^delete visible \(ms\) +{NUMBER}",
        r"^  product: dense k=7 finds the query's document for \d+ of 22 queries$",
    ), args=("--backend", "postgres")),
    Case("bench_viewer", (
        r"^the sandbox worker's first job .*: \d+ ms$",
        r"^in this process \(before\):$",
        r"^in the viewer's sandbox worker \(now\):$",
        r"^  render PNG at scale 2\.0: p50 \d+ ms, p95 \d+ ms; median size \d+ KB$",
        r"^  locate a 1000-character passage: p50 \d+ ms, p95 \d+ ms; words located: median \d+%",
    )),
    Case("bench_voice", (
        rf"^tiny\.en: RTF {NUMBER} \({NUMBER} s compute for {NUMBER} s of audio, 1 clips × 1\)",
        r"^  \[en\] 'What is the capital of France\?' -> '.*[A-Za-z].*'$",  # speech was heard
    ), missing=_missing_whisper),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_benchmark_smoke_run_prints_its_figures(case: Case) -> None:
    if case.missing is not None and (reason := case.missing()):
        pytest.skip(reason)
    out = script_output(f"{case.script}.py", "--smoke", *case.args, timeout=600)
    missing = [figure for figure in case.figures if not re.search(figure, out, re.MULTILINE)]
    assert not missing, f"not printed: {missing}\n{out[-3000:]}"
