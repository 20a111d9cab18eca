"""`scripts/bench_scale.py --smoke` runs as a user runs it (a subprocess) and prints its figures for 1, 2 and
3 processes, every batch complete with no duplicate block: where the scale-out figures of docs/benchmarks.md come from
must not break unnoticed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_bench_scale_smoke_reports_one_two_and_three_processes() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_scale.py"), "--smoke"], cwd=ROOT,
                            capture_output=True, text=True, timeout=3600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = {match.group(1): match.group(0) for match in re.finditer(r"(\d) process(?:es)?: .*", result.stdout)}
    assert set(lines) == {"1", "2", "3"}, result.stdout
    for line in lines.values():
        assert "status SUCCESS, 2/2 documents with blocks, 0 with duplicate blocks" in line, line
    assert "throughput ratio: 2 processes" in result.stdout
