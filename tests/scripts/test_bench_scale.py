"""`scripts/bench_scale.py --smoke` runs as a user runs it (a subprocess) and prints its figures for 1, 2 and
3 processes, every batch complete with no duplicate block: where the scale-out figures of docs/benchmarks.md come from
must not break unnoticed."""

from __future__ import annotations

import re

import pytest

from tests.support.scripts import script_output

pytestmark = pytest.mark.slow


def test_bench_scale_smoke_reports_one_two_and_three_processes() -> None:
    out = script_output("bench_scale.py", "--smoke", timeout=3600)
    lines = {match.group(1): match.group(0) for match in re.finditer(r"(\d) process(?:es)?: .*", out)}
    assert set(lines) == {"1", "2", "3"}, out
    for line in lines.values():
        assert "status SUCCESS, 2/2 documents with blocks, 0 with duplicate blocks" in line, line
    assert "throughput ratio: 2 processes" in out
