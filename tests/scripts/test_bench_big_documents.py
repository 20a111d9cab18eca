"""`scripts/bench_big_documents.py --smoke` runs as a user runs it (a subprocess) and prints, for both files,
a line per cancelled phase and the whole ingestion's RSS: where docs/benchmarks.md's big-document figures
come from must not break unnoticed. Small files go through some phases faster than a poll can see: only
what the script reports for the phases it met is checked (a bound against a hang, not a timing)."""

from __future__ import annotations

import re

import pytest

from tests.support.scripts import script_output

pytestmark = pytest.mark.slow


def test_bench_big_documents_smoke_reports_cancels_and_memory() -> None:
    out = script_output("bench_big_documents.py", "--smoke", timeout=1800)
    assert out.count("whole ingestion") == 2, out
    assert len(re.findall(r"server RSS idle \d+ MB, peak \d+ MB \(\+-?\d+\), after \d+ MB", out)) == 2, out
    assert len(re.findall(r"cancel while (reading|storing|making live|embedding) ", out)) == 8, out
    answered = [float(s) for s in re.findall(r"answered in +([\d.]+) s", out)]
    assert answered, out  # the smoke file's reading phase lasts long enough to be met at least once
    assert max(answered) < 10, out
    # A cancel while the file is read leaves nothing of it (later phases of a small file may be over before
    # the cancel lands: the document is then kept, as the web app says).
    for line in re.findall(r"cancel while reading .*answered.*", out):
        assert "document failed" in line, line
        assert " 0 live blocks" in line, line
