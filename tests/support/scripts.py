"""Running a script of scripts/ as a user runs it: `python scripts/NAME ...` from the checkout's root, in a
subprocess, its output captured. Used by the tests that keep the benchmark and evaluation scripts working."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_script(name: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The script's run, however it ended (for a test of how it fails)."""
    return subprocess.run([sys.executable, str(ROOT / "scripts" / name), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, check=False)


def script_output(name: str, *args: str, timeout: float = 120) -> str:
    """The standard output of a run that must succeed; a failed run fails the test with the end of both outputs."""
    done = run_script(name, *args, timeout=timeout)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout
