"""A Quire process (server or worker) started by a test: started, waited for, stopped or killed.

A start that fails or does not become ready in time kills the process before raising: a server left
running after its test gave up on it went on working (and logging) after pytest had exited.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path


class QuireProcess:
    kind = "process"

    def __init__(self, module: str, log_path: Path, env: dict[str, str], cwd: Path) -> None:
        self.module = module
        self.log_path = log_path
        self.env = env
        self.cwd = cwd
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def launch(self, timeout_s: float, ready: Callable[[], bool]) -> None:
        """Start `python -m module` and wait until `ready()`; on failure or timeout it is killed, then raised."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", self.module], cwd=self.cwd, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT)
        self.starts += 1
        try:
            self._wait(timeout_s, ready)
        except BaseException:
            self.kill()
            raise

    def _wait(self, timeout_s: float, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"Quire {self.kind} exited with {self.process.returncode}:\n{self.log_tail()}")
            if ready():
                return
            time.sleep(0.1)
        raise TimeoutError(f"Quire {self.kind} did not become ready in {timeout_s:g} s:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks run, exactly like a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM, as a user's Ctrl-C or a service manager stops it; killed if it does not end in 20 s."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 80) -> str:
        return "\n".join(self.log().splitlines()[-lines:])
