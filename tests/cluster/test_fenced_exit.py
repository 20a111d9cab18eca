"""A fenced process ends with its one line last, whatever its other threads are still logging: they woke
with it and find their database sessions ended, and their tracebacks must not bury the line a supervisor
shows (a fresh-clone run once saw twenty lines of a traceback after it)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from backend.cluster.membership import FENCED_EXIT_CODE

ROOT = Path(__file__).resolve().parents[2]

# Three threads log tracebacks without pause; two threads learn of the fence at the same moment.
PROGRAM = textwrap.dedent("""
    import logging, threading, time
    from backend.cluster.membership import exit_fenced

    logging.basicConfig(level="INFO", format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    def noisy():
        while True:
            try:
                try:
                    raise ConnectionError("server closed the connection unexpectedly")
                except ConnectionError:
                    raise RuntimeError("no connection to the server")
            except RuntimeError:
                logging.getLogger("noisy").exception("a step failed")

    for _ in range(3):
        threading.Thread(target=noisy, daemon=True).start()
    time.sleep(0.2)
    threading.Thread(target=exit_fenced, args=("FENCED: the one line",), daemon=True).start()
    exit_fenced("FENCED: the one line")
""")


def test_the_fenced_line_is_the_last_line_and_printed_once() -> None:
    for _ in range(5):
        run = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True,
                             timeout=60, check=False)
        assert run.returncode == FENCED_EXIT_CODE, run.stderr[-2000:]
        lines = run.stderr.splitlines()
        assert "a step failed" in run.stderr  # the noise before the fence stays in the log
        assert lines[-1] == "FENCED: the one line", lines[-5:]
        assert run.stderr.count("FENCED: the one line") == 1
